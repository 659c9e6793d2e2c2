import Database from 'better-sqlite3';
import { decodeQuotedPrintable, type TestSmtpServer } from './smtp';

/*
 * What the tests of the server's full runs share (the audit's and the monitored clients'): the
 * database file the server and the commands write, read as ops would; the mail as received; the
 * private pages as a visitor opens them.
 */

/** A business's whole home page: a title, and nothing else to read its name from. */
export const OKAFOR_HOME = '<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Home | Okafor Plumbing</title></head><body></body></html>';

/** Rows of the database file, read-only (as the server and the commands left them). */
export function query<T>(database: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(database, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Every mail the SMTP server received, its body decoded and folded header lines joined. */
export const receivedMails = (smtp: TestSmtpServer) => smtp.received.map((mail) => ({ to: mail.to, from: mail.from, text: decodeQuotedPrintable(mail.raw).replace(/\r?\n[ \t]+/g, ' ') }));

/** A private page as its reader's browser gets it. */
export async function pageAt(address: string): Promise<{ status: number; body: string }> {
  const response = await fetch(address);
  return { status: response.status, body: await response.text() };
}
