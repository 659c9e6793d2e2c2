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
import type { Runner } from '../../server/runs/runner';
import { createRunWorker } from '../../server/runs/run-machine';
import { nextUtcDay, runCalls, runShape, type RunShape } from '../../server/runs/run-budget';
import { RunStore, type RunRow } from '../../server/runs/run-store';
import { tokenHash } from '../../server/site-check/check-store';
import { RunWorker } from '../../server/runs/run-worker';
import { createSiteChecker } from '../../server/site-check/site-checker';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import type { AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { site as siteConstants } from '../../shared/site';
import type { RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { holdExclusiveLock } from '../helpers/database-lock';
import { FAKE_KEYS, fakeEnvironment, isJudgeRequest, startFakeAssistant, type FakeAssistant, type ReceivedRequest, type Reply } from '../helpers/fake-assistants';
import { html, startFixtureSite, type FixtureSite } from '../helpers/fixture-sites';
import { validAudit } from '../helpers/forms';
import { OKAFOR_HOME, OKAFOR_HOME_WITH_FACTS } from '../helpers/full-runs';
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
/** A run's shape with neither direct questions nor judge (the tests of each rule set both off; one test turns them on). */
const shapeOf = (assistants: number) => ({ assistants, aboutPrompts: 0, judged: false });
const DAY_MS = 86_400_000;

/** An answer naming the business second, after a rival. */
const named: RecordedAnswer = { text: '1. **Pipe Pros Leeds** – fixed prices.\n2. **Okafor Plumbing** – Gas Safe registered.', sources: [] };

/** What the fakes do at each question (its words, how many the fakes together had before it, and the request); answered by default. */
let behaviour: (question: string, before: number, request: ReceivedRequest) => Reply = () => ({ answer: named });
let asked: string[] = [];

let site: FixtureSite;
let smtp: TestSmtpServer;
const fakes: FakeAssistant[] = [];

beforeAll(async () => {
  site = await startFixtureSite({ '/': html(OKAFOR_HOME), '/with-facts/': html(OKAFOR_HOME_WITH_FACTS) });
  smtp = await startSmtpServer();
  for (const id of ASSISTANTS) {
    fakes.push(
      await startFakeAssistant(id, FAKE_KEYS[id], (request) => {
        const before = asked.length;
        asked.push(request.question ?? '');
        return behaviour(request.question ?? '', before, request);
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
    env: { ...fakeEnvironment(fakes), SITE_CHECK_ALLOW: '127.0.0.1', AUDIT_PROMPTS: String(QUESTIONS), MONITOR_PROMPTS: String(QUESTIONS), MAIL_TO: 'leads@citewise.example', AUDIT_FACT_PROMPTS: '0', JUDGE_PROVIDER: 'none', ...env },
  });
  app.clock.set(T0.toISOString());
  outbox = app.outboxWorker(smtpTransport(smtp.url), { keptOnceSent: (stored) => withoutPrivateLinks(stored, app.config.siteUrl) });
  worker = newWorker(options.runner);
  behaviour = () => ({ answer: named });
  asked = [];
}

function newWorker(runner?: Runner): RunWorker {
  const { config, db, clock } = app;
  const checker = createSiteChecker({ brand: siteConstants.brand, siteUrl: config.siteUrl, allow: ['127.0.0.1'], agents: ['GPTBot'], clock, priority: 'normal' });
  return createRunWorker(config, { db, logger: createLogger('silent'), clock, checker, onDelivered: () => outbox.kick(), priority: 'normal', ...(runner ? { runner } : {}) });
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
function addClient(email: string | null = 'ada@okaforplumbing.example', page = '/'): number {
  const words = { site: `${site.origin}${page}`, keywords: 'emergency plumber Leeds, boiler repair Leeds', customer: '', products: 'boiler servicing', description: '', brand: null };
  return new ClientStore(app.db).add({ ...words, label: 'Okafor Plumbing', email, fromAuditId: null, questions: planClientQuestions(words, QUESTIONS, email ? [email] : []) }, app.clock());
}

/** What differs between the two kinds for a test: queueing a run of each, and taking away what it is for. */
interface Kind {
  name: string;
  /** Queues its run, planned with `shape` (no direct question, no judge, by default). */
  queue(shape?: RunShape): number;
  takeAway(): void;
  gone: string;
}

/** Each kind, for the business's home page at `page` of the fixture site. */
const kinds: [string, (page?: string) => Kind][] = [
  [
    'an audit run',
    (page = '/') => {
      const auditId = addRequest({ website_url: `${site.origin}${page}` });
      return {
        name: 'audit',
        queue: (shape = shapeOf(ASSISTANTS.length)) => store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, shape }, app.clock()),
        // As npm run erase does: the request goes, and its runs with it.
        takeAway: () => app.db.prepare('DELETE FROM audit_submissions WHERE id = ?').run(auditId),
        gone: 'the request was erased',
      };
    },
  ],
  [
    "a monitored client's run",
    (page = '/') => {
      const clients = new ClientStore(app.db);
      const clientId = addClient('ada@okaforplumbing.example', page);
      // Not due by the schedule: the test queues its run, as npm run clients -- run does.
      app.db.prepare('UPDATE clients SET next_run_at = ? WHERE id = ?').run(new Date(T0.getTime() + 365 * DAY_MS).toISOString(), clientId);
      return {
        name: 'client',
        queue: (shape = shapeOf(ASSISTANTS.length)) => {
          const client = clients.get(clientId);
          if (!client) throw new Error('no client');
          return store().enqueue({ for: { client: clientId }, trigger: 'command', prompts: QUESTIONS, shape, series: client.series, questions: JSON.parse(client.questions) }, app.clock());
        },
        takeAway: () => clients.remove(clientId),
        gone: 'the client was removed',
      };
    },
  ],
];

describe.each(kinds)('%s', (_label, makeKind) => {
  it("asks each assistant the direct questions about the business after its own, and judges a sample of its answers: every call counted and planned, the person's details in none, the figures from its own questions alone", async () => {
    start({ AUDIT_FACT_PROMPTS: '2', JUDGE_PROVIDER: 'claude' });
    const kind = makeKind('/with-facts/');
    const shape = runShape(app.config);
    expect(shape).toEqual({ assistants: 2, aboutPrompts: 2, judged: true });
    const id = kind.queue(shape);
    const requests: ReceivedRequest[] = [];
    // The judge's verdict: a tone and a claim on words of the answer, and a claim on words it never wrote.
    const verdict = {
      tone: { value: 'positive', quote: 'Gas Safe registered.' },
      claims: [
        { about: 'service', claim: 'Gas Safe registered', verdict: 'supported', quote: '**Okafor Plumbing** – Gas Safe registered.', siteQuote: 'Gas Safe registered plumbers in Leeds since 2009.' },
        { about: 'status', claim: 'closed', verdict: 'not on site', quote: 'Okafor Plumbing has closed.', siteQuote: null },
      ],
    };
    behaviour = (_question, _before, request) => {
      requests.push(request);
      return isJudgeRequest(request) ? { json: verdict } : { answer: named };
    };
    await pass();
    expect(run(id)).toMatchObject({ status: 'done', calls_planned: runCalls(QUESTIONS, shape) });

    const questions = requests.filter((request) => !isJudgeRequest(request)).map((request) => request.question ?? '');
    const about = questions.filter((question) => question.includes('Okafor Plumbing in Leeds'));
    expect(about).toHaveLength(2 * 2);
    expect(questions).toHaveLength((QUESTIONS + 2) * 2);
    // Every answer names the business: each assistant's 7 are judged (8 at most), by Claude's API alone.
    const judged = requests.filter(isJudgeRequest);
    expect(judged).toHaveLength(7 * 2);
    expect(judged.every((request) => request.key === FAKE_KEYS.claude)).toBe(true);
    expect(callsToday()).toBe(requests.length);
    expect(callsToday()).toBeLessThanOrEqual(runCalls(QUESTIONS, shape));
    for (const request of requests) expect(JSON.stringify(request.body)).not.toMatch(/\bAda\b|ada@okaforplumbing/);

    const answers = store().answers(id).map((kept) => ({ question: kept.question, answer: JSON.parse(kept.answer) as { prompt: string; judgement?: unknown } }));
    const aboutAnswers = answers.filter((kept) => kept.question >= QUESTIONS);
    expect(aboutAnswers).toHaveLength(2 * 2);
    expect(aboutAnswers[0]?.answer.judgement).toEqual({
      tone: verdict.tone,
      claims: [verdict.claims[0]],
      dropped: 1,
      model: 'claude-sonnet-4-6',
    });
    // Its figures: its own 5 questions to each assistant, not the 2 about the business.
    const document = JSON.parse(run(id).document ?? '{}') as { questionsPerAssistant: number; visibility: { asked: number }[] };
    expect(document.questionsPerAssistant).toBe(QUESTIONS);
    expect(document.visibility.map((part) => part.asked)).toEqual([QUESTIONS, QUESTIONS]);
  });

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
    const busy = runs.enqueue({ for: first, trigger: 'command', prompts: QUESTIONS, shape: shapeOf(2) }, app.clock());
    app.db.prepare(`UPDATE runs SET status = 'running' WHERE id = ?`).run(busy);
    const waiting = runs.enqueue({ for: second, trigger: 'command', prompts: QUESTIONS, shape: shapeOf(2), questions: 'client' in second ? JSON.parse(new ClientStore(app.db).get(clientId)?.questions ?? '[]') : undefined }, app.clock());
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
    const next = store().enqueue({ for: { client: clientId }, trigger: 'schedule', prompts: QUESTIONS, shape: shapeOf(2), series: 2, questions: [] }, app.clock());
    const kind = new ClientRuns(app.db, { mailFrom: 'a@b.example', mailTo: 'c@d.example', siteUrl: app.config.siteUrl, brand: 'Citewise', shape: shapeOf(2), intervalDays: 30, sendToClients: false });
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
    store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, shape: shapeOf(ASSISTANTS.length) }, app.clock());
    await pass();
    expect(asked.length).toBeGreaterThan(0);
    for (const question of asked) expect(question).not.toMatch(/\b(?:jo|ng)\b/i);
    expect(asked.some((question) => question.includes('emergency plumber Leeds'))).toBe(true);
  });

  it('is sent to the prospect once, even when two sends race from two connections', () => {
    start();
    const auditId = addRequest();
    const id = store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, shape: shapeOf(ASSISTANTS.length) }, app.clock());
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
    store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, shape: shapeOf(ASSISTANTS.length) }, app.clock());
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

describe('what the assistants say about the business, end to end', () => {
  /** A search's answer naming a rival with its number, then the business with its own, written as the site writes it. */
  const rivalBeside: RecordedAnswer = { text: '1. **Pipe Pros Leeds** – call 0113 496 0999.\n2. **Okafor Plumbing** – Gas Safe registered, call 0113 496 0001.', sources: [] };
  const MIXED = 'Reviews of Okafor Plumbing are mixed: some praise quick call-outs, others mention late arrivals.';

  /** Each assistant's answer to each direct question (how to contact it, what it offers, what people say); `wrongNumber`: ChatGPT gives one. */
  function directAnswer(question: string, assistant: 'chatgpt' | 'claude', wrongNumber: boolean): RecordedAnswer | null {
    if (question.startsWith('How do I contact')) {
      return { text: assistant === 'chatgpt' && wrongNumber ? 'You can call **Okafor Plumbing** on 0113 496 0000.' : 'Okafor Plumbing can be reached on (0113) 4960001.', sources: [] };
    }
    if (question.startsWith('What does')) {
      return { text: assistant === 'chatgpt' ? 'Okafor Plumbing is a Gas Safe registered plumber in Leeds. Its website is pipeprosleeds.co.uk.' : 'Okafor Plumbing offers boiler servicing and repairs in Leeds.', sources: [] };
    }
    if (question.startsWith('What do people say')) return { text: MIXED, sources: [] };
    return null;
  }

  /**
   * The judge's verdict on the answer its prompt holds: a tone resting on the answer's first
   * sentence; for the answer naming a rival's website, also a claim on words it never wrote.
   */
  function verdictFor(request: ReceivedRequest): unknown {
    // The answer judged, wherever the provider's request puts the prompt, as it was written.
    const written = /<answer>\\n(.*?)\\n<\/answer>/.exec(JSON.stringify(request.body))?.[1] ?? '';
    const answer = JSON.parse(`"${written}"`) as string;
    const first = answer.split(/(?<=\.)\s|\n/)[0] ?? answer;
    const tone = answer === MIXED ? 'mixed' : answer.includes('Gas Safe') ? 'positive' : 'neutral';
    const claims = answer.includes('pipeprosleeds') ? [{ about: 'service', claim: 'best in Yorkshire', verdict: 'not on site', quote: 'Okafor Plumbing is the best plumber in Yorkshire.', siteQuote: null }] : [];
    return { tone: { value: tone, quote: first }, claims };
  }

  const answering = (wrongNumber: boolean) => (question: string, _before: number, request: ReceivedRequest): Reply => {
    if (isJudgeRequest(request)) return { json: verdictFor(request) };
    const assistant = request.key === FAKE_KEYS.chatgpt ? 'chatgpt' : 'claude';
    return { answer: directAnswer(question, assistant, wrongNumber) ?? rivalBeside };
  };

  const outboxMail = (kind: string) =>
    (app.db.prepare('SELECT message FROM mail_outbox WHERE kind = ? ORDER BY id').pluck().all(kind) as string[]).map((message) => JSON.parse(message) as { subject: string; text: string });

  it("in an audit: a wrong number in another format is shown with the site's, the right one written otherwise and a rival's beside the business's are not; a rival's website is; the judge's tone per answer, its made-up quote set aside; the agency's mail leads with the number", async () => {
    start({ AUDIT_FACT_PROMPTS: '3', JUDGE_PROVIDER: 'chatgpt' });
    const auditId = addRequest({ website_url: `${site.origin}/with-facts/` });
    const id = store().enqueue({ for: { audit: auditId }, trigger: 'command', prompts: QUESTIONS, shape: runShape(app.config) }, app.clock());
    behaviour = answering(true);
    await pass();
    expect(run(id).status).toBe('done');
    const document = JSON.parse(run(id).document ?? '{}') as AuditDocument;
    const [chatgpt, claude] = document.said?.assistants ?? [];
    expect(chatgpt?.wrong).toEqual([
      { kind: 'phone', said: '0113 496 0000', says: 'You can call **Okafor Plumbing** on 0113 496 0000.', siteSays: '+44 113 496 0001', whose: null, by: 'compared' },
      { kind: 'website', said: 'pipeprosleeds.co.uk', says: 'Its website is pipeprosleeds.co.uk.', siteSays: expect.stringContaining('127.0.0.1') as unknown as string, whose: null, by: 'compared' },
    ]);
    expect(claude?.wrong).toEqual([]);
    // Each answer's tone, from the judge: 3 direct answers and 5 of the search answers naming the business, 8 in all.
    expect(chatgpt?.judged).toBe(8);
    expect(chatgpt?.tone).toEqual({ positive: 6, neutral: 1, mixed: 1, negative: 0 });
    expect(claude?.tone).toEqual({ positive: 5, neutral: 2, mixed: 1, negative: 0 });
    expect(document.said?.dropped).toBe(1);
    expect(document.actions.map((action) => action.finding)).toEqual(expect.arrayContaining(['wrongContact', 'othersWebsite', 'toneNegative']));

    const [mail] = outboxMail('audit-run');
    expect(mail?.subject).toBe('AI visibility audit for audit request #1: Okafor Plumbing, wrong phone number from ChatGPT, visibility 68/100, readiness 49/100');
    expect(mail?.text.split('\n\n')[0]).toBe('ChatGPT gives a wrong phone number for Okafor Plumbing: “You can call Okafor Plumbing on 0113 496 0000.” Its website gives +44 113 496 0001.');
  });

  it("in monitoring: the trend counts the wrong facts run by run, and says the number was put right once the assistant no longer gives it; that run's mail leads with nothing", async () => {
    start({ AUDIT_FACT_PROMPTS: '3', JUDGE_PROVIDER: 'chatgpt' });
    const clientId = addClient(null, '/with-facts/');
    // Added now, it is due now; then again MONITOR_INTERVAL_DAYS (30) later.
    behaviour = answering(true);
    await pass();
    app.clock.advance(31 * DAY_MS);
    behaviour = answering(false);
    await pass();
    expect(app.db.prepare('SELECT status FROM runs WHERE client_id = ? ORDER BY id').pluck().all(clientId)).toEqual(['done', 'done']);
    const trend = JSON.parse(new ClientStore(app.db).get(clientId)?.trend ?? '{}') as TrendDocument;
    expect(trend.runs).toHaveLength(2);
    expect(trend.said?.perRun.map((point) => point?.wrong)).toEqual([2, 1]);
    expect(trend.said?.putRight).toEqual([{ assistant: 'chatgpt', label: 'ChatGPT', kind: 'phone', said: '0113 496 0000', says: 'You can call **Okafor Plumbing** on 0113 496 0000.', siteSays: '+44 113 496 0001' }]);
    expect(trend.said?.wrongNow).toMatchObject([{ assistant: 'chatgpt', kind: 'website', new: false }]);
    const mails = outboxMail('monitor-run');
    expect(mails[0]?.text.startsWith('ChatGPT gives a wrong phone number for Okafor Plumbing')).toBe(true);
    expect(mails.at(-1)?.text).not.toContain('wrong phone number');
  });
});
