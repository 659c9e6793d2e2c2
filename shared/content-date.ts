const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A date from content/ as a UK reader writes it: '2025-01-07' as '7 January 2025', '2023-05'
 * (a month) as 'May 2023'. Written out rather than through Intl.DateTimeFormat: the server and
 * every browser print the same words whatever their locale data and time zone, and no formatter
 * is built while a page starts (building one takes a phone tens of milliseconds).
 */
export function formatContentDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(isoDate);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) throw new Error(`Not a content date: ${isoDate}`);
  const day = match[3] === undefined ? '' : `${Number(match[3])} `;
  return `${day}${month} ${match[1]}`;
}
