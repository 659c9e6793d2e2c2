/**
 * Text someone else wrote, as a report or a page shows a piece of it: on one line (each run of
 * white space one space), cut to `limit` characters, "…" last when it was longer.
 */
export function excerpt(text: string, limit: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}
