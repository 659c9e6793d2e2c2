import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { validAudit } from '../helpers/forms';
import { openProcessForm, postProcessForm, waitFor } from '../helpers/process-forms';
import { startServerProcess } from '../helpers/server-process';
import { startSmtpServer } from '../helpers/smtp';

jest.setTimeout(60_000);

const LEADS = 50;
/** The process is killed when this many posts have been acknowledged, with the rest in flight. */
const KILL_AFTER_ACKNOWLEDGED = 10;

/**
 * Kill -9 under load: the real server process, killed with most of its 50 form posts still in
 * flight. synchronous=FULL and one transaction per lead mean every acknowledged lead is on
 * disk with its mail; the outbox lives in the database, so the mails go out after the restart.
 */
describe('kill -9 under load', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'citewise-crash-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged lead and its one mail, passes integrity_check, and sends each mail once after a restart', async () => {
    const smtp = await startSmtpServer('reject');
    const databasePath = path.join(dir, 'site.db');
    // startServerProcess takes DATABASE_PATH from env over its own temporary folder, so both runs
    // share this file. TRUST_PROXY gives each visitor its own client address: the rate limit (10
    // posts per address) and the bound on one address's form pages are not what this test is about.
    const env = { DATABASE_PATH: databasePath, SMTP_URL: smtp.url, MAIL_RETRY_BASE_MS: '200', TRUST_PROXY: '1' };
    try {
      const first = await startServerProcess(env);
      const sessions = await Promise.all(Array.from({ length: LEADS }, (_lead, index) => openProcessForm(first.url, '/free-audit', `198.51.100.${index + 1}`)));

      const acknowledged: string[] = [];
      const outcomes = await Promise.allSettled(
        sessions.map(async (session, index) => {
          const email = `lead${index}@crash.example.co.uk`;
          // No website: a check's findings may add a mail of their own (site-check.test.ts covers checks across a restart).
          const status = await postProcessForm(first.url, '/free-audit', session, { ...validAudit, website_url: '', email }, `198.51.100.${index + 1}`);
          if (status === 303) {
            acknowledged.push(email);
            if (acknowledged.length === KILL_AFTER_ACKNOWLEDGED) first.child.kill('SIGKILL');
          }
          return status;
        }),
      );
      expect(await first.stop('SIGKILL')).toBeNull();
      // The kill cut some posts off: they got no answer (a reset connection), never a wrong one.
      const unanswered = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
      expect(unanswered.length).toBeGreaterThan(0);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value !== 303)).toEqual([]);

      // What ops find on disk after the crash.
      const db = new Database(databasePath);
      let pending: { message_id: string }[];
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const stored = (db.prepare('SELECT email FROM audit_submissions').all() as { email: string }[]).map((row) => row.email);
        expect(stored).toEqual(expect.arrayContaining(acknowledged));
        const mailsPerLead = db
          .prepare(`SELECT a.email, count(m.id) AS mails FROM audit_submissions a LEFT JOIN mail_outbox m ON m.kind = 'audit' AND m.source_id = a.id GROUP BY a.id`)
          .all() as { email: string; mails: number }[];
        expect(mailsPerLead.filter((row) => row.mails !== 1)).toEqual([]);
        pending = db.prepare('SELECT message_id FROM mail_outbox WHERE sent_at IS NULL').all() as { message_id: string }[];
        // The SMTP server refused everything before the crash: every mail is still to send.
        expect(pending).toHaveLength(stored.length);
        expect(smtp.received).toHaveLength(0);
      } finally {
        db.close();
      }

      // The provider is back; the site restarts on the same database.
      smtp.mode = 'accept';
      const second = await startServerProcess(env);
      try {
        await waitFor(`${pending.length} mails`, () => smtp.received.length >= pending.length, 30_000);
        const check = new Database(databasePath, { readonly: true });
        try {
          await waitFor('every mail marked sent', () => (check.prepare('SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL').get() as { n: number }).n === 0, 10_000);
        } finally {
          check.close();
        }
        const messageIds = smtp.received.map((mail) => /^Message-ID: (.+)$/im.exec(mail.raw)?.[1]?.trim());
        expect(new Set(messageIds).size).toBe(messageIds.length);
        expect([...messageIds].sort()).toEqual(pending.map((row) => row.message_id).sort());
        // The log line of the last send may reach stdout after its row is marked sent.
        const sentLines = () => second.logs.filter((line) => line.msg === 'Email sent');
        await waitFor('every send logged', () => sentLines().length >= pending.length, 10_000);
        expect(sentLines()).toHaveLength(pending.length);
      } finally {
        expect(await second.stop()).toBe(0);
      }
    } finally {
      await smtp.close();
    }
  });
});
