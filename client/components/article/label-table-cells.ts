/**
 * Gives every body cell of the article tables its column's heading, as `data-label`, and every
 * table part its ARIA role.
 *
 * Why: on a phone a three- to five-column table either crushes its columns into one-word strips
 * or scrolls sideways with most of it out of sight. Below the small breakpoint the article's
 * styles lay each row out as a card instead, with the column heading printed above each value
 * (from `data-label`). A table whose parts are given `display: block` loses its table semantics
 * in some browsers, so the explicit roles keep it a table for screen readers.
 *
 * The input is the HTML the content build made from our own Markdown (simple, regular tables:
 * one <thead> row of <th>, then <tbody> rows of <td>). The same string goes in on the server and
 * in the browser, so both render the same markup and hydration agrees.
 */
export function labelTableCells(html: string): string {
  if (!html.includes('<table')) return html;
  return html.replace(/<table>([\s\S]*?)<\/table>/g, (_table, inner: string) => {
    const head = /<thead>([\s\S]*?)<\/thead>/.exec(inner)?.[1] ?? '';
    const labels = [...head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((match) => attributeText(match[1] ?? ''));
    if (labels.length === 0) return `<table>${inner}</table>`;

    const withRoles = inner
      .replace(/<thead>/g, '<thead role="rowgroup">')
      .replace(/<tbody>/g, '<tbody role="rowgroup">')
      .replace(/<tr>/g, '<tr role="row">')
      .replace(/<th(\s[^>]*)?>/g, (_th, attributes: string | undefined) => `<th role="columnheader"${attributes ?? ''}>`);
    const labelled = withRoles.replace(/<tbody role="rowgroup">([\s\S]*?)<\/tbody>/, (_body, rows: string) => {
      const labelledRows = rows.replace(/<tr role="row">([\s\S]*?)<\/tr>/g, (_row, cells: string) => {
        let column = 0;
        const labelledCells = cells.replace(/<td(\s[^>]*)?>/g, (_cell, attributes: string | undefined) => {
          const label = labels[column] ?? '';
          column += 1;
          const dataLabel = label ? ` data-label="${label}"` : '';
          return `<td role="cell"${dataLabel}${attributes ?? ''}>`;
        });
        return `<tr role="row">${labelledCells}</tr>`;
      });
      return `<tbody role="rowgroup">${labelledRows}</tbody>`;
    });
    return `<table role="table">${labelled}</table>`;
  });
}

/** A heading cell's text, fit for an attribute value: tags dropped, entities kept as they are. */
function attributeText(cellHtml: string): string {
  return cellHtml
    .replace(/<[^>]*>/g, '')
    .replace(/"/g, '&quot;')
    .replace(/\s+/g, ' ')
    .trim();
}
