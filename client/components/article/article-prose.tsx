import { useState } from 'react';
import styled from 'styled-components';
import { color, font, mediaDown, radius, space, text } from '../../theme/theme';
import { useInternalLinkNavigation } from '../../routing/links';
import { htmlOnScreen } from '../static-island';
import { labelText } from '../ui/layout-primitives';

/** Long-form text reads best at about 70 characters a line; tables and code may use the full column. */
const measure = '70ch';

const Prose = styled.div`
  color: ${color.ink};
  font-size: ${text.base};
  line-height: 1.75;
  overflow-wrap: break-word;

  > :first-child { margin-top: 0; }
  > :last-child { margin-bottom: 0; }

  p, ul, ol, blockquote, h2, h3 { max-width: ${measure}; }
  p { margin: 0 0 1.1em; }

  h2 {
    margin: ${space.xxl} 0 ${space.md};
    font-size: clamp(1.5rem, 1.25rem + 1vw, 2rem);
  }
  h3 {
    margin: ${space.xl} 0 ${space.sm};
    font-size: ${text.h3};
  }
  h2 + h3 { margin-top: ${space.lg}; }

  ul, ol {
    margin: 0 0 1.25em;
    padding-left: 1.5rem;
  }
  li { margin-bottom: 0.5em; padding-left: 0.25rem; }
  li::marker { color: ${color.primary}; font-weight: 700; }
  li > p { margin-bottom: 0.5em; }
  li > ul, li > ol { margin: 0.5em 0 0; }

  strong { font-weight: 700; }

  a {
    color: ${color.accent};
    font-weight: 500;
    text-decoration: underline;
    text-decoration-thickness: 1px;
    text-underline-offset: 0.18em;
    &:hover { color: ${color.primary}; text-decoration-thickness: 2px; }
  }

  blockquote {
    margin: ${space.xl} 0;
    padding: ${space.md} ${space.lg};
    border-left: 4px solid ${color.primary};
    border-radius: 0 ${radius.md} ${radius.md} 0;
    background: ${color.primarySoft};
    color: ${color.ink};
    font-size: ${text.lg};
    p:last-child { margin-bottom: 0; }
  }

  code {
    padding: 0.1em 0.35em;
    border: 1px solid ${color.border};
    border-radius: ${radius.sm};
    background: ${color.surfaceAlt};
    font-family: ${font.mono};
    font-size: 0.875em;
    overflow-wrap: anywhere;
  }

  pre {
    margin: ${space.lg} 0;
    padding: ${space.md} ${space.lg};
    overflow-x: auto;
    border-radius: ${radius.md};
    background: ${color.surfaceDark};
    color: ${color.onDark};
    font-size: ${text.sm};
    line-height: 1.6;
    code {
      padding: 0;
      border: 0;
      background: none;
      color: inherit;
      font-size: inherit;
      overflow-wrap: normal;
    }
  }

  hr {
    margin: ${space.xxl} 0;
    border: 0;
    border-top: 1px solid ${color.border};
  }

  /* The build wraps every table in a focusable, labelled region so a keyboard can scroll it. */
  .table-scroll {
    margin: ${space.lg} 0 ${space.xl};
    overflow-x: auto;
    border: 1px solid ${color.border};
    border-radius: ${radius.md};
    &:focus-visible { outline: 3px solid ${color.focus}; outline-offset: 2px; }
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: ${text.sm};
    line-height: 1.5;
  }
  th, td {
    /* Keeps columns from being crushed: the wrapper scrolls sideways instead. */
    min-width: 7.5rem;
    padding: 0.625rem ${space.md};
    border-bottom: 1px solid ${color.border};
    text-align: left;
    vertical-align: top;
  }
  thead th {
    vertical-align: bottom;
    background: ${color.primarySoft};
    color: ${color.ink};
    font-weight: 700;
  }
  tbody tr:nth-child(even) { background: ${color.surfaceAlt}; }
  tbody tr:last-child td { border-bottom: 0; }

  /*
   * Phones: each row becomes a card. Its first cell (the row's name in every article table) is
   * the card's title and each other value has its column heading above it, from the data-label
   * the content build gives every body cell. Only the layout changes: the table keeps its native
   * semantics, and the header row stays in the accessibility tree, off screen.
   */
  ${mediaDown('sm')} {
    .table-scroll { overflow: visible; border: 0; border-radius: 0; }
    table, thead, tbody, tr, th, td { display: block; }
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    tbody { display: grid; gap: ${space.md}; }
    tbody tr, tbody tr:nth-child(even) {
      padding: ${space.md};
      border: 1px solid ${color.border};
      border-radius: ${radius.md};
      background: ${color.surface};
    }
    td, tbody tr:last-child td { min-width: 0; padding: 0; border: 0; }
    td + td { margin-top: ${space.sm}; }
    td:first-child {
      padding-bottom: ${space.sm};
      border-bottom: 1px solid ${color.border};
      color: ${color.ink};
      font-size: ${text.base};
      font-weight: 700;
    }
    td:not(:first-child)[data-label]::before {
      display: block;
      color: ${color.inkMuted};
      ${labelText}
      content: attr(data-label);
      /* Screen readers already hear the column header: the printed copy is for the eye only. */
      content: attr(data-label) / '';
    }
  }
`;

/**
 * One run of article HTML, made at build time from our own Markdown (content/articles) and
 * shown as it stands. `html` is null on a first visit: the server's HTML for it is on
 * screen, and it is taken over as it stands (React leaves dangerouslySetInnerHTML markup alone at
 * hydration), so the words are not downloaded a second time.
 */
export function ArticleProse({ html, index }: { html: string | null; index: number }) {
  const onClick = useInternalLinkNavigation();
  const [onScreen] = useState(() => (html === null ? (htmlOnScreen(`[data-prose="${index}"]`) ?? '') : null));
  return <Prose data-prose={index} onClick={onClick} dangerouslySetInnerHTML={{ __html: onScreen ?? html ?? '' }} />;
}
