import type { ReactNode } from 'react';
import styled, { createGlobalStyle } from 'styled-components';
import SiteFooter from '../../client/components/layout/site-footer';
import { ShellIcon } from '../../client/components/ui/svg-icon';
import { Container, labelText } from '../../client/components/ui/layout-primitives';
import { GlobalStyle } from '../../client/theme/global-style';
import { color, layout, space, text } from '../../client/theme/theme';
import { site } from '../../shared/site';

/**
 * The frame of a document the agency delivers (server/reports/): the site's look, a header that
 * needs no script (the site's own opens its phone menu with one, and these pages run none), the
 * site's footer, and a print style that makes "Save as PDF" in any browser give a clean A4
 * document: no navigation, the text the full width of the paper, headings kept with what follows
 * them, figures, table rows and small groups never split, and every link out written out, since
 * a printed link cannot be followed (a link within the report prints as its words).
 *
 * Sections run on one after another on paper, breaking where the page is full: a section forced
 * onto a page of its own leaves the one before it nearly empty whenever its last lines spill over.
 * A report may still ask for a page per section (`printSections="page"`). The rules go by
 * element (section, heading, paragraph, figure, table), never by a section's id, so a section
 * added later prints as the others do. docs/audit-report.md ("On paper") says what the test of
 * the printed PDF checks.
 */

const PrintStyle = createGlobalStyle`
  @page { size: A4; margin: 18mm 16mm 20mm; }
  /* What only paper shows (a chart drawn group by group: bar-chart.tsx). */
  @media not print {
    [data-print="only"] { display: none !important; }
  }
  @media print {
    html { scroll-padding-top: 0; }
    body { font-size: 10.5pt; line-height: 1.45; }
    /* Through the id, over the screen sizes the page's own styles give its text and headings. */
    #main { min-height: 0; padding-block: 0; font-size: inherit; }
    #main > * { max-width: none; padding-inline: 0; }
    #main h1 { font-size: 22pt; }
    #main h2 { font-size: 16pt; }
    #main h3 { font-size: 12pt; }
    [data-print="hide"] { display: none !important; }
    [data-print-sections="page"] [data-report-section] + [data-report-section] { break-before: page; }
    /*
     * A heading never ends a page, and a section's opening words (heading, lead, subheading) stay
     * with the first block they introduce: a figure, a table, a list, a group of cards. A
     * paragraph, a figure, a table's row, a list's item and a group marked "together" are never
     * split. (Not a dt: Chromium then splits the "together" group its dl is in.)
     */
    h1, h2, h3, h4, caption { break-after: avoid; }
    [data-report-section] > :is(h2, h3, p):not(:is(figure, div, ol, ul, dl) ~ *):has(~ :is(figure, div, ol, ul, dl)) { break-after: avoid; }
    p, figure, tr, li, [data-print="together"] { break-inside: avoid; }
    dd { orphans: 3; widows: 3; }
    figure, svg { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
    a[href^="#"] { color: inherit; text-decoration: none; }
    a[href^="http"]::after { content: " (" attr(href) ")"; overflow-wrap: anywhere; }
  }
`;

const SkipLink = styled.a`
  position: absolute;
  left: 1rem;
  top: -10rem;
  z-index: 100;
  padding: 0.75rem 1rem;
  border-radius: 0.5rem;
  background: ${color.ink};
  color: #fff;
  &:focus { top: 1rem; color: #fff; }
`;

const Bar = styled.header`
  border-bottom: 1px solid ${color.border};
  background: ${color.surface};
`;

const BarInner = styled(Container)`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${space.sm} ${space.md};
  min-height: ${layout.headerHeight};
  padding-block: ${space.sm};
`;

const Brand = styled.a`
  display: inline-flex;
  align-items: center;
  gap: 0.5rem;
  font-weight: 800;
  font-size: 1.2rem;
  color: ${color.ink};
  text-decoration: none;
  &:hover { color: ${color.primary}; }
`;

const Mark = styled.span`
  display: inline-grid;
  place-items: center;
  width: 2rem;
  height: 2rem;
  border-radius: 0.6rem;
  background: linear-gradient(135deg, ${color.primary}, ${color.accent});
  color: #fff;
  svg { width: 1.1rem; height: 1.1rem; }
`;

const Private = styled.p`
  margin: 0;
  color: ${color.inkMuted};
  ${labelText}
`;

const Main = styled.main`
  min-height: 60vh;
  padding-block: ${space.xl} ${space.xxl};
  font-size: ${text.base};
  &:focus { outline: none; }
`;

/**
 * `label`: what the header says the page is ("Private report"). `printSections`: on paper, each
 * section on a page of its own ("page"), or one after another ("flow").
 */
export function ReportFrame({ label, printSections = 'page', children }: { label: string; printSections?: 'page' | 'flow'; children: ReactNode }) {
  return (
    <>
      <GlobalStyle />
      <PrintStyle />
      <SkipLink href="#main" data-print="hide">
        Skip to content
      </SkipLink>
      <Bar data-print="hide">
        <BarInner>
          <Brand href="/" aria-label={`${site.brand} home`}>
            <Mark aria-hidden="true">
              <ShellIcon name="message" />
            </Mark>
            {site.brand}
          </Brand>
          <Private>{label}</Private>
        </BarInner>
      </Bar>
      <Main id="main" tabIndex={-1} data-print-sections={printSections}>
        <Container>{children}</Container>
      </Main>
      <div data-print="hide">
        <SiteFooter />
      </div>
    </>
  );
}
