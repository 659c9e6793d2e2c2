import { closeSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ageOutTimes, listBackups } from '../backup/backup-files';
import { firstLine } from '../backup/database-file';
import { emptyWal, openDatabaseReadOnly, type Db } from '../db/database';
import { emailKey } from '../db/email-key';

export interface ErasureReport {
  auditSubmissions: number;
  /** The checks of the websites those requests named, with their reports. */
  siteChecks: number;
  /** The AI visibility probes of those requests: every question, answer and who was named. */
  visibilityProbes: number;
  /** The full audit runs of those requests, with every answer and the links to their reports. */
  auditRuns: number;
  /** Monitored clients with that contact address, or added from one of those requests: their runs, answers and page links with them. */
  clients: number;
  contactMessages: number;
  heldSubmissions: number;
  mails: number;
  unsentMails: number;
  emlFiles: string[];
}

/** Where a person's rows are: each table erasure empties of them, by the column that holds their address. */
const PERSON_ROWS = {
  auditSubmissions: { table: 'audit_submissions', column: 'email' },
  contactMessages: { table: 'contact_messages', column: 'email' },
  heldSubmissions: { table: 'quarantine', column: 'email' },
  mails: { table: 'mail_outbox', column: 'subject_email' },
  clients: { table: 'clients', column: 'email' },
} as const;

const rowsOf = (rows: keyof typeof PERSON_ROWS) => `FROM ${PERSON_ROWS[rows].table} WHERE email_key(${PERSON_ROWS[rows].column}) = ?`;

/** A monitored client is the person's by its contact address, or by the request of theirs it was added from (under any contact address). */
const THEIR_CLIENTS = `FROM clients WHERE email_key(email) = ? OR from_audit_id IN (SELECT id ${rowsOf('auditSubmissions')})`;

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
 * the checks of the websites they named, the visibility probes and audit runs of their requests,
 * held submissions, mails sent or not) in one
 * transaction, then the .eml copies of exactly those mails, found by their Message-ID. Addresses match however they are written (Unicode case,
 * compatibility forms, an internationalised domain or its punycode). The connection overwrites
 * what it deletes (secure_delete), and the WAL, which still holds earlier copies of the pages, is
 * checkpointed and truncated, so no copy stays readable in the database's files.
 */
export function erasePerson(db: Db, email: string, mailDir: string): ErasureReport {
  const key = emailKey(email);
  db.pragma('secure_delete = ON');
  const { messageIds, ...report } = db
    .transaction(() => {
      const mails = db.prepare<[string], { message_id: string; sent_at: string | null }>(`SELECT message_id, sent_at ${rowsOf('mails')}`).all(key);
      const remove = (rows: keyof typeof PERSON_ROWS) => db.prepare(`DELETE ${rowsOf(rows)}`).run(key).changes;
      return {
        messageIds: new Set(mails.map((mail) => mail.message_id)),
        unsentMails: mails.filter((mail) => mail.sent_at === null).length,
        // Before the requests themselves: a check is found by the request it belongs to. A later
        // check that reused one of its results keeps its own copy, and loses the link to it.
        siteChecks: (() => {
          const checks = `SELECT id FROM site_checks WHERE audit_id IN (SELECT id ${rowsOf('auditSubmissions')})`;
          db.prepare(`UPDATE site_checks SET reused_from = NULL WHERE reused_from IN (${checks})`).run(key);
          return db.prepare(`DELETE FROM site_checks WHERE id IN (${checks})`).run(key).changes;
        })(),
        visibilityProbes: db.prepare(`DELETE FROM visibility_probes WHERE audit_id IN (SELECT id ${rowsOf('auditSubmissions')})`).run(key).changes,
        // Their answers and the links to their reports go with them (ON DELETE CASCADE): a link
        // given out then opens nothing.
        auditRuns: db.prepare(`DELETE FROM runs WHERE audit_id IN (SELECT id ${rowsOf('auditSubmissions')})`).run(key).changes,
        // A client is theirs by its contact address, or by the request it was added from; its
        // runs, their answers and every link to its page go with it: its page then opens nothing.
        clients: db.prepare(`DELETE ${THEIR_CLIENTS}`).run(key, key).changes,
        auditSubmissions: remove('auditSubmissions'),
        contactMessages: remove('contactMessages'),
        heldSubmissions: remove('heldSubmissions'),
        mails: remove('mails'),
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
    if (emptyWal(db)) return;
    pause(100);
  }
  throw new Error('The WAL could not be emptied (the database stayed busy): run the erase again');
}

/** A backup that still holds rows about the person erased (or could not be read to tell). */
export interface BackupHoldingPerson {
  file: string;
  takenAt: Date;
  /** Rows about the person in it; null when it could not be read (the reason in `unreadable`). */
  rows: number | null;
  unreadable?: string;
  /** When the schedule deletes it (ageOutTimes); null: the schedule is off, it stays until deleted by hand. */
  agesOutAt: Date | null;
}

/** Rows about the person in a database of any schema version (a backup): its tables only. */
function countPersonRows(db: Db, key: string): number {
  const tables = new Set(db.prepare<[], string>(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all());
  return (Object.keys(PERSON_ROWS) as (keyof typeof PERSON_ROWS)[])
    .filter((rows) => tables.has(PERSON_ROWS[rows].table))
    .reduce((sum, rows) => {
      // Clients as erasure finds them: by their contact, or by the person's request they came from.
      if (rows === 'clients') return sum + (db.prepare<[string, string], number>(`SELECT count(*) ${THEIR_CLIENTS}`).pluck().get(key, key) ?? 0);
      return sum + (db.prepare<[string], number>(`SELECT count(*) ${rowsOf(rows)}`).pluck().get(key) ?? 0);
    }, 0);
}

/**
 * Erasure reaches the live database only. Backups are copies kept out of use (never read, only
 * restored to recover the site) until the schedule deletes them, which is what the ICO's guidance
 * on erasure asks of backups; the person is told which of them still hold their data and until
 * when. Returns those backups, and how many were looked at.
 */
export function backupsHoldingPerson(
  settings: { databasePath: string; backupDir: string; backupIntervalHours: number; backupKeep: number },
  email: string,
): { checked: number; holding: BackupHoldingPerson[] } {
  const key = emailKey(email);
  const backups = listBackups(settings.backupDir, settings.databasePath);
  const agesOut = ageOutTimes(backups, settings.backupIntervalHours, settings.backupKeep);
  const holding = backups.flatMap(({ file, takenAt }, index): BackupHoldingPerson[] => {
    const agesOutAt = agesOut[index] ?? null;
    try {
      const db = openDatabaseReadOnly(file);
      try {
        const rows = countPersonRows(db, key);
        return rows > 0 ? [{ file, takenAt, rows, agesOutAt }] : [];
      } finally {
        db.close();
      }
    } catch (error) {
      return [{ file, takenAt, rows: null, unreadable: firstLine(error), agesOutAt }];
    }
  });
  return { checked: backups.length, holding };
}
