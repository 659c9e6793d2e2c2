import styled, { css } from 'styled-components';
import { color, layout, mediaUp, radius, space, text } from '../../theme/theme';

/** A list drawn by its own layout: no bullets or numbers, no indent. */
export const plainList = css`
  list-style: none;
  margin: 0;
  padding: 0;
`;

/** The small capitals of a label: a badge, a column name, a field's name in a card. */
export const labelText = css`
  font-size: ${text.xs};
  font-weight: 700;
  letter-spacing: 0.04em;
  text-transform: uppercase;
`;

/** The brand's soft violet pill: an eyebrow, a category, a counter, a step's number. */
export const softPill = css`
  border-radius: ${radius.pill};
  background: ${color.primarySoft};
  color: ${color.primaryHover};
`;

export const Container = styled.div<{ $narrow?: boolean }>`
  width: 100%;
  max-width: ${(p) => (p.$narrow ? layout.proseWidth : layout.maxWidth)};
  margin-inline: auto;
  padding-inline: ${space.md};
  ${mediaUp('md')} { padding-inline: ${space.xl}; }
`;

export const Section = styled.section<{ $tone?: 'plain' | 'alt' | 'dark' }>`
  padding-block: ${space.section};
  background: ${(p) => (p.$tone === 'alt' ? color.surfaceAlt : p.$tone === 'dark' ? color.surfaceDark : color.surface)};
  color: ${(p) => (p.$tone === 'dark' ? color.onDark : 'inherit')};
`;

export const Eyebrow = styled.p`
  display: inline-block;
  margin-bottom: ${space.md};
  padding: 0.25rem 0.75rem;
  ${softPill}
  ${labelText}
`;

export const SectionHeading = styled.h2`
  font-size: ${text.h2};
  max-width: 40rem;
`;

export const Lead = styled.p`
  font-size: ${text.lg};
  color: ${color.inkMuted};
  max-width: 44rem;
`;

export const Grid = styled.div<{ $min?: string }>`
  display: grid;
  gap: ${space.lg};
  grid-template-columns: repeat(auto-fit, minmax(min(100%, ${(p) => p.$min ?? '16rem'}), 1fr));
`;

export const Card = styled.div`
  background: ${color.surface};
  border: 1px solid ${color.border};
  border-radius: 1rem;
  padding: ${space.lg};
  box-shadow: 0 1px 2px rgba(15, 23, 42, 0.05);
`;
