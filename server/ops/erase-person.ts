import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database';

export interface ErasureReport {
  auditSubmissions: number;
  contactMessages: number;
  mails: number;
  unsentMails: number;
  emlFiles: string[];
}

/**
 * UK GDPR right to erasure: removes every row about one e-mail address (any letter case) from
 * every table, unsent mails included, in one transaction, and the .eml copies the file
 * transport wrote. secure_delete overwrites the freed pages and the WAL is checkpointed and
 * truncated, so the data does not linger in the file.
 */
export function erasePerson(db: Db, email: string, mailDir: string): ErasureReport {
  const address = email.trim();
  db.pragma('secure_delete = ON');
  const report = db
    .transaction(() => {
      const unsentMails = (db.prepare(`SELECT count(*) AS n FROM mail_outbox WHERE subject_email = ? COLLATE NOCASE AND sent_at IS NULL`).get(address) as { n: number }).n;
      return {
        auditSubmissions: db.prepare(`DELETE FROM audit_submissions WHERE email = ? COLLATE NOCASE`).run(address).changes,
        contactMessages: db.prepare(`DELETE FROM contact_messages WHERE email = ? COLLATE NOCASE`).run(address).changes,
        mails: db.prepare(`DELETE FROM mail_outbox WHERE subject_email = ? COLLATE NOCASE`).run(address).changes,
        unsentMails,
      };
    })
    .immediate();
  db.pragma('wal_checkpoint(TRUNCATE)');

  const emlFiles: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
  } catch {
    names = [];
  }
  const needle = address.toLowerCase();
  for (const name of names) {
    const file = path.join(mailDir, name);
    if (readFileSync(file, 'utf8').toLowerCase().includes(needle)) {
      rmSync(file);
      emlFiles.push(file);
    }
  }
  return { ...report, emlFiles };
}
