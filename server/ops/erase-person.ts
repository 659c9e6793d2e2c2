import { closeSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database';
import { emailKey } from '../db/email-key';

export interface ErasureReport {
  auditSubmissions: number;
  /** The checks of the websites those requests named, with their reports. */
  siteChecks: number;
  contactMessages: number;
  heldSubmissions: number;
  mails: number;
  unsentMails: number;
  emlFiles: string[];
}

/** The Message-ID header of an .eml file (headers come first; 64 KB is far more than they take). */
function messageIdOf(file: string): string | null {
  const buffer = Buffer.alloc(64 * 1024);
  const fd = openSync(file, 'r');
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const head = buffer.toString('utf8', 0, length).split(/\r?\n\r?\n/, 1)[0] ?? '';
    return /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? null;
  } finally {
    closeSync(fd);
  }
}

/** Blocks for `ms` (the erase command is synchronous, and runs for a moment only). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * UK GDPR right to erasure: removes every row about one e-mail address from every table (leads,
 * the checks of the websites they named, held submissions, mails sent or not) in one transaction, then the .eml copies of exactly those
 * mails, found by their Message-ID. Addresses match however they are written (Unicode case,
 * compatibility forms, an internationalised domain or its punycode). The connection overwrites
 * what it deletes (secure_delete), and the WAL, which still holds earlier copies of the pages, is
 * checkpointed and truncated, so no copy stays readable in the database's files.
 */
export function erasePerson(db: Db, email: string, mailDir: string): ErasureReport {
  const key = emailKey(email);
  db.pragma('secure_delete = ON');
  const { messageIds, ...report } = db
    .transaction(() => {
      const mails = db.prepare<[string], { message_id: string; sent_at: string | null }>(`SELECT message_id, sent_at FROM mail_outbox WHERE email_key(subject_email) = ?`).all(key);
      return {
        messageIds: new Set(mails.map((mail) => mail.message_id)),
        unsentMails: mails.filter((mail) => mail.sent_at === null).length,
        siteChecks: db.prepare(`DELETE FROM site_checks WHERE audit_id IN (SELECT id FROM audit_submissions WHERE email_key(email) = ?)`).run(key).changes,
        auditSubmissions: db.prepare(`DELETE FROM audit_submissions WHERE email_key(email) = ?`).run(key).changes,
        contactMessages: db.prepare(`DELETE FROM contact_messages WHERE email_key(email) = ?`).run(key).changes,
        heldSubmissions: db.prepare(`DELETE FROM quarantine WHERE email_key(email) = ?`).run(key).changes,
        mails: db.prepare(`DELETE FROM mail_outbox WHERE email_key(subject_email) = ?`).run(key).changes,
      };
    })
    .immediate();
  truncateWal(db);

  const emlFiles: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
  } catch {
    names = [];
  }
  for (const name of names) {
    const file = path.join(mailDir, name);
    const id = messageIdOf(file);
    if (id !== null && messageIds.has(id)) {
      rmSync(file);
      emlFiles.push(file);
    }
  }
  return { ...report, emlFiles };
}

/**
 * Copies the WAL into the database and empties it. A reader in the middle of a query (the live
 * site) makes the checkpoint wait; it is tried again for a few seconds, then erasure fails loudly
 * rather than report done with copies left in the WAL.
 */
function truncateWal(db: Db): void {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    if (result?.busy === 0) return;
    pause(100);
  }
  throw new Error('The WAL could not be emptied (the database stayed busy): run the erase again');
}
