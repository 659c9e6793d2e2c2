import styled from 'styled-components';
import { color, mediaUp, radius, shadow, space, text } from '../../theme/theme';
import { plainList } from './layout-primitives';

// Blocks that several inner pages share (the home page uses none, so none of it is in its JavaScript).

/** A white block for one part of a page (a form, contact details, next steps). */
export const Panel = styled.section`
  background: ${color.surface};
  border: 1px solid ${color.border};
  border-radius: ${radius.lg};
  box-shadow: ${shadow.card};
  padding: ${space.lg};
  ${mediaUp('md')} { padding: ${space.xl}; }
`;

/** Ticked points: each <li> holds a check icon and its text. */
export const CheckList = styled.ul`
  ${plainList}
  display: grid;
  gap: ${space.sm};
  li { display: flex; gap: ${space.sm}; align-items: flex-start; }
  svg { width: 1.25rem; height: 1.25rem; flex-shrink: 0; margin-top: 0.2rem; color: ${color.success}; }
`;

/**
 * Steps in order. The numbers are drawn by CSS, so the list stays a plain <ol> for assistive
 * technology. $large: bigger, filled numbers for a list that is the point of its panel.
 */
export const NumberedList = styled.ol<{ $large?: boolean }>`
  counter-reset: step;
  ${plainList}
  display: grid;
  gap: ${(p) => (p.$large ? space.lg : space.md)};
  li {
    counter-increment: step;
    display: grid;
    grid-template-columns: ${(p) => (p.$large ? '2.5rem' : '2rem')} minmax(0, 1fr);
    gap: ${space.md};
    align-items: start;
  }
  li::before {
    content: counter(step);
    display: grid;
    place-items: center;
    width: ${(p) => (p.$large ? '2.5rem' : '2rem')};
    height: ${(p) => (p.$large ? '2.5rem' : '2rem')};
    border-radius: 50%;
    background: ${(p) => (p.$large ? color.primary : color.primarySoft)};
    color: ${(p) => (p.$large ? '#fff' : color.primaryHover)};
    font-weight: ${(p) => (p.$large ? 800 : 700)};
    font-size: ${(p) => (p.$large ? 'inherit' : text.sm)};
  }
`;
