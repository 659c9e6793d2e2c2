import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { validAudit } from '../helpers/forms';
import { openProcessForm, postProcessForm, waitFor } from '../helpers/process-forms';
import { startServerProcess } from '../helpers/server-process';

jest.setTimeout(60_000);

const LEADS = 200;

/**
 * 200 visitors send the audit form at the same moment, each from its own address
 * behind the reverse proxy (TRUST_PROXY=1). The real process and its real SQLite file: every lead
 * is acknowledged and stored with one mail, the writes queue up instead of failing (no
 * SQLITE_BUSY, no 503), and the per-address rate limit does not trip. Mail goes to .eml files
 * (no SMTP_URL): each mail over SMTP is a round trip of its own, and 200 of them would make this
 * test slow; delivery over SMTP after a crash is crash-recovery.test.ts's subject.
 */
describe('200 concurrent leads', () => {
  it('are all acknowledged and stored, with one mail each and no SQLITE_BUSY', async () => {
    const server = await startServerProcess({ TRUST_PROXY: '1' });
    const databasePath = path.join(server.dir, 'site.db');
    const mailDir = path.join(server.dir, 'mail');
    try {
      // Each visitor's own address (198.51.100.0/24 is a documentation range) as the proxy appends
      // it, after the same address that every one of them wrote first: only the proxy's counts.
      const addresses = Array.from({ length: LEADS }, (_visitor, index) => `192.0.2.77, 198.51.100.${index + 1}`);
      const sessions = await Promise.all(addresses.map((address) => openProcessForm(server.url, '/free-audit', address)));

      const emails = sessions.map((_session, index) => `visitor${index}@load.example.co.uk`);
      const statuses = await Promise.all(
        // No website: the subject is the lead and its one mail (a site check may add a mail of its own).
        sessions.map((session, index) => postProcessForm(server.url, '/free-audit', session, { ...validAudit, website_url: '', email: emails[index]! }, addresses[index])),
      );
      expect(statuses.filter((status) => status !== 303)).toEqual([]);

      const db = new Database(databasePath, { readonly: true });
      try {
        const stored = (db.prepare('SELECT email FROM audit_submissions').all() as { email: string }[]).map((row) => row.email);
        expect(stored.sort()).toEqual([...emails].sort());
        const mailsPerLead = db
          .prepare(`SELECT a.id, count(m.id) AS mails FROM audit_submissions a LEFT JOIN mail_outbox m ON m.kind = 'audit' AND m.source_id = a.id GROUP BY a.id`)
          .all() as { id: number; mails: number }[];
        expect(mailsPerLead).toHaveLength(LEADS);
        expect(mailsPerLead.filter((row) => row.mails !== 1)).toEqual([]);
        expect(db.prepare('SELECT count(*) AS n FROM mail_outbox').get()).toEqual({ n: LEADS });

        // The worker writes them one after another; each once.
        await waitFor('every mail marked sent', () => (db.prepare('SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL').get() as { n: number }).n === 0, 20_000);
        const files = readdirSync(mailDir).filter((name) => name.endsWith('.eml'));
        expect(files).toHaveLength(LEADS);
        const messageIds = files.map((name) => /^Message-ID: (.+)$/im.exec(readFileSync(path.join(mailDir, name), 'utf8'))?.[1]?.trim());
        expect(new Set(messageIds).size).toBe(LEADS);
      } finally {
        db.close();
      }

      // Nothing went wrong on the way: no lock errors, no refused forms, no rate limit. Log lines
      // are written asynchronously: the worker's last one comes after the rows say sent.
      await waitFor('a log line for every mail sent', () => server.logs.filter((line) => line.msg === 'Email sent').length === LEADS, 10_000);
      const logText = server.logs.map((line) => JSON.stringify(line)).join('\n');
      expect(logText).not.toContain('SQLITE_BUSY');
      // 200 mails are exactly the daily cap, which is said at error level; nothing else is.
      const errors = server.logs.filter((line) => Number(line.level) >= 50);
      expect(errors.filter((line) => !String(line.msg).startsWith('Daily mail cap reached'))).toEqual([]);
      expect(server.logs.filter((line) => line.msg === 'Form refused' || line.msg === 'Submission held in quarantine' || line.msg === 'Email sending failed' || String(line.msg).startsWith('One address keeps more requests for form pages waiting'))).toEqual([]);
      expect(server.logs.filter((line) => line.msg === 'Lead stored')).toHaveLength(LEADS);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
