/**
 * One fixed locale and time zone, so that the server's render and the browser's hydration print
 * the same day whatever the visitor's settings. Content dates are 'YYYY-MM-DD', which Date reads
 * as midnight UTC.
 */
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** '2025-01-07' -> '7 January 2025'. */
export function formatArticleDate(isoDate: string): string {
  return dateFormat.format(new Date(isoDate));
}
