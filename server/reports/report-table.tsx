import type { ReactNode } from 'react';
import styled from 'styled-components';
import { labelText } from '../../client/components/ui/layout-primitives';
import { color, mediaDown, radius, space, text } from '../../client/theme/theme';

/**
 * A table of a report: a caption, column headings, and a heading cell naming each row, all with
 * their scope. On a wide screen it scrolls sideways inside a focusable, labelled region when its
 * columns do not fit; on a phone each row becomes a card, its name as the card's title and each
 * value under its column's heading (as the articles' tables do), so nothing has to be scrolled;
 * on paper, which cannot scroll, it fits the page's width.
 */

const Scroll = styled.div`
  margin: ${space.md} 0 ${space.xl};
  overflow-x: auto;
  border: 1px solid ${color.border};
  border-radius: ${radius.md};
  &:focus-visible { outline: 3px solid ${color.focus}; outline-offset: 2px; }

  table {
    width: 100%;
    border-collapse: collapse;
    font-size: ${text.sm};
    line-height: 1.5;
  }
  caption {
    padding: ${space.sm} ${space.md};
    text-align: left;
    font-weight: 700;
    color: ${color.ink};
  }
  th, td {
    min-width: 6.5rem;
    padding: 0.625rem ${space.md};
    border-top: 1px solid ${color.border};
    text-align: left;
    vertical-align: top;
    overflow-wrap: break-word;
  }
  thead th {
    vertical-align: bottom;
    background: ${color.primarySoft};
    font-weight: 700;
  }
  tbody th { font-weight: 700; }
  tbody tr:nth-child(even) { background: ${color.surfaceAlt}; }

  ${mediaDown('sm')} {
    overflow: visible;
    border: 0;
    border-radius: 0;
    caption { display: block; padding-inline: 0; }
    table, thead, tbody, tr, th, td { display: block; }
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    /* A long address in a cell wraps inside its card instead of widening every card. */
    tbody { display: grid; grid-template-columns: minmax(0, 1fr); gap: ${space.md}; }
    tbody tr, tbody tr:nth-child(even) {
      padding: ${space.md};
      border: 1px solid ${color.border};
      border-radius: ${radius.md};
      background: ${color.surface};
    }
    th, td { min-width: 0; padding: 0; border: 0; overflow-wrap: anywhere; }
    td { margin-top: ${space.sm}; }
    tbody th {
      padding-bottom: ${space.sm};
      border-bottom: 1px solid ${color.border};
      font-size: ${text.base};
    }
    td[data-label]::before {
      display: block;
      color: ${color.inkMuted};
      ${labelText}
      content: attr(data-label);
      /* Screen readers already hear the column heading: the printed copy is for the eye only. */
      content: attr(data-label) / '';
    }
  }

  /*
   * On paper: the table the width of the page, whatever its columns. Last, over the rules above
   * (a cell's screen min-width made a table of seven columns wider than A4). Smaller type, narrow
   * padding, a long address in a cell wrapped anywhere, the column headings again on each page
   * the table runs onto, and no row split (report-frame.tsx).
   */
  @media print {
    margin: 3mm 0 6mm;
    overflow: visible;
    border-radius: 0;
    table { font-size: 8.5pt; line-height: 1.35; }
    caption { padding: 1.5mm 2mm; }
    thead { display: table-header-group; }
    th, td { min-width: 0; padding: 1mm 2mm; }
    td { overflow-wrap: anywhere; }
  }
`;

export interface TableRow {
  /** Unique within the table. */
  key: string;
  /** The row's name: its heading cell. */
  name: ReactNode;
  cells: ReactNode[];
}

/** `columns`: the heading of the rows' names first, then one per cell. */
export function ReportTable({ id, caption, columns, rows }: { id: string; caption: string; columns: string[]; rows: TableRow[] }) {
  const [nameColumn, ...cellColumns] = columns;
  return (
    <Scroll role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table id={id}>
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{nameColumn}</th>
            {cellColumns.map((column, index) => (
              <th scope="col" key={index}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.name}</th>
              {row.cells.map((cell, index) => (
                <td key={index} data-label={cellColumns[index]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}
