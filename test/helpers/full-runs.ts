import Database from 'better-sqlite3';
import { decodeQuotedPrintable, type TestSmtpServer } from './smtp';

/*
 * What the tests of the server's full runs share (the audit's and the monitored clients'): the
 * database file the server and the commands write, read as ops would; the mail as received; the
 * private pages as a visitor opens them.
 */

/** A business's whole home page: a title, and nothing else to read its name from. */
export const OKAFOR_HOME = '<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Home | Okafor Plumbing</title></head><body></body></html>';

/**
 * The same business's home page with its contact facts in its structured data and its text: a
 * telephone number, a street address in Leeds and a postcode, what an answer's are checked against.
 */
export const OKAFOR_HOME_WITH_FACTS = [
  '<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Home | Okafor Plumbing</title>',
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Plumber","name":"Okafor Plumbing","telephone":"+44 113 496 0001",',
  '"address":{"@type":"PostalAddress","streetAddress":"12 Park Row","addressLocality":"Leeds","postalCode":"LS1 5HD"}}</script></head>',
  '<body><h1>Okafor Plumbing</h1><p>Gas Safe registered plumbers in Leeds since 2009. Boiler servicing, repairs and emergency call-outs.</p>',
  '<p>Call us on 0113 496 0001 or visit 12 Park Row, Leeds LS1 5HD.</p></body></html>',
].join('');

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
