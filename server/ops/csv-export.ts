import type { Db } from '../db/database';

export type ExportTable = 'audit' | 'contact' | 'quarantine';

const tables: Record<ExportTable, { name: string; columns: string[] }> = {
  audit: {
    name: 'audit_submissions',
    columns: ['id', 'created_at', 'name', 'email', 'website_url', 'business_description', 'ideal_customer', 'target_keywords', 'current_products', 'lead_sources', 'seo_experience', 'main_goal'],
  },
  contact: {
    name: 'contact_messages',
    columns: ['id', 'created_at', 'first_name', 'last_name', 'email', 'company', 'website', 'industry', 'subject', 'message'],
  },
  // Submissions held as suspected spam, with why; `fields` is the form as posted, as JSON.
  quarantine: {
    name: 'quarantine',
    columns: ['id', 'created_at', 'form', 'reason', 'email', 'fields'],
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
  const { name, columns } = tables[table];
  const where = since ? 'WHERE created_at >= ?' : '';
  const rows = db.prepare(`SELECT ${columns.join(', ')} FROM ${name} ${where} ORDER BY created_at, id`).all(...(since ? [since] : [])) as Record<string, unknown>[];
  const lines = [columns.map(csvField).join(','), ...rows.map((row) => columns.map((column) => csvField(row[column])).join(','))];
  return { csv: `${lines.join('\r\n')}\r\n`, rows: rows.length };
}
