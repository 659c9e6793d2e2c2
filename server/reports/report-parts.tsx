import styled from 'styled-components';
import { color, layout, space, text } from '../../client/theme/theme';

/**
 * The parts every report page is laid out with (the audit's, a client's monitoring): its
 * introduction and facts, a notice, a hint, the contents, a section and a chart's figure.
 */

export const Intro = styled.div`
  max-width: ${layout.proseWidth};
  margin-bottom: ${space.xl};
  h1 { font-size: clamp(1.875rem, 1.4rem + 2vw, 2.75rem); margin-bottom: ${space.lg}; }
`;

export const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${space.xs} ${space.md};
  margin: 0 0 ${space.lg};
  dt { font-weight: 700; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

export const Notice = styled.p`
  padding: ${space.md};
  border-left: 4px solid ${color.amber};
  background: ${color.surfaceAlt};
`;

export const Hint = styled.p`
  color: ${color.inkMuted};
  font-size: ${text.sm};
`;

export const Contents = styled.nav`
  max-width: ${layout.proseWidth};
  margin-bottom: ${space.xl};
  padding: ${space.md} ${space.lg};
  border-left: 4px solid ${color.primary};
  background: ${color.surfaceAlt};
  h2 { font-size: ${text.lg}; margin-bottom: ${space.sm}; }
  ol { margin: 0; padding-left: 1.5rem; }
  li + li { margin-top: ${space.xs}; }
`;

export const Section = styled.section`
  padding-top: ${space.xl};
  margin-top: ${space.xl};
  border-top: 2px solid ${color.ink};
  h2 { font-size: clamp(1.5rem, 1.25rem + 1vw, 2rem); }
  h3 { font-size: ${text.lg}; margin-top: ${space.xl}; }
  > p, > ul, > ol { max-width: ${layout.proseWidth}; }
  @media print {
    padding-top: 4mm;
    margin-top: 8mm;
    h3 { margin-top: 6mm; }
  }
`;

/**
 * A chart's figure. On paper a chart is at most 10 cm wide, its words about the size of the
 * text's, and at most 13 cm tall (a long chart smaller), so that it fits on a page with the words
 * that lead into it; a chart drawn group by group for paper (bar-chart.tsx) puts two groups side
 * by side across the page.
 */
export const Figure = styled.figure`
  margin: ${space.lg} 0;
  max-width: 32rem;
  svg { width: 100%; height: auto; overflow: visible; }
  text { font-family: inherit; }
  @media print {
    max-width: none;
    margin: 4mm 0 5mm;
    > svg { width: auto; max-width: min(100mm, 100%); max-height: 130mm; }
    [data-chart-groups] { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 3mm 10mm; }
    [data-chart-groups] svg { display: block; break-inside: avoid; }
  }
`;
