import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { migrate, openDatabase } from '../../server/db/database';
import { createLogger } from '../../server/logger';
import { smtpTransport } from '../../server/mail/mail-transport';
import type { OutboxWorker } from '../../server/mail/outbox-worker';
import { SENT_LINK_MARKER, withoutPrivateLinks } from '../../server/reports/private-addresses';
import { AuditRuns } from '../../server/runs/audit-runs';
import { ClientRuns } from '../../server/runs/client-runs';
import { ClientStore, planClientQuestions } from '../../server/runs/client-store';
import { createRunner, type Runner } from '../../server/runs/runner';
import { nextUtcDay } from '../../server/runs/run-budget';
import { RunStore, type RunRow } from '../../server/runs/run-store';
import { tokenHash } from '../../server/site-check/check-store';
import { RunWorker } from '../../server/runs/run-worker';
import { createSiteChecker } from '../../server/site-check/site-checker';
import type { AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { site as siteConstants } from '../../shared/site';
import type { RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { holdExclusiveLock } from '../helpers/database-lock';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant, type Reply } from '../helpers/fake-assistants';
import { html, startFixtureSite, type FixtureSite } from '../helpers/fixture-sites';
import { validAudit } from '../helpers/forms';
import { OKAFOR_HOME } from '../helpers/full-runs';
import { decodeQuotedPrintable, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { runOps } from '../helpers/ops-command';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * The one run machine (server/runs/), each of its rules tested once for both kinds of run, an
 * audit request's and a monitored client's: the real run worker and its process, two assistants'
 * fake APIs on their own wire formats, a fixture site, a real SQLite file, a clock the test moves.
 */

jest.setTimeout(120_000);

const ASSISTANTS: AssistantId[] = ['chatgpt', 'claude'];
/** Questions a run asks each assistant (AUDIT_PROMPTS, and a client's fixed questions). */
const QUESTIONS = 5;
const CALLS = QUESTIONS * ASSISTANTS.length;
const DAY_MS = 86_400_000;

/** An answer naming the business second, after a rival. */
const named: RecordedAnswer = { text: '1. **Pipe Pros Leeds** – fixed prices.\n2. **Okafor Plumbing** – Gas Safe registered.', sources: [] };

/** What the fakes do at each question (the request, and how many the fakes together had before it); answered by default. */
let behaviour: (question: string, before: number) => Reply = () => ({ answer: named });
let asked: string[] = [];

let site: FixtureSite;
let smtp: TestSmtpServer;
const fakes: FakeAssistant[] = [];

beforeAll(async () => {
  site = await startFixtureSite({ '/': html(OKAFOR_HOME) });
  smtp = await startSmtpServer();
  for (const id of ASSISTANTS) {
    fakes.push(
      await startFakeAssistant(id, FAKE_KEYS[id], (request) => {
        const before = asked.length;
        asked.push(request.question ?? '');
        return behaviour(request.question ?? '', before);
      }),
    );
  }
});
afterAll(async () => {
  await Promise.all([site.close(), smtp.close(), ...fakes.map((fake) => fake.close())]);
});

let app: TestApp;
let worker: RunWorker;
let outbox: OutboxWorker;

const T0 = new Date('2030-03-04T09:00:00.000Z');

function start(env: Record<string, string> = {}, options: { runner?: Runner } = {}): void {
  app = createTestApp({
    env: { ...fakeEnvironment(fakes), SITE_CHECK_ALLOW: '127.0.0.1', AUDIT_PROMPTS: String(QUESTIONS), MONITOR_PROMPTS: String(QUESTIONS), MAIL_TO: 'leads@citewise.example', ...env },
  });
  app.clock.set(T0.toISOString());
  outbox = app.outboxWorker(smtpTransport(smtp.url), { keptOnceSent: (stored) => withoutPrivateLinks(stored, app.config.siteUrl) });
  worker = newWorker(options.runner);
  behaviour = () => ({ answer: named });
  asked = [];
}

function newWorker(runner?: Runner): RunWorker {
  const { config, db, clock } = app;
  const mail = { mailFrom: config.mailFrom, mailTo: config.mailTo, siteUrl: config.siteUrl, brand: siteConstants.brand };
  return new RunWorker({
    db,
    logger: createLogger('silent'),
    clock,
    checker: createSiteChecker({ brand: siteConstants.brand, siteUrl: config.siteUrl, allow: ['127.0.0.1'], agents: ['GPTBot'], clock, priority: 'normal' }),
    runner: runner ?? createRunner({ assistants: config.probe.assistants, promptsPerAssistant: config.audit.promptsPerAssistant, clock, priority: 'normal' }),
    dailyCalls: config.probe.dailyCalls,
    kinds: [
      new AuditRuns(db, { ...mail, autoSend: config.audit.autoSend }),
      new ClientRuns(db, { ...mail, assistants: config.probe.assistants.length, intervalDays: config.monitor.intervalDays, sendToClients: config.monitor.send }),
    ],
    onDelivered: () => outbox.kick(),
  });
}

afterEach(async () => {
  await worker.stop();
  await outbox.stop();
  app.close();
});

/** Runs what may run now on the test's clock, and waits for it to be recorded. */
async function pass(): Promise<void> {
  worker.kick();
  await worker.idle();
}

const store = () => new RunStore(app.db);
const run = (id: number) => store().get(id) as RunRow;
const callsToday = () => (app.db.prepare('SELECT calls FROM probe_calls WHERE day = ?').pluck().get(app.clock().toISOString().slice(0, 10)) as number | undefined) ?? 0;
const useCalls = (calls: number) =>
  app.db.prepare('INSERT INTO probe_calls (day, calls) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET calls = excluded.calls').run(app.clock().toISOString().slice(0, 10), calls);
const mailsQueued = (kind: string) => app.db.prepare('SELECT count(*) FROM mail_outbox WHERE kind = ?').pluck().get(kind) as number;

/** An audit request for Okafor Plumbing's site, as the form stores it. */
function addRequest(values: Partial<typeof validAudit> = {}): number {
  const row = { ...validAudit, name: 'Ada Okafor', email: 'ada@okaforplumbing.example', website_url: `${site.origin}/`, target_keywords: 'emergency plumber Leeds, boiler repair Leeds', current_products: 'boiler servicing', ...values };
  return Number(
    app.db
      .prepare(
        `INSERT INTO audit_submissions (name, email, website_url, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
         VALUES (@name, @email, @website_url, @business_description, @ideal_customer, @target_keywords, @current_products, @lead_sources, @seo_experience, @main_goal, @now)`,
      )
      .run({ ...row, now: app.clock().toISOString() }).lastInsertRowid,
  );
}

/** A monitored client of the same site, added as `npm run clients -- add` adds it. */
function addClient(email: string | null = 'ada@okaforplumbing.example'): number {
  const words = { site: `${site.origin}/`, keywords: 'emergency plumber Leeds, boiler repair Leeds', customer: '', products: 'boiler servicing', description: '', brand: null };
  return new ClientStore(app.db).add({ ...words, label: 'Okafor Plumbing', email, fromAuditId: null, questions: planClientQuestions(words, QUESTIONS, email ? [email] : []) }, app.clock());
}

/** What differs between the two kinds for a test: queueing a run of each, and taking away what it is for. */
interface Kind {
  name: string;
  queue(): number;
  takeAway(): void;
  gone: string;
}

const kinds: [string, () => Kind][] = [
  [
    'an audit run',
    () => {
      const auditId = addRequest();
      return {
        name: 'audit',
        queue: () => store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, assistants: ASSISTANTS.length }, app.clock()),
        // As npm run erase does: the request goes, and its runs with it.
        takeAway: () => app.db.prepare('DELETE FROM audit_submissions WHERE id = ?').run(auditId),
        gone: 'the request was erased',
      };
    },
  ],
  [
    "a monitored client's run",
    () => {
      const clients = new ClientStore(app.db);
      const clientId = addClient();
      // Not due by the schedule: the test queues its run, as npm run clients -- run does.
      app.db.prepare('UPDATE clients SET next_run_at = ? WHERE id = ?').run(new Date(T0.getTime() + 365 * DAY_MS).toISOString(), clientId);
      return {
        name: 'client',
        queue: () => {
          const client = clients.get(clientId);
          if (!client) throw new Error('no client');
          return store().enqueue({ for: { client: clientId }, trigger: 'command', prompts: QUESTIONS, assistants: ASSISTANTS.length, series: client.series, questions: JSON.parse(client.questions) }, app.clock());
        },
        takeAway: () => clients.remove(clientId),
        gone: 'the client was removed',
      };
    },
  ],
];

describe.each(kinds)('%s', (_label, makeKind) => {
  it('stops before its next call once what it is for is gone: nothing more is asked, kept or told', async () => {
    start();
    const kind = makeKind();
    const id = kind.queue();
    let takenAwayAt = -1;
    behaviour = (_question, before) => {
      if (before === 2) {
        kind.takeAway();
        takenAwayAt = asked.length;
      }
      return { answer: named };
    };
    await pass();
    expect(takenAwayAt).toBe(3);
    // The calls already allowed when it went (a few run at once) may finish; none starts after.
    expect(asked.length).toBeLessThan(CALLS);
    expect(asked.length).toBeLessThanOrEqual(takenAwayAt + 3);
    expect(store().get(id)).toBeNull();
    expect(app.db.prepare('SELECT count(*) FROM run_answers').pluck().get()).toBe(0);
    expect(app.db.prepare('SELECT count(*) FROM mail_outbox').pluck().get()).toBe(0);
  });

  it("starts when the day's calls hold exactly what it needs, and waits for the next UTC day when they hold one fewer", async () => {
    start({ PROBE_DAILY_CALLS: '100' });
    const kind = makeKind();
    useCalls(100 - CALLS + 1);
    const waiting = kind.queue();
    await pass();
    expect(run(waiting)).toMatchObject({ status: 'queued', not_before: nextUtcDay(app.clock()).toISOString(), attempts: 0 });
    expect(asked).toEqual([]);

    useCalls(100 - CALLS);
    app.db.prepare('UPDATE runs SET not_before = NULL WHERE id = ?').run(waiting);
    await pass();
    expect(run(waiting)).toMatchObject({ status: 'done' });
    expect(asked).toHaveLength(CALLS);
    expect(callsToday()).toBe(100);
  });

  it('is failed at once, saying why, when a whole day could never hold it: never left waiting for ever', async () => {
    start({ PROBE_DAILY_CALLS: String(CALLS - 1) });
    const kind = makeKind();
    const id = kind.queue();
    await pass();
    expect(run(id)).toMatchObject({
      status: 'failed',
      reason: `it needs ${CALLS} calls, more than a whole day's PROBE_DAILY_CALLS=${CALLS - 1}: ask fewer questions, or allow more calls a day`,
    });
    expect(asked).toEqual([]);
  });

  it('counts a call the database refuses for a moment once it lets go, and goes on to the end', async () => {
    start();
    const kind = makeKind();
    const id = kind.queue();
    // From the fourth question on, answers wait until another program holds the database's lock:
    // the calls after them are counted while it holds it, for a second and a half.
    let lock: ReturnType<typeof holdExclusiveLock> | null = null;
    behaviour = (_question, before) => {
      if (before < 3) return { answer: named };
      lock ??= holdExclusiveLock(app.config.databasePath, { releaseAfterMs: 1_500 });
      return { until: lock.locked, then: { answer: named } };
    };
    await pass();
    await (lock as ReturnType<typeof holdExclusiveLock> | null)?.released;
    // A count, or the record itself, refused while the lock was held is tried again once it lets go.
    await waitUntil(() => run(id).status !== 'running');
    expect(run(id)).toMatchObject({ status: 'done', reason: null });
    expect(asked).toHaveLength(CALLS);
    expect(callsToday()).toBe(CALLS);
  });

  it("goes on by itself the next UTC day when the day's calls run out part way, asking only the rest; until then it is no report to send or to trend", async () => {
    start({ PROBE_DAILY_CALLS: '100', AUDIT_AUTO_SEND: '1', MONITOR_SEND: '1' });
    const kind = makeKind();
    const id = kind.queue();
    // Another user of the day's calls takes the rest of them after this run's fourth question.
    behaviour = (_question, before) => {
      if (before === 3) useCalls(100);
      return { answer: named };
    };
    await pass();
    const midnight = nextUtcDay(app.clock()).toISOString();
    const stopped = run(id);
    expect(stopped).toMatchObject({ status: 'queued', not_before: midnight, reason: 'daily call limit (PROBE_DAILY_CALLS) reached' });
    const kept = app.db.prepare('SELECT count(*) FROM run_answers WHERE run_id = ?').pluck().get(id) as number;
    expect(kept).toBeGreaterThanOrEqual(4);
    expect(kept).toBeLessThan(CALLS);
    // Not the prospect's report, nor the client's note, nor a point of the trend: half a sample.
    expect(mailsQueued('audit-report') + mailsQueued('monitor-note')).toBe(0);
    expect(app.db.prepare('SELECT trend FROM clients').pluck().all()).toEqual(kind.name === 'client' ? [null] : []);

    behaviour = () => ({ answer: named });
    const before = [...asked];
    app.clock.set(midnight);
    await pass();
    expect(run(id)).toMatchObject({ status: 'done', reason: null });
    // Only what had no answer is asked.
    expect(asked.length - before.length).toBe(CALLS - kept);
    expect(app.db.prepare('SELECT count(*) FROM run_answers WHERE run_id = ?').pluck().get(id)).toBe(CALLS);
    expect(mailsQueued(kind.name === 'audit' ? 'audit-report' : 'monitor-note')).toBe(1);
    if (kind.name === 'client') expect(app.db.prepare('SELECT trend FROM clients').pluck().get()).not.toBeNull();
  });

  it('is put back by a clean stop of the server, its start not counted; a restart then runs it once', async () => {
    start();
    const kind = makeKind();
    const id = kind.queue();
    behaviour = () => ({ hang: true });
    worker.kick();
    await waitUntil(() => asked.length > 0);
    expect(run(id)).toMatchObject({ status: 'running', attempts: 1 });
    await worker.stop(0);
    expect(run(id)).toMatchObject({ status: 'queued', attempts: 0 });

    behaviour = () => ({ answer: named });
    worker = newWorker();
    worker.start();
    await worker.idle();
    expect(run(id)).toMatchObject({ status: 'done', attempts: 1 });
  });
});

describe('one run at a time, whatever its kind', () => {
  it.each([
    ['an audit run', 'a client'],
    ["a client's run", 'an audit request'],
  ])('never starts while %s runs, but the moment it has ended', async (running) => {
    start();
    const auditId = addRequest();
    const clientId = addClient();
    app.db.prepare('UPDATE clients SET next_run_at = ? WHERE id = ?').run(new Date(T0.getTime() + 365 * DAY_MS).toISOString(), clientId);
    const runs = store();
    const [first, second] = running === 'an audit run' ? [{ audit: auditId }, { client: clientId }] : [{ client: clientId }, { audit: auditId }];
    const busy = runs.enqueue({ for: first, trigger: 'command', prompts: QUESTIONS, assistants: 2 }, app.clock());
    app.db.prepare(`UPDATE runs SET status = 'running' WHERE id = ?`).run(busy);
    const waiting = runs.enqueue({ for: second, trigger: 'command', prompts: QUESTIONS, assistants: 2, questions: 'client' in second ? JSON.parse(new ClientStore(app.db).get(clientId)?.questions ?? '[]') : undefined }, app.clock());
    await pass();
    expect(run(waiting).status).toBe('queued');
    app.db.prepare(`UPDATE runs SET status = 'done' WHERE id = ?`).run(busy);
    await pass();
    expect(run(waiting).status).toBe('done');
  });
});

describe("a monitored client's schedule", () => {
  it('runs every MONITOR_INTERVAL_DAYS, whatever it is set to, and queues a client once while its run waits', async () => {
    start({ MONITOR_INTERVAL_DAYS: '7', PROBE_DAILY_CALLS: '100' });
    addClient();
    await pass();
    const clientRuns = () => app.db.prepare('SELECT id, status, not_before FROM runs WHERE client_id IS NOT NULL ORDER BY id').all() as { id: number; status: string; not_before: string | null }[];
    expect(clientRuns()).toEqual([expect.objectContaining({ status: 'done' })]);
    expect(app.db.prepare('SELECT next_run_at FROM clients').pluck().get()).toBe(new Date(T0.getTime() + 7 * DAY_MS).toISOString());
    app.clock.advance(6 * DAY_MS);
    await pass();
    expect(clientRuns()).toHaveLength(1);

    // Due again on a day whose calls cannot hold the run: it waits for the next day.
    app.clock.advance(DAY_MS);
    useCalls(100);
    await pass();
    expect(clientRuns()).toHaveLength(2);
    expect(clientRuns()[1]).toMatchObject({ status: 'queued', not_before: nextUtcDay(app.clock()).toISOString() });
    // Due once more while that run waits: it is not queued twice.
    app.db.prepare('UPDATE clients SET next_run_at = ?').run(app.clock().toISOString());
    await pass();
    expect(clientRuns()).toHaveLength(2);
  });

  it("composes its trend, in the run's process, from the latest runs of its series only: 24 at most", () => {
    start();
    const clientId = addClient();
    const insert = app.db.prepare(`INSERT INTO runs (client_id, status, trigger, series, prompts, calls_planned, document, facts, created_at, finished_at) VALUES (?, 'done', 'schedule', ?, 5, 10, '{}', '{}', ?, ?)`);
    // Three runs of an earlier series, then thirty of the current one, a month apart.
    for (let month = 0; month < 33; month += 1) {
      const at = new Date(T0.getTime() + month * 30 * DAY_MS).toISOString();
      insert.run(clientId, month < 3 ? 1 : 2, at, at);
    }
    app.db.prepare('UPDATE clients SET series = 2 WHERE id = ?').run(clientId);
    const next = store().enqueue({ for: { client: clientId }, trigger: 'schedule', prompts: QUESTIONS, assistants: 2, series: 2, questions: [] }, app.clock());
    const kind = new ClientRuns(app.db, { mailFrom: 'a@b.example', mailTo: 'c@d.example', siteUrl: app.config.siteUrl, brand: 'Citewise', assistants: 2, intervalDays: 30, sendToClients: false });
    const trend = kind.work(run(next))?.trend;
    expect(trend?.earlier).toHaveLength(23);
    expect(trend?.earlier.map((earlier) => earlier.id)).toEqual(Array.from({ length: 23 }, (_, index) => 11 + index));
    expect(trend?.earlierSeriesRuns).toBe(3);
  });

  it("sends the client's note after a complete run only: never after a failed one", async () => {
    const failing: Runner = { run: () => Promise.reject(new Error('the run could not start: its process was not found')) };
    start({ MONITOR_SEND: '1' }, { runner: failing });
    addClient();
    await pass();
    expect(app.db.prepare('SELECT status, reason FROM runs').get()).toEqual({ status: 'failed', reason: 'the run could not start: its process was not found' });
    expect(mailsQueued('monitor-run')).toBe(1);
    expect(mailsQueued('monitor-note')).toBe(0);
  });
});

describe("an audit run's questions and reports", () => {
  it("never hold the person's name, though they typed it into the request", async () => {
    start();
    const auditId = addRequest({ name: 'Jo Ng', email: 'enquiries@okaforplumbing.example', target_keywords: 'emergency plumber Leeds recommended by Jo Ng, boiler repair for Ng family' });
    store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, assistants: ASSISTANTS.length }, app.clock());
    await pass();
    expect(asked.length).toBeGreaterThan(0);
    for (const question of asked) expect(question).not.toMatch(/\b(?:jo|ng)\b/i);
    expect(asked.some((question) => question.includes('emergency plumber Leeds'))).toBe(true);
  });

  it('is sent to the prospect once, even when two sends race from two connections', () => {
    start();
    const auditId = addRequest();
    const id = store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, assistants: ASSISTANTS.length }, app.clock());
    app.db.prepare(`UPDATE runs SET status = 'done', document = '{}' WHERE id = ?`).run(id);
    const mail = { mailFrom: app.config.mailFrom, mailTo: app.config.mailTo, siteUrl: app.config.siteUrl, brand: 'Citewise', autoSend: false };
    // A second connection, as a second command beside the server opens one.
    const other = openDatabase(app.config.databasePath);
    try {
      // Both read the run as not sent yet, then each sends.
      const row = run(id);
      const sent = [new AuditRuns(app.db, mail).sendToProspect(row, 'Okafor Plumbing', app.clock()), new AuditRuns(other, mail).sendToProspect(row, 'Okafor Plumbing', app.clock())];
      expect(sent.filter((result) => result !== null)).toHaveLength(1);
    } finally {
      other.close();
    }
    expect(mailsQueued('audit-report')).toBe(1);
  });

  it("keeps a report's private link in its mail only until the mail is sent: then neither the table nor the database's files hold it; a website typed in the form is no link", async () => {
    start();
    const auditId = addRequest({ website_url: `${site.origin}/` });
    store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, assistants: ASSISTANTS.length }, app.clock());
    const received = smtp.received.length;
    await pass();
    outbox.kick();
    await waitUntil(() => smtp.received.length > received);
    await outbox.idle();
    const sent = decodeQuotedPrintable(smtp.received.at(-1)?.raw ?? '').replace(/\r?\n[ \t]+/g, ' ');
    const link = new RegExp(`${app.config.siteUrl.replace(/[.:/]/g, '\\$&')}/audit/([\\w-]{43})`).exec(sent);
    expect(link).not.toBeNull();
    const token = link?.[1] ?? '';
    // The site's own link is a link; the prospect's typed website stays text.
    expect(sent).toContain(`<a href="${link?.[0] ?? ''}">`);
    expect(sent).not.toContain(`<a href="${site.origin}`);
    const stored = app.db.prepare(`SELECT message FROM mail_outbox WHERE kind = 'audit-run'`).pluck().get() as string;
    expect(stored).toContain(SENT_LINK_MARKER);
    expect(stored).not.toContain(token);
    for (const file of [app.config.databasePath, `${app.config.databasePath}-wal`, `${app.config.databasePath}-shm`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(token)).toBe(false);
    }
  });
});

describe('erasure', () => {
  it("takes a client added from the person's request under another contact address, and counts it in a backup that still holds them", () => {
    start();
    const auditId = addRequest({ email: 'ada@okaforplumbing.example' });
    const words = { site: `${site.origin}/`, keywords: 'emergency plumber Leeds', customer: '', products: '', description: '', brand: null };
    new ClientStore(app.db).add({ ...words, label: 'Okafor Plumbing', email: 'office@okafor-accounts.example', fromAuditId: auditId, questions: planClientQuestions(words, QUESTIONS, []) }, app.clock());
    const env = { DATABASE_PATH: app.config.databasePath };
    expect(runOps('backup', [], env).status).toBe(0);
    const erased = runOps('erase', ['--email', 'ada@okaforplumbing.example'], env);
    expect(erased.status).toBe(0);
    expect(erased.stdout).toContain('  clients:          1 (monitored: with their runs, answers and page links)');
    expect(app.db.prepare('SELECT count(*) FROM clients').pluck().get()).toBe(0);
    // The backup holds the request and the client added from it: two rows about the person.
    expect(erased.stdout).toMatch(/ {2}backups: {10}1 of the 1 in .* still hold them/);
    expect(erased.stdout).toMatch(/taken .*, 2 rows about them,/);
  });
});

describe('a database from before the one run machine', () => {
  it("carries every run, answer and link over: a backup taken before it restores, and its links open the same reports and pages", () => {
    start();
    const dir = path.dirname(app.config.databasePath);
    // A backup as the release before this one wrote it: schema 12, with an audit's run and a client's.
    const backup = path.join(dir, 'before-runs.db');
    const old = openDatabase(backup);
    migrate(old, 12);
    old.prepare(
      `INSERT INTO audit_submissions (name, email, website_url, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
       VALUES ('Ada', 'ada@okaforplumbing.example', 'https://okaforplumbing.example/', 'd', 'c', 'emergency plumber Leeds', 'p', 'l', 's', 'm', '2030-03-04T09:00:00.000Z')`,
    ).run();
    const report = JSON.stringify({ version: 1, business: { name: 'Okafor Plumbing' } });
    old.prepare(`INSERT INTO audit_runs (id, audit_id, status, trigger, prompts, calls_planned, document, created_at, finished_at) VALUES (3, 1, 'done', 'command', 5, 20, ?, '2030-03-04', '2030-03-04')`).run(report);
    old.prepare(`INSERT INTO audit_answers VALUES (3, 'chatgpt', 0, '{"prompt":"q"}')`).run();
    old.prepare(`INSERT INTO audit_links VALUES (?, 3, 'agency', '2030-03-04')`).run(tokenHash('audit-token'));
    const questions = JSON.stringify([{ question: 'q', keyword: 'emergency plumber Leeds', product: null }]);
    old.prepare(`INSERT INTO clients (label, site, keywords, questions, created_at, next_run_at, trend) VALUES ('Okafor Plumbing', 'https://okaforplumbing.example/', 'k', ?, '2030', '2030', '{"version":1}')`).run(questions);
    old.prepare(`INSERT INTO client_runs (id, client_id, status, trigger, series, prompts, calls_planned, facts, document, created_at) VALUES (1, 1, 'done', 'schedule', 1, 1, 4, '{}', '{}', '2030')`).run();
    old.prepare(`INSERT INTO client_answers VALUES (1, 'claude', 0, '{"prompt":"q"}')`).run();
    old.prepare(`INSERT INTO client_links VALUES (?, 1, 'client', '2030')`).run(tokenHash('client-token'));
    old.close();

    const restored = runOps('restore', [backup], { DATABASE_PATH: path.join(dir, 'restored.db') });
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    // The server's start brings it to this release's schema.
    const db = openDatabase(path.join(dir, 'restored.db'));
    try {
      expect(migrate(db)).toBe(13);
      expect(db.prepare('SELECT id, audit_id, client_id, status, series, questions FROM runs ORDER BY id').all()).toEqual([
        { id: 3, audit_id: 1, client_id: null, status: 'done', series: null, questions: null },
        { id: 4, audit_id: null, client_id: 1, status: 'done', series: 1, questions },
      ]);
      expect(db.prepare('SELECT run_id, assistant FROM run_answers ORDER BY run_id').all()).toEqual([
        { run_id: 3, assistant: 'chatgpt' },
        { run_id: 4, assistant: 'claude' },
      ]);
      const runs = new RunStore(db);
      expect(runs.reportFor('audit-token')).toBe(report);
      expect(runs.trendFor('client-token')).toBe('{"version":1}');
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE name IN ('audit_runs', 'audit_answers', 'audit_links', 'client_runs', 'client_answers', 'client_links')").all()).toEqual([]);
    } finally {
      db.close();
    }
  });
});

/** Waits for a condition a background process brings about (no fixed sleep: it looks every 20 ms). */
async function waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
