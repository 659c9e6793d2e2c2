import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from '../../server/db/database';
import { waitFor } from '../helpers/process-forms';
import { startServerProcess } from '../helpers/server-process';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';

jest.setTimeout(60_000);

const QUEUED = 1000;

/** The Message-ID of each mail the peer received. */
const receivedIds = (smtp: TestSmtpServer) => smtp.received.map((mail) => /^Message-ID: (<[^>]+>)/im.exec(mail.raw)?.[1] ?? '');

/*
 * A restart after an outage, or a day over the mail cap, leaves a backlog: SIGTERM must still end
 * the process promptly (docker stop kills it after 10 s), and the mail being sent at that moment
 * must go out exactly once across the restart.
 */
describe('a clean stop with a thousand mails waiting', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'citewise-backlog-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 within 2 s of SIGTERM, and every mail is sent once across the restart', async () => {
    const databasePath = path.join(dir, 'site.db');
    const db = openDatabase(databasePath);
    migrate(db);
    const insert = db.prepare(
      `INSERT INTO mail_outbox (kind, source_id, subject_email, message_id, message, next_attempt_at, created_at) VALUES ('audit', ?, ?, ?, ?, ?, ?)`,
    );
    const now = new Date().toISOString();
    db.transaction(() => {
      for (let index = 0; index < QUEUED; index += 1) {
        const messageId = `<backlog-${index}@citewise.example>`;
        const message = { from: 'web@citewise.example', to: 'leads@citewise.example', subject: `Backlog ${index}`, text: 'A lead', html: '<body>A lead</body>', messageId };
        insert.run(index, `person${index}@example.co.uk`, messageId, JSON.stringify(message), now, now);
      }
    })();
    db.close();

    const smtp = await startSmtpServer('accept');
    try {
      const env = { DATABASE_PATH: databasePath, SMTP_URL: smtp.url };
      const first = await startServerProcess(env);
      await waitFor('the backlog to be sending', () => smtp.received.length >= 3, 20_000);
      const signalled = Date.now();
      expect(await first.stop('SIGTERM')).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(2000);
      expect(first.logs.map((line) => line.msg)).toContain('Stopped');

      const second = await startServerProcess(env);
      const before = smtp.received.length;
      await waitFor('the restart to send more of the backlog', () => smtp.received.length >= before + 3, 20_000);
      expect(await second.stop('SIGTERM')).toBe(0);

      const ids = receivedIds(smtp);
      expect(ids.length).toBeGreaterThan(before);
      // Each mail received once, and exactly the ones the outbox marks as sent.
      expect(new Set(ids).size).toBe(ids.length);
      const check = openDatabase(databasePath);
      try {
        const sent = (check.prepare('SELECT message_id FROM mail_outbox WHERE sent_at IS NOT NULL').all() as { message_id: string }[]).map((row) => row.message_id);
        expect([...sent].sort()).toEqual([...ids].sort());
        expect(check.prepare('SELECT count(*) AS n FROM mail_outbox').get()).toEqual({ n: QUEUED });
      } finally {
        check.close();
      }
    } finally {
      await smtp.close();
    }
  });
});
