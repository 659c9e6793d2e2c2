import type { Db } from '../db/database';

export type ExportTable = 'audit' | 'contact' | 'quarantine' | 'checks' | 'clients';

/** The latest audit run of the request in the row that has a report (complete or stopped part way). */
const LATEST_REPORT = `id = (SELECT max(id) FROM runs WHERE audit_id = audit_submissions.id AND status IN ('done', 'stopped') AND document IS NOT NULL)`;

/** One assistant's "named N of M" in a client's run, from its report (empty: not asked, or no report). */
const namedBy = (assistant: string) => ({
  name: `${assistant}_named`,
  sql: `(SELECT json_extract(value, '$.named.count') || ' of ' || json_extract(value, '$.named.of') FROM json_each(runs.document, '$.visibility') WHERE json_extract(value, '$.assistant') = '${assistant}')`,
});

/**
 * What each export reads: `from` (a table, or a table joined to what stands beside its rows) and
 * the columns, each a column of `from` or a named expression over it.
 */
const tables: Record<ExportTable, { from: string; columns: (string | { name: string; sql: string })[] }> = {
  audit: {
    // Each request with its website's check beside it: the score, and one line of what to fix
    // (or why the site was not checked, or 'queued'/'running' while it is being checked); and its
    // AI visibility probe the same way (empty while no assistant is configured).
    from: 'audit_submissions LEFT JOIN site_checks ON site_checks.audit_id = audit_submissions.id LEFT JOIN visibility_probes ON visibility_probes.audit_id = audit_submissions.id',
    columns: [
      ...['id', 'created_at', 'name', 'email', 'website_url', 'business_description', 'ideal_customer', 'target_keywords', 'current_products', 'lead_sources', 'seo_experience', 'main_goal'].map((column) => ({ name: column, sql: `audit_submissions.${column}` })),
      { name: 'site_check_score', sql: 'site_checks.score' },
      { name: 'site_check_summary', sql: `CASE WHEN site_checks.status IN ('queued', 'running') THEN site_checks.status ELSE site_checks.summary END` },
      { name: 'probe_score', sql: 'visibility_probes.score' },
      { name: 'probe_summary', sql: `CASE WHEN visibility_probes.status IN ('queued', 'running') THEN visibility_probes.status ELSE visibility_probes.summary END` },
      // Its latest audit run with a report (npm run audit): when it was made, its visibility
      // score, and whether the prospect was sent it (empty: no report yet).
      { name: 'audit_made_at', sql: `(SELECT finished_at FROM runs WHERE ${LATEST_REPORT})` },
      { name: 'audit_score', sql: `(SELECT visibility_score FROM runs WHERE ${LATEST_REPORT})` },
      { name: 'audit_sent', sql: `(SELECT CASE WHEN sent_at IS NULL THEN 'no' ELSE 'yes' END FROM runs WHERE ${LATEST_REPORT})` },
    ],
  },
  contact: {
    from: 'contact_messages',
    columns: ['id', 'created_at', 'first_name', 'last_name', 'email', 'company', 'website', 'industry', 'subject', 'message'],
  },
  // Submissions held as suspected spam, with why; `fields` is the form as posted, as JSON.
  quarantine: {
    from: 'quarantine',
    columns: ['id', 'created_at', 'form', 'reason', 'email', 'fields'],
  },
  // The monitored clients' runs, one row each (npm run clients): the series of questions it
  // asked, its scores, and each assistant's answers naming the client out of those it gave.
  clients: {
    from: 'runs JOIN clients ON clients.id = runs.client_id',
    columns: [
      { name: 'client_id', sql: 'clients.id' },
      { name: 'label', sql: 'clients.label' },
      { name: 'site', sql: 'clients.site' },
      { name: 'series', sql: 'runs.series' },
      { name: 'run_id', sql: 'runs.id' },
      { name: 'created_at', sql: 'runs.created_at' },
      { name: 'run_at', sql: 'runs.finished_at' },
      { name: 'trigger', sql: 'runs.trigger' },
      { name: 'status', sql: 'runs.status' },
      { name: 'visibility_score', sql: 'runs.visibility_score' },
      { name: 'readiness_score', sql: 'runs.readiness_score' },
      namedBy('chatgpt'),
      namedBy('claude'),
      namedBy('gemini'),
      namedBy('perplexity'),
    ],
  },
  // The public AI-readiness checks (asked for on their own, no request owns them), and whether an
  // audit request named the same host afterwards: what the checker brings in.
  checks: {
    from: '(SELECT * FROM site_checks WHERE audit_id IS NULL) AS checks',
    columns: [
      { name: 'id', sql: 'checks.id' },
      { name: 'created_at', sql: 'checks.created_at' },
      { name: 'checked_at', sql: 'checks.finished_at' },
      { name: 'url', sql: 'checks.url' },
      { name: 'host', sql: 'checks.host' },
      { name: 'status', sql: 'checks.status' },
      { name: 'score', sql: 'checks.score' },
      { name: 'summary', sql: 'checks.summary' },
      {
        name: 'audit_requested',
        sql: `CASE WHEN EXISTS (SELECT 1 FROM site_checks AS audits WHERE audits.audit_id IS NOT NULL AND audits.host = checks.host AND audits.host <> '' AND audits.created_at >= checks.created_at) THEN 'yes' ELSE 'no' END`,
      },
    ],
  },
};

/**
 * A cell a spreadsheet would run as a formula gets a leading apostrophe, which spreadsheets show
 * as text (OWASP, CSV Injection: = + - @ tab and carriage return; line feed too).
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r\n]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: every field quoted, quotes doubled, CRLF between records. */
function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return `"${neutraliseFormula(text).replace(/"/g, '""')}"`;
}

/** The rows of one table as CSV, oldest first, optionally from a day (UTC) onwards. */
export function exportCsv(db: Db, table: ExportTable, since?: string): { csv: string; rows: number } {
  const { from, columns: specs } = tables[table];
  const columns = specs.map((spec) => (typeof spec === 'string' ? { name: spec, sql: spec } : spec));
  const at = (name: string) => columns.find((column) => column.name === name)?.sql ?? name;
  const where = since ? `WHERE ${at('created_at')} >= ?` : '';
  const select = columns.map((column) => `${column.sql} AS ${column.name}`).join(', ');
  const rows = db.prepare(`SELECT ${select} FROM ${from} ${where} ORDER BY ${at('created_at')}, ${at(table === 'clients' ? 'run_id' : 'id')}`).all(...(since ? [since] : [])) as Record<string, unknown>[];
  const lines = [columns.map((column) => csvField(column.name)).join(','), ...rows.map((row) => columns.map((column) => csvField(row[column.name])).join(','))];
  return { csv: `${lines.join('\r\n')}\r\n`, rows: rows.length };
}
