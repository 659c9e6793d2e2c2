import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LeadStore } from '../../server/leads/lead-store';
import { emlFileTransport, smtpTransport } from '../../server/mail/mail-transport';
import { capturingLogger } from '../helpers/capturing-logger';
import { holdExclusiveLock } from '../helpers/database-lock';
import { countRows, postForm, submitLead, validAudit, validContact } from '../helpers/forms';
import { waitFor } from '../helpers/process-forms';
import { decodeQuotedPrintable, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { createTestApp, type TestApp } from '../helpers/test-app';

jest.setTimeout(30_000);

let testApp: TestApp;
let smtp: TestSmtpServer | undefined;
beforeEach(() => {
  testApp = createTestApp({ env: { MAIL_TO: 'leads@citewise.example', MAIL_FROM: 'web@citewise.example' } });
});
afterEach(async () => {
  testApp.close();
  await smtp?.close();
  smtp = undefined;
});

describe('the lead notification over SMTP', () => {
  it('reaches MAIL_TO with Reply-To the prospect, every field readable, and a stable Message-ID', async () => {
    smtp = await startSmtpServer('accept');
    await submitLead(testApp, '/free-audit', { ...validAudit, main_goal: 'Be named first <script>alert(1)</script>' });
    const { logger } = capturingLogger();
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { logger });
    worker.kick();
    await worker.idle();

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['leads@citewise.example']);
    expect(mail.from).toBe('web@citewise.example');
    const raw = decodeQuotedPrintable(mail.raw);
    expect(raw).toMatch(/^Reply-To: Priya Shah <priya@shahpayroll\.co\.uk>/m);
    expect(raw).toMatch(/^Subject: New AI visibility audit request: Priya Shah/m);
    const { main_goal: _replaced, ...unchanged } = validAudit;
    for (const value of Object.values(unchanged).filter((text) => !text.includes('\n'))) expect(raw).toContain(value);
    expect(raw).toContain('Content-Type: text/html');
    // Markup typed into a field is escaped in the HTML body.
    expect(raw).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    const stored = testApp.db.prepare('SELECT message_id, sent_at, attempts FROM mail_outbox').get() as { message_id: string; sent_at: string; attempts: number };
    expect(raw).toContain(`Message-ID: ${stored.message_id}`);
    expect(stored.sent_at).not.toBeNull();
    expect(stored.attempts).toBe(1);

    // Sent once: another pass sends nothing more.
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(1);
    await worker.stop();
  });

  it('sends contact messages through the same outbox', async () => {
    smtp = await startSmtpServer('accept');
    const { response } = await postForm(testApp, '/contact', validContact);
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/contact?sent=1');
    expect(testApp.db.prepare('SELECT first_name, email, subject, message FROM contact_messages').get()).toEqual({
      first_name: 'Dan',
      email: 'dan@example.co.uk',
      subject: 'consultation',
      message: validContact.message,
    });
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { logger: capturingLogger().logger });
    worker.kick();
    await worker.idle();
    const raw = decodeQuotedPrintable(smtp.received[0]?.raw ?? '');
    expect(raw).toMatch(/^Subject: New contact message: Dan Okafor \(Strategy Consultation\)/m);
    expect(raw).toMatch(/^Reply-To: Dan Okafor <dan@example\.co\.uk>/m);
    await worker.stop();
  });
});

describe('when sending fails', () => {
  const row = () => testApp.db.prepare('SELECT attempts, next_attempt_at, sent_at, last_error FROM mail_outbox').get() as Record<string, unknown>;

  it('logs "Email sending failed", keeps the mail, and retries with exponential backoff, across a restart', async () => {
    smtp = await startSmtpServer('reject');
    await submitLead(testApp, '/free-audit', validAudit);
    const storedAt = testApp.clock().getTime();
    const at = (ms: number) => new Date(storedAt + ms).toISOString();
    const { logger, lines } = capturingLogger();
    const failing = testApp.outboxWorker(smtpTransport(smtp.url), { logger, retryBaseMs: 30_000 });
    failing.kick();
    await failing.idle();

    expect(row()).toMatchObject({ attempts: 1, next_attempt_at: at(30_000), sent_at: null });
    expect(String(row().last_error)).toContain('550');
    expect(lines.find((line) => line.msg === 'Email sending failed')).toMatchObject({ level: 40, attempts: 1 });

    // Not due yet: nothing is tried.
    testApp.clock.advance(29_999);
    failing.kick();
    await failing.idle();
    expect(row()).toMatchObject({ attempts: 1 });

    // Due: tried again and failed again; the delay doubles.
    testApp.clock.advance(1);
    failing.kick();
    await failing.idle();
    expect(row()).toMatchObject({ attempts: 2, next_attempt_at: at(30_000 + 60_000), sent_at: null });
    await failing.stop();
    expect(countRows(testApp.db, 'mail_outbox')).toBe(1);

    // A restart with a working server sends the kept mail once it is due.
    await smtp.close();
    smtp = await startSmtpServer('accept');
    testApp.clock.advance(60_000);
    const restarted = testApp.outboxWorker(smtpTransport(smtp.url), { logger, retryBaseMs: 30_000 });
    restarted.start();
    await restarted.idle();
    expect(smtp.received).toHaveLength(1);
    expect(row()).toMatchObject({ attempts: 3, last_error: null });
    expect(row().sent_at).not.toBeNull();
    await restarted.stop();
  });

  it('keeps a mail through a dozen failures, doubling the delay up to 6 hours, then sends it exactly once', async () => {
    smtp = await startSmtpServer('reject');
    await submitLead(testApp, '/free-audit', validAudit);
    const { logger, lines } = capturingLogger();
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { logger, retryBaseMs: 30_000 });
    const SIX_HOURS = 6 * 60 * 60 * 1000;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const triedAt = testApp.clock().getTime();
      worker.kick();
      await worker.idle();
      const kept = row();
      expect(countRows(testApp.db, 'mail_outbox')).toBe(1);
      expect(kept).toMatchObject({ attempts: attempt, sent_at: null });
      expect(String(kept.last_error)).toContain('550');
      const delay = Date.parse(String(kept.next_attempt_at)) - triedAt;
      delays.push(delay);
      // One millisecond early nothing happens; at the due time the next attempt runs.
      testApp.clock.advance(delay - 1);
      worker.kick();
      await worker.idle();
      expect(row()).toMatchObject({ attempts: attempt });
      testApp.clock.advance(1);
    }
    // 30 s doubling: 30 s, 1, 2, 4, 8, 16, 32, 64, 128, 256 min, then the 6-hour ceiling.
    expect(delays).toEqual([...Array.from({ length: 10 }, (_, index) => 30_000 * 2 ** index), SIX_HOURS, SIX_HOURS]);
    expect(lines.filter((line) => line.msg === 'Email sending failed')).toHaveLength(12);

    smtp.mode = 'accept';
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(1);
    expect(row()).toMatchObject({ attempts: 13, last_error: null });
    expect(row().sent_at).toBe(testApp.clock().toISOString());

    // Sent is sent: later passes, however late, send nothing more.
    testApp.clock.advance(SIX_HOURS * 4);
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(1);
    expect(worker.nextWake).toBeNull();
    await worker.stop();
  });

  it('gives up on an SMTP server that never answers within its timeout, without blocking later passes', async () => {
    smtp = await startSmtpServer('silent');
    await submitLead(testApp, '/free-audit', validAudit);
    const { logger, lines } = capturingLogger();
    // Production waits 10 s for a greeting; a shorter bound keeps the test quick.
    const worker = testApp.outboxWorker(smtpTransport(smtp.url, { connectionMs: 1000, greetingMs: 1000, socketMs: 1000 }), { logger });
    worker.kick();
    await worker.idle();
    const failure = lines.find((line) => line.msg === 'Email sending failed');
    expect(String(failure?.err)).toMatch(/timeout/i);
    expect(testApp.db.prepare('SELECT attempts, sent_at FROM mail_outbox').get()).toEqual({ attempts: 1, sent_at: null });
    await worker.stop();
  });
});

describe('while ops hold the database', () => {
  const row = () => testApp.db.prepare('SELECT attempts, sent_at, message_id FROM mail_outbox').get() as { attempts: number; sent_at: string | null; message_id: string };
  const messageIdOf = (raw: string) => /^Message-ID: (.+)$/m.exec(raw)?.[1]?.trim();

  it('sends nothing (a mail it could not mark sent would go again), and sends the mail once after they let go', async () => {
    smtp = await startSmtpServer('accept');
    await submitLead(testApp, '/free-audit', validAudit);
    const { logger, lines } = capturingLogger();
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { logger });
    const lock = holdExclusiveLock(testApp.config.databasePath);
    await lock.locked;
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(0);
    expect(lines.filter((line) => line.msg === 'Mail outbox worker failed')).toHaveLength(1);
    // Not tried again at once, though the mail is overdue: a few seconds later.
    expect(worker.nextWake!.getTime() - testApp.clock().getTime()).toBe(5000);

    await lock.release();
    await waitFor('the mail to be sent', () => smtp!.received.length === 1, 20_000);
    await worker.idle();
    expect(row()).toMatchObject({ attempts: 1, sent_at: expect.any(String) });
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(1);
    await worker.stop();
  });

  it('a mail sent just before they took the lock, which cannot be marked sent, is not sent again while they hold it; once they let go it goes again, with the same Message-ID', async () => {
    smtp = await startSmtpServer('accept');
    // The provider takes its time to answer: ops take the lock meanwhile.
    smtp.holdNextReply();
    await submitLead(testApp, '/free-audit', validAudit);
    const { logger, lines } = capturingLogger();
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { logger });
    const failures = () => lines.filter((line) => line.msg === 'Mail outbox worker failed').length;
    worker.kick();
    await waitFor('the provider to have read the mail', () => smtp!.awaitingReply === 1, 20_000);
    const lock = holdExclusiveLock(testApp.config.databasePath);
    await lock.locked;
    expect(smtp.awaitingReply).toBe(1);
    smtp.answerHeld();
    await worker.idle();
    expect(smtp.received).toHaveLength(1);
    expect(failures()).toBe(1);
    // The next pass, while the lock is still held, sends nothing.
    await waitFor('the next pass', () => failures() === 2, 20_000);
    await worker.idle();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.awaitingReply).toBe(0);

    await lock.release();
    await waitFor('the mail to go again', () => smtp!.received.length === 2, 20_000);
    await worker.idle();
    expect(row().sent_at).not.toBeNull();
    // The same message twice: a mail client shows it once.
    expect(smtp.received.map((mail) => messageIdOf(mail.raw))).toEqual([row().message_id, row().message_id]);
    await worker.stop();
  });
});

describe('without SMTP_URL', () => {
  it('writes each mail as an .eml file under mail/ beside the database', async () => {
    await submitLead(testApp, '/free-audit', validAudit);
    const worker = testApp.outboxWorker(emlFileTransport(testApp.config.mailDir), { logger: capturingLogger().logger });
    worker.kick();
    await worker.idle();
    expect(testApp.config.mailDir).toBe(path.join(testApp.dir, 'mail'));
    const files = readdirSync(testApp.config.mailDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const raw = decodeQuotedPrintable(readFileSync(path.join(testApp.config.mailDir, files[0]!), 'utf8'));
    expect(raw).toMatch(/^To: leads@citewise\.example/m);
    expect(raw).toContain(validAudit.target_keywords);
    await worker.stop();
  });
});

describe('SMTP timeouts', () => {
  it('take a timeout written in SMTP_URL over our default', async () => {
    smtp = await startSmtpServer('silent');
    const started = Date.now();
    const transport = smtpTransport(`${smtp.url}?greetingTimeout=500`);
    await expect(transport.send({ from: 'a@citewise.example', to: 'b@citewise.example', subject: 's', text: 't', html: 'h', messageId: '<t@citewise.example>' })).rejects.toThrow(/greeting never received/i);
    // Our default would wait 10 s for the greeting; the URL's 500 ms applied.
    expect(Date.now() - started).toBeLessThan(5000);
    transport.close();
  });
});

describe('the daily cap on notification mails', () => {
  it('sends at most the cap in a UTC day, keeps the rest, and sends them the next day', async () => {
    smtp = await startSmtpServer('accept');
    testApp.clock.set('2030-03-04T22:59:00.000Z');
    for (const email of ['one@example.co.uk', 'two@example.co.uk', 'three@example.co.uk']) await submitLead(testApp, '/free-audit', { ...validAudit, email });
    testApp.clock.set('2030-03-04T23:00:00.000Z');
    const { logger, lines } = capturingLogger();
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { logger, dailyCap: 2 });
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(2);
    const capLines = lines.filter((line) => String(line.msg).startsWith('Daily mail cap reached'));
    expect(capLines).toHaveLength(1);
    expect(capLines[0]?.level).toBe(50);
    expect(countRows(testApp.db, 'audit_submissions')).toBe(3);
    expect(testApp.db.prepare('SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL').get()).toEqual({ n: 1 });

    // Still the same UTC day: nothing more goes out, and the worker does not spin: it sleeps
    // (at most a minute at a time, to notice a changed clock) instead of retrying at once.
    testApp.clock.set('2030-03-04T23:59:59.000Z');
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(2);
    expect(worker.nextWake?.getTime()).toBe(Date.parse('2030-03-05T00:00:00.000Z'));
    testApp.clock.set('2030-03-04T23:00:00.000Z');
    worker.kick();
    await worker.idle();
    expect(worker.nextWake?.getTime()).toBe(Date.parse('2030-03-04T23:01:00.000Z'));

    testApp.clock.set('2030-03-05T00:00:01.000Z');
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(3);
    // The first mail after the cap tells the agency that notifications were held back; once.
    const next = decodeQuotedPrintable(smtp.received[2]!.raw).replace(/=\r?\n/g, '');
    expect(next).toContain('on 2030-03-04 (UTC) the limit of 2 notification mails a day was reached');
    await submitLead(testApp, '/free-audit', { ...validAudit, email: 'four@example.co.uk' });
    worker.kick();
    await worker.idle();
    expect(smtp.received).toHaveLength(4);
    expect(smtp.received[3]!.raw).not.toContain('notification mails a day was reached');
    expect(capLines).toHaveLength(1);
    await worker.stop();
  });
});

describe('the order mail goes out in', () => {
  /** The Reply-To address of each mail the peer received, in order. */
  const senders = () => smtp!.received.map((mail) => /^Reply-To: .*?<?([^<>\s]+@[^<>\s]+)>?\s*$/m.exec(decodeQuotedPrintable(mail.raw))?.[1]);
  /** Stores a lead from `email` with its notification, as a bot's flood would, without the form's round trip. */
  const storeLeadFrom = (email: string) =>
    new LeadStore(testApp.db).save('audit', { ...validAudit, email }, testApp.clock(), (id) => ({ from: 'a@citewise.example', to: 'b@citewise.example', replyTo: { name: 'x', address: email }, subject: `flood ${id}`, text: 't', html: '<body>h</body>', messageId: `<flood-${id}@citewise.example>` }));

  it('sends a new lead before a flood from one address that came first', async () => {
    smtp = await startSmtpServer('accept');
    for (let index = 0; index < 30; index += 1) storeLeadFrom('bot@spam.example');
    testApp.clock.advance(1000);
    await submitLead(testApp, '/free-audit', { ...validAudit, email: 'real@lead.example' });
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { dailyCap: 3 });
    worker.kick();
    await worker.idle();
    // The lead first (each sender's first mail before anyone's second, the newest first among
    // those), then the flood's.
    expect(senders()).toEqual(['real@lead.example', 'bot@spam.example', 'bot@spam.example']);
    await worker.stop();
  });

  it('still sends a lead that came first when a flood from one address follows it', async () => {
    smtp = await startSmtpServer('accept');
    await submitLead(testApp, '/free-audit', { ...validAudit, email: 'real@lead.example' });
    testApp.clock.advance(1000);
    for (let index = 0; index < 30; index += 1) storeLeadFrom('bot@spam.example');
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { dailyCap: 2 });
    worker.kick();
    await worker.idle();
    // Each sender's first mail before anyone's second (the newest first among those): the
    // flood's first, then the lead; the flood's other 29 wait for the next day.
    expect(senders()).toEqual(['bot@spam.example', 'real@lead.example']);
    await worker.stop();
  });

  it('sends a new lead before a flood from many addresses that came first', async () => {
    smtp = await startSmtpServer('accept');
    for (let index = 0; index < 40; index += 1) storeLeadFrom(`bot${index}@spam.example`);
    testApp.clock.advance(1000);
    await submitLead(testApp, '/free-audit', { ...validAudit, email: 'real@lead.example' });
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { dailyCap: 1 });
    worker.kick();
    await worker.idle();
    expect(senders()).toEqual(['real@lead.example']);
    await worker.stop();
  });
});
