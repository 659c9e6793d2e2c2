import { parse } from 'node-html-parser';
import request from 'supertest';
import { BUSY_TIMEOUT_MS } from '../../server/db/database';
import { smtpTransport } from '../../server/mail/mail-transport';
import { OutboxWorker } from '../../server/mail/outbox-worker';
import { auditFields } from '../../shared/forms/audit-form';
import { HONEYPOT_FIELD } from '../../shared/forms/form-contract';
import { holdExclusiveLock } from '../helpers/database-lock';
import { capturingLogger } from '../helpers/capturing-logger';
import { countRows, openForm, postForm, submitLead, THANK_YOU_WITH_CHECK, validAudit } from '../helpers/forms';
import { waitFor } from '../helpers/process-forms';
import { freePort } from '../helpers/server-process';
import { createTestApp, type TestApp } from '../helpers/test-app';

jest.setTimeout(40_000);

/*
 * Faults around storing a lead and mailing it. Two such faults are proved elsewhere and not
 * repeated:
 * - SMTP that accepts the connection and never answers (bounded timeouts, the worker is never
 *   stuck): test/integration/mail-outbox.test.ts, "gives up on an SMTP server that never answers".
 * - SIGTERM with a request in flight (it finishes, exit 0): test/integration/process.test.ts,
 *   "on SIGTERM stops accepting, finishes the request in flight ...".
 */

const UNAVAILABLE = 'We could not save your request just now. Please try again in a minute';

function expectEveryLeadHasOneMail(app: TestApp) {
  const orphans = app.db
    .prepare(
      `SELECT a.id, count(m.id) AS mails FROM audit_submissions a
       LEFT JOIN mail_outbox m ON m.kind = 'audit' AND m.source_id = a.id
       GROUP BY a.id HAVING mails <> 1`,
    )
    .all();
  expect(orphans).toEqual([]);
  expect(countRows(app.db, 'mail_outbox')).toBe(countRows(app.db, 'audit_submissions'));
}


let testApp: TestApp | undefined;
afterEach(() => {
  testApp?.close();
  testApp = undefined;
});

describe('SMTP refusing connections', () => {
  it('still thanks the visitor and stores the lead; the mail is kept and "Email sending failed" logged', async () => {
    const { logger, lines } = capturingLogger();
    const port = await freePort();
    let worker: OutboxWorker | undefined;
    const app = createTestApp({ mailer: { kick: () => worker?.kick() } });
    testApp = app;
    worker = app.outboxWorker(smtpTransport(`smtp://127.0.0.1:${port}`), { logger, retryBaseMs: 30_000 });

    const { response } = await postForm(app, '/free-audit', validAudit);
    expect(response.status).toBe(303);
    expect(response.headers.location).toMatch(THANK_YOU_WITH_CHECK);
    // The app hands the mail to the worker after answering; wait for that pass to finish.
    await new Promise((resolve) => setImmediate(resolve));
    await worker.idle();

    expect(app.db.prepare('SELECT name, email FROM audit_submissions').all()).toEqual([{ name: validAudit.name, email: validAudit.email }]);
    const mail = app.db.prepare('SELECT attempts, sent_at, last_error, next_attempt_at FROM mail_outbox').get() as Record<string, unknown>;
    expect(mail).toMatchObject({ attempts: 1, sent_at: null });
    expect(String(mail.last_error)).toContain('ECONNREFUSED');
    expect(mail.next_attempt_at).toBe(new Date(app.clock().getTime() + 30_000).toISOString());
    const failure = lines.find((line) => line.msg === 'Email sending failed');
    expect(failure).toMatchObject({ level: 40, attempts: 1 });
    expect(String(failure?.err)).toContain('ECONNREFUSED');
    await worker.stop();
  });
});

describe('the database locked by ops', () => {
  it(`waits up to the busy timeout (${BUSY_TIMEOUT_MS} ms), then answers 503 with a clear message, writes nothing and spends none of the address's budget`, async () => {
    // One site check an hour and one probe a day from this address: the refused post must not have used them.
    const app = createTestApp({ checksPerAddressPerHour: 1, probesPerAddressPerDay: 1, env: { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    testApp = app;
    const session = await openForm(app.app, '/free-audit');
    // An ops job may hold the lock for 10 s or more: held until the app has answered, it is longer
    // than the busy timeout whatever the machine's speed.
    const lock = holdExclusiveLock(app.config.databasePath);
    await lock.locked;

    // WAL: readers are not blocked by a writer, so the site keeps serving and reports healthy.
    await request(app.app).get('/healthz').expect(200);

    const response = await session.agent.post('/free-audit').set('Accept', 'application/json').type('form').send({ ...validAudit, ...session.hidden });
    // Had it waited for the release it would have succeeded: the 503 came while the lock was held.
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ ok: false, message: expect.stringContaining(UNAVAILABLE), tokens: { csrfToken: expect.any(String), formStarted: expect.any(String) } });

    expect(await lock.release()).toBe('0: locked, released');
    expect(countRows(app.db, 'audit_submissions')).toBe(0);
    expect(countRows(app.db, 'mail_outbox')).toBe(0);
    // Once ops let go, the next try goes through, its website's check and its probe queued.
    await submitLead(app, '/free-audit', validAudit);
    expectEveryLeadHasOneMail(app);
    expect(app.db.prepare('SELECT status FROM site_checks').all()).toEqual([{ status: 'queued' }]);
    expect(app.db.prepare('SELECT status FROM visibility_probes').all()).toEqual([{ status: 'queued' }]);
  });

  it('serves pages while a lead waits for the lock, and stores the lead once ops let go', async () => {
    const { logger, lines } = capturingLogger();
    const app = createTestApp({ logger });
    testApp = app;
    const session = await openForm(app.app, '/free-audit');
    const lock = holdExclusiveLock(app.config.databasePath);
    await lock.locked;
    let answered = false;
    const posting = session.agent
      .post('/free-audit')
      .type('form')
      .send({ ...validAudit, ...session.hidden })
      .then((response) => {
        answered = true;
        return response;
      });
    await waitFor('the post to meet the lock', () => lines.some((line) => line.msg === "Another program holds the database's lock: the visitor's post is tried again for a few seconds"), 20_000);
    // The post waits on a timer, not on the event loop: every page is served meanwhile.
    expect((await request(app.app).get('/healthz')).status).toBe(200);
    expect((await request(app.app).get('/')).status).toBe(200);
    expect((await request(app.app).get('/free-audit')).status).toBe(200);
    expect(answered).toBe(false);
    expect(await lock.release()).toBe('0: locked, released');
    const response = await posting;
    expect(response.status).toBe(303);
    expect(response.headers.location).toMatch(THANK_YOU_WITH_CHECK);
    expect(countRows(app.db, 'audit_submissions')).toBe(1);
    expectEveryLeadHasOneMail(app);
  });

  it('succeeds when the lock is released within the busy timeout', async () => {
    const app = createTestApp();
    testApp = app;
    const session = await openForm(app.app, '/free-audit');
    const lock = holdExclusiveLock(app.config.databasePath, { releaseAfterMs: 1500 });
    await lock.locked;
    // Sent while the lock is held: the insert waits for it, then commits.
    const response = await session.agent.post('/free-audit').type('form').send({ ...validAudit, ...session.hidden });
    expect(response.status).toBe(303);
    expect(response.headers.location).toMatch(THANK_YOU_WITH_CHECK);
    expect(await lock.released).toBe('0: locked, released');
    expect(countRows(app.db, 'audit_submissions')).toBe(1);
    expectEveryLeadHasOneMail(app);
  });

  it("gives up on the lock at once in the server's own background writes (they would hold up every page), while a visitor's writes wait for it", async () => {
    const app = createTestApp();
    testApp = app;
    const heldPost = await openForm(app.app, '/free-audit');
    const checkPost = await openForm(app.app, '/ai-readiness-check');
    // Each hold is shorter than a visitor's write waits, far longer than a background write does.
    const first = holdExclusiveLock(app.config.databasePath, { releaseAfterMs: 3000 });
    await first.locked;
    // What a worker does when a site check, a probe or a mail is done: a write on the server's connection.
    expect(() => app.db.prepare(`INSERT INTO settings (key, value) VALUES ('background', 'write')`).run()).toThrow('database is locked');
    // A submission held as automated waits for the lock, then is kept.
    const held = await heldPost.agent
      .post('/free-audit')
      .type('form')
      .send({ ...validAudit, ...heldPost.hidden, [HONEYPOT_FIELD]: 'http://spam.example' });
    expect(held.status).toBe(303);
    expect(await first.released).toBe('0: locked, released');

    // So does a public check's.
    const second = holdExclusiveLock(app.config.databasePath, { releaseAfterMs: 3000 });
    await second.locked;
    const check = await checkPost.agent.post('/ai-readiness-check').type('form').send({ website: 'https://www.example.co.uk/', ...checkPost.hidden });
    expect(check.status).toBe(303);
    expect(await second.released).toBe('0: locked, released');
    expect(countRows(app.db, 'quarantine')).toBe(1);
    expect(countRows(app.db, 'site_checks')).toBe(1);
  });
});

describe('a full disk', () => {
  it('answers 503 with a clear message, leaves nothing half-written, and keeps /healthz at 200', async () => {
    const app = createTestApp({ formRateLimit: { limit: 1000, windowMs: 60_000 } });
    testApp = app;
    // The database may grow by about 400 KB more and no further: what a full volume does to it.
    const pages = Number(app.db.pragma('page_count', { simple: true }));
    app.db.pragma(`max_page_count = ${pages + 100}`);
    // The largest lead the form accepts: every long text at its 5000-character bound.
    const large: Record<string, string> = Object.fromEntries(
      auditFields.map((field) => [field.name, field.kind === 'textarea' ? `${field.name} `.padEnd(field.maxLength, 'x') : validAudit[field.name]]),
    );

    let accepted = 0;
    let refused: request.Response | undefined;
    for (let attempt = 0; attempt < 40 && !refused; attempt += 1) {
      const { response } = await postForm(app, '/free-audit', { ...large, email: `lead${attempt}@example.co.uk` });
      if (response.status === 303) accepted += 1;
      else refused = response;
    }
    expect(accepted).toBeGreaterThan(0);
    expect(refused?.status).toBe(503);
    // A visitor without JavaScript gets the form back with the message and every value kept.
    const document = parse(refused?.text ?? '');
    expect(document.querySelector('[role="alert"]')?.text).toContain(UNAVAILABLE);
    expect(document.querySelector('#audit-main_goal')?.text).toBe(large.main_goal);

    // Every acknowledged lead is whole, with its mail; the refused one left no trace.
    expect(countRows(app.db, 'audit_submissions')).toBe(accepted);
    expectEveryLeadHasOneMail(app);
    expect(app.db.prepare(`SELECT count(*) AS n FROM audit_submissions WHERE email = 'lead${accepted}@example.co.uk'`).get()).toEqual({ n: 0 });
    expect(app.db.pragma('integrity_check', { simple: true })).toBe('ok');
    // Reads still work: the container stays healthy while ops free some space.
    await request(app.app).get('/healthz').expect(200);
    await request(app.app).get('/').expect(200);

    // With space again, the next lead is stored.
    app.db.pragma(`max_page_count = ${pages + 10_000}`);
    await submitLead(app, '/free-audit', validAudit);
    expectEveryLeadHasOneMail(app);
  });
});
