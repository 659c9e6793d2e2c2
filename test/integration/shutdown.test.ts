import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from '../../server/db/database';
import { waitFor } from '../helpers/process-forms';
import { startServerProcess } from '../helpers/server-process';
import { ROOT } from '../helpers/locations';
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
/** Fills the outbox of a new database with `count` mails due now, as a restart after an outage finds it. */
function queueBacklog(databasePath: string, count: number): void {
  const db = openDatabase(databasePath);
  migrate(db);
  const insert = db.prepare(
    `INSERT INTO mail_outbox (kind, source_id, subject_email, message_id, message, next_attempt_at, created_at) VALUES ('audit', ?, ?, ?, ?, ?, ?)`,
  );
  // Due long ago, whatever the server's clock says.
  const due = '2000-01-01T00:00:00.000Z';
  db.transaction(() => {
    for (let index = 0; index < count; index += 1) {
      const messageId = `<backlog-${index}@citewise.example>`;
      const message = { from: 'web@citewise.example', to: 'leads@citewise.example', subject: `Backlog ${index}`, text: 'A lead', html: '<body>A lead</body>', messageId };
      insert.run(index, `person${index}@example.co.uk`, messageId, JSON.stringify(message), due, due);
    }
  })();
  db.close();
}

/** The Message-IDs the outbox marks as sent, and how many rows it holds. */
function outboxState(databasePath: string): { sent: string[]; rows: number } {
  const db = openDatabase(databasePath);
  try {
    const sent = (db.prepare('SELECT message_id FROM mail_outbox WHERE sent_at IS NOT NULL').all() as { message_id: string }[]).map((row) => row.message_id);
    return { sent: sent.sort(), rows: (db.prepare('SELECT count(*) AS n FROM mail_outbox').get() as { n: number }).n };
  } finally {
    db.close();
  }
}

describe('a clean stop with a thousand mails waiting', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'citewise-backlog-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 within 2 s of SIGTERM, and every mail is sent once across the restart', async () => {
    const databasePath = path.join(dir, 'site.db');
    queueBacklog(databasePath, QUEUED);

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
      expect(outboxState(databasePath)).toEqual({ sent: [...ids].sort(), rows: QUEUED });
    } finally {
      await smtp.close();
    }
  });

  it('exits 0 within 2 s while a slow mail server has not yet answered, and that mail is sent once, at the next start', async () => {
    const databasePath = path.join(dir, 'slow.db');
    queueBacklog(databasePath, 3);
    const smtp = await startSmtpServer('accept');
    // It answers only after the process has ended: the mail is still being sent when it does.
    smtp.holdNextReply();
    try {
      const env = { DATABASE_PATH: databasePath, SMTP_URL: smtp.url };
      const first = await startServerProcess(env);
      await waitFor('a mail to be waiting for its answer', () => smtp.awaitingReply === 1, 20_000);
      const signalled = Date.now();
      expect(await first.stop('SIGTERM')).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(2000);
      expect(first.logs.map((line) => line.msg)).toContain('A mail was still being sent at shutdown: it stays in the outbox and is sent at the next start');
      // The server answers after the sender hung up: nothing was handed over, nothing recorded.
      expect(outboxState(databasePath)).toEqual({ sent: [], rows: 3 });

      const second = await startServerProcess(env);
      await waitFor('the restart to send the three mails', () => smtp.received.length === 3, 20_000);
      expect(await second.stop('SIGTERM')).toBe(0);
      // The first connection's late answer, to a sender long gone: nothing is handed over.
      smtp.answerHeld();
      expect(smtp.awaitingReply).toBe(0);

      const ids = receivedIds(smtp);
      expect([...ids].sort()).toEqual(['<backlog-0@citewise.example>', '<backlog-1@citewise.example>', '<backlog-2@citewise.example>']);
      expect(outboxState(databasePath)).toEqual({ sent: [...ids].sort(), rows: 3 });
    } finally {
      await smtp.close();
    }
  });

  it('exits 0 when stopped while the pages are still being rendered at start-up', async () => {
    const starting = await startServerProcess({ DATABASE_PATH: path.join(dir, 'starting.db') }, ROOT, 'Rendering the pages into memory');
    // Not killed by the signal (an exit code of null): the stop is handled, and ends the process.
    expect(await starting.stop('SIGTERM')).toBe(0);
  });
});
