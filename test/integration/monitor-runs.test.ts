import { mkdtempSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { migrate, openDatabase } from '../../server/db/database';
import { createLogger } from '../../server/logger';
import { smtpTransport } from '../../server/mail/mail-transport';
import type { OutboxWorker } from '../../server/mail/outbox-worker';
import { ClientStore, planClientQuestions } from '../../server/runs/client-store';
import { createRunWorker } from '../../server/runs/run-machine';
import { nextUtcDay, runShape } from '../../server/runs/run-budget';
import type { RunRow } from '../../server/runs/run-store';
import type { RunWorker } from '../../server/runs/run-worker';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import { createSiteChecker } from '../../server/site-check/site-checker';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import type { RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { parseCsv } from '../helpers/csv';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant } from '../helpers/fake-assistants';
import { html, startFixtureSite, type FixtureSite } from '../helpers/fixture-sites';
import { validAudit } from '../helpers/forms';
import { OKAFOR_HOME, pageAt, query, receivedMails } from '../helpers/full-runs';
import { runOps, runOpsInBackground } from '../helpers/ops-command';
import { waitFor } from '../helpers/process-forms';
import { serverPort, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { site as siteConstants } from '../../shared/site';

/*
 * Monthly monitoring of a client, as the agency meets it: the server's monitor worker on a clock
 * the test moves (the schedule, a run missed while the server was down, the day's calls), and
 * `npm run clients` as a process beside the built server. Each assistant's fake API answers
 * differently from run to run: Claude names the business far more often in the third run (a real
 * rise), ChatGPT about as often each time (noise), and a new competitor appears in the third.
 */

jest.setTimeout(180_000);

const AGENCY = 'leads@citewise.example';
const SENDER = 'monitoring@citewise.example';
const CONTACT = 'ada@okaforplumbing.example';
const DAY_MS = 86_400_000;
const QUESTIONS = 10;

/** Of each run's questions, how many each assistant's answers name the business, run by run. */
const NAMED: Record<AssistantId, number[]> = { chatgpt: [5, 6, 5], claude: [1, 1, 9], gemini: [0, 0, 0], perplexity: [2, 1, 2] };
/** Which run the fakes are answering (1, 2, 3; later runs answer as the third). */
let round = 1;
/** Questions each fake answered in the current round, in order. */
const asked: Record<AssistantId, string[]> = { chatgpt: [], claude: [], gemini: [], perplexity: [] };
/** Called at each question a fake is asked, before it answers (a test acting in the middle of a run). */
let onQuestion: (() => void) | null = null;
const startRound = (next: number) => {
  round = next;
  for (const id of ASSISTANT_IDS) asked[id].length = 0;
};

function answerOf(id: AssistantId, question: string): RecordedAnswer {
  asked[id].push(question);
  onQuestion?.();
  const named = asked[id].length <= (NAMED[id][Math.min(round, 3) - 1] ?? 0);
  const names = named ? ['Okafor Plumbing', 'Pipe Pros Leeds'] : ['Pipe Pros Leeds', 'FlowFix Plumbing & Heating'];
  if (round >= 3) names.push('Aire Valley Heating');
  return { text: ['Plumbers people in Leeds recommend:', '', ...names.map((name, index) => `${index + 1}. **${name}** – well reviewed.`)].join('\n'), sources: [] };
}

let site: FixtureSite;
let smtp: TestSmtpServer;
const fakes: FakeAssistant[] = [];

beforeAll(async () => {
  site = await startFixtureSite({ '/': html(OKAFOR_HOME) });
  smtp = await startSmtpServer();
  for (const id of ASSISTANT_IDS) fakes.push(await startFakeAssistant(id, FAKE_KEYS[id], (received) => ({ answer: answerOf(id, received.question ?? '') })));
});
afterAll(async () => {
  await Promise.all([site.close(), smtp.close(), ...fakes.map((fake) => fake.close())]);
});

const mails = () => receivedMails(smtp);
const PAGE_ADDRESS = /https?:\/\/[\w.:-]+\/monitor\/[\w-]{43}/;

describe('the monitor worker, on a clock the test moves', () => {
  let testApp: TestApp;
  let store: ClientStore;
  let outbox: OutboxWorker;
  let worker: RunWorker;
  let database: string;
  const T0 = new Date('2030-03-04T09:00:00.000Z');

  const newWorker = () => {
    const { config, db, clock } = testApp;
    const checker = createSiteChecker({ brand: siteConstants.brand, siteUrl: config.siteUrl, allow: ['127.0.0.1'], agents: ['GPTBot'], clock, priority: 'normal' });
    return createRunWorker(config, { db, logger: createLogger('silent'), clock, checker, onDelivered: () => outbox.kick(), priority: 'normal' });
  };
  /** Runs what is due now on the test's clock, and waits for it to be recorded. */
  const pass = async () => {
    worker.kick();
    await worker.idle();
  };
  const runs = () => query<Pick<RunRow, 'id' | 'status' | 'trigger' | 'series' | 'not_before' | 'created_at'>>(database, 'SELECT id, status, trigger, series, not_before, created_at FROM runs WHERE client_id IS NOT NULL ORDER BY id');
  const nextRunAt = () => query<{ next_run_at: string }>(database, 'SELECT next_run_at FROM clients WHERE id = 1')[0]?.next_run_at;
  const trend = () => JSON.parse(query<{ trend: string }>(database, 'SELECT trend FROM clients WHERE id = 1')[0]?.trend ?? 'null') as TrendDocument | null;

  beforeAll(() => {
    testApp = createTestApp({
      env: { ...fakeEnvironment(fakes), SITE_CHECK_ALLOW: '127.0.0.1', MAIL_FROM: SENDER, MAIL_TO: AGENCY, MONITOR_PROMPTS: String(QUESTIONS), MONITOR_SEND: '1', PROBE_DAILY_CALLS: '1000', AUDIT_FACT_PROMPTS: '0', JUDGE_PROVIDER: 'none' },
    });
    database = testApp.config.databasePath;
    store = new ClientStore(testApp.db);
    outbox = testApp.outboxWorker(smtpTransport(smtp.url));
    outbox.start();
    const words = { site: `${site.origin}/`, keywords: 'emergency plumber Leeds, boiler repair Leeds', customer: 'homeowners in Leeds', products: 'boiler servicing', description: '', brand: null };
    store.add({ ...words, label: 'Okafor Plumbing', email: CONTACT, fromAuditId: null, questions: planClientQuestions(words, QUESTIONS, [CONTACT]) }, testApp.clock());
    worker = newWorker();
  });
  afterAll(async () => {
    await worker.stop();
    await outbox.stop();
    testApp.close();
  });

  it('runs a client added now at once, asking its fixed questions, then again MONITOR_INTERVAL_DAYS later and not before', async () => {
    startRound(1);
    worker.start();
    await worker.idle();
    expect(runs()).toEqual([expect.objectContaining({ id: 1, status: 'done', trigger: 'schedule', series: 1 })]);
    expect(nextRunAt()).toBe(new Date(T0.getTime() + 30 * DAY_MS).toISOString());
    const fixed = (JSON.parse(query<{ questions: string }>(database, 'SELECT questions FROM clients')[0]?.questions ?? '[]') as { question: string }[]).map((planned) => planned.question);
    expect(fixed).toHaveLength(QUESTIONS);
    for (const id of ASSISTANT_IDS) expect([...asked[id]].sort()).toEqual([...fixed].sort());
    const first = [...asked.chatgpt].sort();

    testApp.clock.advance(29 * DAY_MS);
    await pass();
    expect(runs()).toHaveLength(1);

    startRound(2);
    testApp.clock.advance(DAY_MS);
    await pass();
    expect(runs().map((run) => [run.id, run.status, run.created_at])).toEqual([
      [1, 'done', T0.toISOString()],
      [2, 'done', new Date(T0.getTime() + 30 * DAY_MS).toISOString()],
    ]);
    // The same questions as the first run, every one of them.
    expect([...asked.chatgpt].sort()).toEqual(first);
    expect(query(database, 'SELECT count(*) AS n FROM run_answers')).toEqual([{ n: 2 * QUESTIONS * ASSISTANT_IDS.length }]);
  });

  it('mails the agency after each run: the client, the score and its change, real changes before the rest, and the link to its page', async () => {
    const agencyMails = () => mails().filter((mail) => mail.to.includes(AGENCY) && mail.text.includes('AI visibility monitoring of Okafor Plumbing'));
    await waitFor('the agency mail of both runs', () => agencyMails().length === 2, 20_000);
    const [firstScore, secondScore] = query<{ visibility_score: number }>(database, 'SELECT visibility_score FROM runs WHERE client_id IS NOT NULL ORDER BY id').map((run) => run.visibility_score);
    const mail = agencyMails().find((item) => item.text.includes('run #2'));
    expect(mail?.from).toBe(SENDER);
    expect(mail?.text).toContain(`Subject: AI visibility monitoring of Okafor Plumbing: visibility ${secondScore}/100 (was ${firstScore}/100)`);
    expect(mail?.text).toContain(`Visibility score: ${secondScore}/100 (was ${firstScore}/100 on 2030-03-04).`);
    // The trend's own sentences: every real change before any that is within the usual variation.
    const changes = trend()?.changes ?? [];
    const at = (sentence: string) => mail?.text.indexOf(sentence) ?? -1;
    for (const change of changes) expect(at(change.sentence)).toBeGreaterThan(-1);
    const lastReal = Math.max(-1, ...changes.filter((change) => change.verdict !== 'same').map((change) => at(change.sentence)));
    const firstSame = Math.min(Number.POSITIVE_INFINITY, ...changes.filter((change) => change.verdict === 'same').map((change) => at(change.sentence)));
    expect(lastReal).toBeLessThan(firstSame);
    // Its link opens the client's page.
    const link = PAGE_ADDRESS.exec(mail?.text ?? '')?.[0] ?? '';
    const page = await request(testApp.app).get(new URL(link).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Okafor Plumbing');
  });

  it('MONITOR_SEND=1 sends the client a short note with a link of its own, from MAIL_FROM, replies to the agency', async () => {
    const notes = () => mails().filter((mail) => mail.to.includes(CONTACT));
    await waitFor("the client's notes", () => notes().length === 2, 20_000);
    const note = notes()[1];
    expect(note?.from).toBe(SENDER);
    expect(note?.text).toContain(`Reply-To: Citewise <${AGENCY}>`);
    expect(note?.text).toContain('Subject: Your AI visibility report: Okafor Plumbing');
    const link = PAGE_ADDRESS.exec(note?.text ?? '')?.[0] ?? '';
    const agencyLink = PAGE_ADDRESS.exec(mails().find((mail) => mail.to.includes(AGENCY) && mail.text.includes('run #2'))?.text ?? '')?.[0];
    expect(link).not.toBe(agencyLink);
    expect((await request(testApp.app).get(new URL(link).pathname)).text).toBe((await request(testApp.app).get(new URL(agencyLink ?? '').pathname)).text);
    // Only hashes of the links are kept.
    expect(JSON.stringify(query(database, 'SELECT * FROM run_links'))).not.toContain(link.slice(-43));
  });

  it('keeps each run beside its facts, and the trend composed from them, its latest run in full', async () => {
    startRound(3);
    testApp.clock.advance(30 * DAY_MS);
    await pass();
    expect(runs().map((run) => run.status)).toEqual(['done', 'done', 'done']);
    expect(query(database, 'SELECT count(*) AS n FROM runs WHERE client_id IS NOT NULL AND facts IS NOT NULL AND document IS NOT NULL')).toEqual([{ n: 3 }]);
    const latest = trend()?.latest;
    expect(latest?.business.name).toBe('Okafor Plumbing');
    const [third] = query<{ document: string }>(database, 'SELECT document FROM runs WHERE id = 3');
    expect(latest).toEqual(JSON.parse(third?.document ?? 'null'));
  });

  it('edit --brand counts every run again under the name given, from the answers kept and asking nothing: the facts, the trend and the page follow', () => {
    const requestsBefore = fakes.map((fake) => fake.requests.length);
    const callsBefore = query(database, 'SELECT day, calls FROM probe_calls');
    const clients = (args: string[]) => runOps('clients', args, { DATABASE_PATH: database, SITE_URL: testApp.config.siteUrl });
    expect(clients(['list']).stdout.split('\n')[1]).toContain('"Okafor Plumbing" (from the title)');

    const refused = clients(['edit', '--id', '1', '--brand', 'Emergency Plumbers Leeds']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^Not changed: "Emergency Plumbers Leeds" is made only of search words/);

    // Aire Valley Heating is named in every answer of the third run, in none before.
    const edited = clients(['edit', '--id', '1', '--brand', 'Aire Valley Heating']);
    expect(edited.stderr).toBe('');
    expect(edited.stdout).toBe('Client #1 (Okafor Plumbing): its answers are searched for "Aire Valley Heating" (given with --brand); 3 runs counted again from the answers kept, no assistant asked, and its page changed to match.\n');
    expect(fakes.map((fake) => fake.requests.length)).toEqual(requestsBefore);
    expect(query(database, 'SELECT day, calls FROM probe_calls')).toEqual(callsBefore);
    const facts = query<{ facts: string }>(database, 'SELECT facts FROM runs WHERE client_id IS NOT NULL ORDER BY id').map((row) => JSON.parse(row.facts) as { questions: { namedBy: string[] }[] });
    expect(facts.map((run) => run.questions.reduce((sum, question) => sum + question.namedBy.length, 0))).toEqual([0, 0, QUESTIONS * ASSISTANT_IDS.length]);
    expect(trend()?.latest?.business).toMatchObject({ name: 'Aire Valley Heating', nameSigns: ['given'] });
    expect(trend()?.client.name).toBe('Aire Valley Heating');
    expect(clients(['list']).stdout.split('\n')[1]).toContain('"Aire Valley Heating" (given with --brand)');
  });

  it('never runs a paused client, not even a run queued for it; resumed, a client overdue runs once', async () => {
    store.setStatus(1, 'paused');
    testApp.clock.advance(65 * DAY_MS);
    await pass();
    expect(runs()).toHaveLength(3);
    const client = store.get(1);
    if (client) store.enqueue(client, 'command', runShape(testApp.config), 30, testApp.clock());
    await pass();
    expect(runs().at(-1)).toMatchObject({ id: 4, status: 'queued', trigger: 'command' });
    store.setStatus(1, 'active');
    await pass();
    await pass();
    expect(runs()).toHaveLength(4);
    expect(runs().at(-1)).toMatchObject({ id: 4, status: 'done' });
    expect(nextRunAt()).toBe(new Date(testApp.clock().getTime() + 30 * DAY_MS).toISOString());
  });

  it('runs a run missed while the server was down soon after it starts again, once', async () => {
    await worker.stop();
    // Three intervals pass with the server down.
    testApp.clock.advance(95 * DAY_MS);
    worker = newWorker();
    worker.start();
    await worker.idle();
    await pass();
    expect(runs()).toHaveLength(5);
    expect(runs().at(-1)).toMatchObject({ status: 'done', trigger: 'schedule', created_at: testApp.clock().toISOString() });
    expect(nextRunAt()).toBe(new Date(testApp.clock().getTime() + 30 * DAY_MS).toISOString());
  });

  it("leaves a run the day's calls cannot hold waiting for the next UTC day, rather than running half", async () => {
    testApp.clock.advance(30 * DAY_MS);
    const today = testApp.clock().toISOString().slice(0, 10);
    // 40 calls a run; 39 left today.
    testApp.db.prepare('INSERT INTO probe_calls (day, calls) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET calls = excluded.calls').run(today, 1000 - 39);
    startRound(3);
    await pass();
    const midnight = nextUtcDay(testApp.clock()).toISOString();
    expect(runs().at(-1)).toMatchObject({ id: 6, status: 'queued', not_before: midnight });
    expect(asked.chatgpt).toEqual([]);
    expect(query(database, 'SELECT calls FROM probe_calls WHERE day = ?', today)).toEqual([{ calls: 961 }]);

    testApp.clock.set(midnight);
    await pass();
    expect(runs().at(-1)).toMatchObject({ id: 6, status: 'done' });
    expect(asked.chatgpt).toHaveLength(QUESTIONS);
  });

  it('starts no run while an audit run runs: one background run at a time', async () => {
    const lead = testApp.db.prepare(
      `INSERT INTO audit_submissions (name, email, website_url, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
       VALUES (@name, @email, @website_url, @business_description, @ideal_customer, @target_keywords, @current_products, @lead_sources, @seo_experience, @main_goal, '2030-03-04T09:00:00.000Z')`,
    );
    const auditId = Number(lead.run({ ...validAudit }).lastInsertRowid);
    testApp.db.prepare(`INSERT INTO runs (audit_id, status, trigger, prompts, calls_planned, created_at) VALUES (?, 'running', 'command', 1, 4, ?)`).run(auditId, testApp.clock().toISOString());
    testApp.clock.advance(30 * DAY_MS);
    await pass();
    expect(runs().at(-1)).toMatchObject({ status: 'queued', not_before: null });
    testApp.db.prepare(`UPDATE runs SET status = 'done' WHERE audit_id IS NOT NULL`).run();
    await pass();
    expect(runs().at(-1)).toMatchObject({ status: 'done' });
  });

  it('ends a run whose client is removed under it, keeping nothing of it, and tells no one', async () => {
    testApp.clock.advance(30 * DAY_MS);
    startRound(3);
    const mailsBefore = query<{ n: number }>(database, 'SELECT count(*) AS n FROM mail_outbox')[0]?.n;
    // Removed as the fifth question is asked, as `npm run clients -- remove` would.
    let questions = 0;
    onQuestion = () => {
      questions += 1;
      if (questions === 5) store.remove(1);
    };
    try {
      await pass();
    } finally {
      onQuestion = null;
    }
    expect(query(database, 'SELECT count(*) AS n FROM clients')).toEqual([{ n: 0 }]);
    expect(query(database, 'SELECT count(*) AS n FROM runs WHERE client_id IS NOT NULL')).toEqual([{ n: 0 }]);
    for (const table of ['run_answers', 'run_links']) expect(query(database, `SELECT count(*) AS n FROM ${table}`)).toEqual([{ n: 0 }]);
    expect(query(database, 'SELECT count(*) AS n FROM mail_outbox')).toEqual([{ n: (mailsBefore ?? 0) - 14 }]);
    // It stopped asking: far fewer than its 40 calls went out.
    expect(ASSISTANT_IDS.reduce((sum, id) => sum + asked[id].length, 0)).toBeLessThan(QUESTIONS * ASSISTANT_IDS.length);
  });
});

describe('npm run clients, beside the server', () => {
  let server: ServerProcess | null = null;
  let dir: string;
  let database: string;
  let port: number;
  let env: Record<string, string>;
  let page = '';
  const clients = (args: string[]) => runOps('clients', args, env);

  beforeAll(async () => {
    port = await serverPort('monitor-runs');
    dir = mkdtempSync(path.join(tmpdir(), 'citewise-clients-'));
    database = path.join(dir, 'site.db');
    const db = openDatabase(database);
    migrate(db);
    db.prepare(
      `INSERT INTO audit_submissions (name, email, website_url, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
       VALUES (@name, @email, @website_url, @business_description, @ideal_customer, @target_keywords, @current_products, @lead_sources, @seo_experience, @main_goal, '2030-03-04T09:00:00.000Z')`,
    ).run({ ...validAudit, name: 'Ada Okafor', email: CONTACT, website_url: `${site.origin}/`, target_keywords: 'emergency plumber Leeds', current_products: 'boiler servicing' });
    db.close();
    env = { DATABASE_PATH: database, SITE_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, MAIL_FROM: SENDER, MAIL_TO: AGENCY, SITE_CHECK_ALLOW: '127.0.0.1', MONITOR_PROMPTS: '3', ...fakeEnvironment(fakes) };
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds a client, printing its id and the address of its private page', () => {
    const added = clients(['add', '--site', `${site.origin}/`, '--keywords', 'emergency plumber Leeds, boiler repair Leeds', '--label', 'Okafor Plumbing']);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    const lines = added.stdout.split('\n');
    expect(lines[0]).toBe(`Client #1 added: Okafor Plumbing (${site.origin}/), 3 questions fixed for each assistant (series 1).`);
    page = PAGE_ADDRESS.exec(lines[2] ?? '')?.[0] ?? '';
    expect(page).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/monitor/`));
    expect(query(database, 'SELECT label, site, series, status FROM clients')).toEqual([{ label: 'Okafor Plumbing', site: `${site.origin}/`, series: 1, status: 'active' }]);
  });

  it('adds a client from an audit request, with its details and its contact', () => {
    const added = clients(['add', '--from-audit', '1', '--label', 'Okafor (from the audit)']);
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^Client #2 added: Okafor \(from the audit\)/);
    expect(query(database, 'SELECT email, from_audit_id, keywords FROM clients WHERE id = 2')).toEqual([{ email: CONTACT, from_audit_id: 1, keywords: 'emergency plumber Leeds' }]);
  });

  it.each([
    [['add', '--site', 'not a site', '--keywords', 'plumber'], 1, '--site must be a web address, not "not a site"\n'],
    [['add', '--site', 'https://example.com/', '--keywords', '  '], 1, '--keywords must not be empty\n'],
    [['add', '--site', 'https://example.com/', '--keywords', 'plumber', '--email', 'nobody'], 1, '--email must be an e-mail address, not "nobody"\n'],
    [['add', '--from-audit', '9'], 1, 'No audit request #9\n'],
    [['pause', '--id', '7'], 1, 'No client #7\n'],
    [['pause', '--id', 'x'], 1, '--id must be a client\'s number, not "x"\n'],
    [['run', '--id', '1', '--now'], 2, 'Unknown argument --now. Options: --id\n'],
    [['pause'], 2, expect.stringMatching(/^Usage: npm run clients -- add/)],
    [[], 2, expect.stringMatching(/^Usage: npm run clients -- add/)],
  ])('refuses %j in one line, exit %i', (args, status, stderr) => {
    const result = clients(args as string[]);
    expect(result).toEqual({ status, stdout: '', stderr });
    expect(query(database, 'SELECT count(*) AS n FROM clients')).toEqual([{ n: 2 }]);
  });

  it('pauses and resumes a client, and lists each with its last run, score and next run', () => {
    expect(clients(['pause', '--id', '2']).stdout).toBe('Client #2 (Okafor (from the audit)) paused: the server runs it no more until npm run clients -- resume --id 2.\n');
    const listed = clients(['list']).stdout.split('\n');
    expect(listed[0]).toMatch(/^id\s+label\s+site\s+searched for\s+status\s+last run\s+score\s+next run$/);
    expect(listed[1]).toMatch(new RegExp(`^1\\s+Okafor Plumbing\\s+${site.origin.replace(/\./g, '\\.')}/\\s+read from its site at its first run\\s+active\\s+none yet\\s+-\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`));
    expect(listed[2]).toMatch(/^2\s+Okafor \(from the audit\)\s+\S+\s+read from its site at its first run\s+paused\s+none yet\s+-\s+paused$/);
    expect(clients(['resume', '--id', '2']).stdout).toBe('Client #2 (Okafor (from the audit)) resumed: its next run is due now.\n');
    expect(clients(['pause', '--id', '2']).status).toBe(0);
  });

  it('changing its keywords fixes new questions and starts a new series', () => {
    const before = query<{ questions: string }>(database, 'SELECT questions FROM clients WHERE id = 1')[0]?.questions;
    const edited = clients(['edit', '--id', '1', '--keywords', 'emergency plumber Leeds, blocked drain Leeds']);
    expect(edited.status).toBe(0);
    expect(edited.stdout).toBe('Client #1 (Okafor Plumbing): 3 new questions fixed for each assistant, series 2. Its trend starts again from the next run; the runs before are kept, not compared.\n');
    const [after] = query<{ questions: string; series: number }>(database, 'SELECT questions, series FROM clients WHERE id = 1');
    expect(after?.series).toBe(2);
    expect(after?.questions).not.toBe(before);
    expect(clients(['edit', '--id', '1', '--keywords', 'emergency plumber Leeds, blocked drain Leeds']).stdout).toBe("Client #1's questions stay the same: series 2 goes on.\n");
  });

  it('run --id N: the server runs it, the command waits and prints its one-line result; the page then shows it', async () => {
    startRound(1);
    server = await startServerProcess({ ...env, PORT: String(port) });
    const result = await runOpsInBackground('clients', ['run', '--id', '1'], env);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const last = result.stdout.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(/^Run #\d+ of client #1 \(Okafor Plumbing\) finished: visibility \d+\/100, readiness \d+\/100; the first run of its series\.$/);
    expect(query(database, `SELECT series, status FROM runs WHERE client_id = 1`)).toEqual([{ series: 2, status: 'done' }]);
    // The paused client was not run.
    expect(query(database, `SELECT count(*) AS n FROM runs WHERE client_id = 2`)).toEqual([{ n: 0 }]);
    const opened = await pageAt(page);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('Okafor Plumbing');
  });

  it('run --id N refuses a paused client in one line, and queues nothing', () => {
    const before = query(database, 'SELECT count(*) AS n FROM runs');
    const result = clients(['run', '--id', '2']);
    expect(result).toEqual({ status: 1, stdout: '', stderr: 'Client #2 (Okafor (from the audit)) is paused: resume it first (npm run clients -- resume --id 2)\n' });
    expect(query(database, 'SELECT count(*) AS n FROM runs')).toEqual(before);
  });

  it('list says what a waiting run waits for: the next UTC day, or the run before it', () => {
    // As the server leaves them: a run the day could not hold, then one behind an audit run.
    const db = new Database(database);
    const waiting = Number(
      db.prepare(`INSERT INTO runs (client_id, status, trigger, series, prompts, calls_planned, not_before, created_at) VALUES (1, 'queued', 'command', 2, 3, 12, ?, '2030-03-04T09:00:00.000Z')`).run('2099-01-02T00:00:00.000Z').lastInsertRowid,
    );
    expect(clients(['list']).stdout.split('\n')[1]).toContain(`run #${waiting} waits for 2099-01-02 00:00 UTC (today's PROBE_DAILY_CALLS cannot hold it)`);
    db.prepare('UPDATE runs SET not_before = NULL WHERE id = ?').run(waiting);
    const auditId = Number(db.prepare(`INSERT INTO runs (audit_id, status, trigger, prompts, calls_planned, created_at) VALUES (1, 'running', 'command', 3, 12, '2030-03-04T09:00:00.000Z')`).run().lastInsertRowid);
    expect(clients(['list']).stdout.split('\n')[1]).toContain(`run #${waiting} waits for audit run #${auditId} (request #1)`);
    db.prepare('DELETE FROM runs WHERE id IN (?, ?)').run(waiting, auditId);
    db.close();
  });

  it('link --id N --revoke ends every link to the page given out before: they open nothing', async () => {
    const given = PAGE_ADDRESS.exec(clients(['link', '--id', '1']).stdout)?.[0] ?? '';
    expect((await pageAt(given)).body).toContain('Okafor Plumbing');
    const revoked = clients(['link', '--id', '1', '--revoke']);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toMatch(/^Client #1 \(Okafor Plumbing\): \d+ links to its page ended; they open nothing now\. A new one: npm run clients -- link --id 1\n$/);
    expect((await pageAt(given)).body).not.toContain('Okafor Plumbing');
    expect((await pageAt(PAGE_ADDRESS.exec(clients(['link', '--id', '1']).stdout)?.[0] ?? '')).body).toContain('Okafor Plumbing');
  });

  it('npm run export:csv -- --clients: one row per run', () => {
    const result = runOps('export-csv', ['--clients', '--no-bom'], { DATABASE_PATH: database });
    expect(result.status).toBe(0);
    const [header, ...rows] = parseCsv(result.stdout);
    expect(header).toEqual(['client_id', 'label', 'site', 'series', 'run_id', 'created_at', 'run_at', 'trigger', 'status', 'visibility_score', 'readiness_score', 'chatgpt_named', 'claude_named', 'gemini_named', 'perplexity_named']);
    expect(rows).toHaveLength(1);
    const [run] = query<{ finished_at: string; visibility_score: number }>(database, 'SELECT finished_at, visibility_score FROM runs WHERE client_id IS NOT NULL');
    const row = Object.fromEntries((header ?? []).map((name, index) => [name, rows[0]?.[index]]));
    expect(row).toMatchObject({ client_id: '1', label: 'Okafor Plumbing', series: '2', run_at: run?.finished_at, status: 'done', visibility_score: String(run?.visibility_score) });
    // The first round's answers, 3 questions each: ChatGPT names the business in all, Claude in 1, Gemini in none, Perplexity in 2.
    expect(row).toMatchObject({ chatgpt_named: '3 of 3', claude_named: '1 of 3', gemini_named: '0 of 3', perplexity_named: '2 of 3' });
  });

  it('remove --id N: everything about the client gone, its page then answers as an unknown one', async () => {
    const unknown = (await pageAt(page.replace(/[\w-]{43}$/, 'A'.repeat(43)))).body;
    const removed = clients(['remove', '--id', '1']);
    expect(removed.stdout).toBe('Client #1 (Okafor Plumbing) removed, with its 1 run, their answers and every link to its page: its page now answers as an unknown one.\n');
    expect(query(database, 'SELECT count(*) AS n FROM runs WHERE client_id = 1')).toEqual([{ n: 0 }]);
    expect(query(database, 'SELECT count(*) AS n FROM run_links WHERE client_id = 1')).toEqual([{ n: 0 }]);
    expect(query(database, 'SELECT count(*) AS n FROM run_answers')).toEqual([{ n: 0 }]);
    expect(query(database, `SELECT count(*) AS n FROM mail_outbox WHERE kind LIKE 'monitor-%' AND source_id = 1`)).toEqual([{ n: 0 }]);
    expect((await pageAt(page)).body).toBe(unknown);
  });

  it('npm run erase: a person erased takes the clients with their contact address with them', () => {
    const result = runOps('erase', ['--email', CONTACT.toUpperCase()], { DATABASE_PATH: database });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('  clients:          1 (monitored: with their runs, answers and page links)');
    expect(query(database, 'SELECT count(*) AS n FROM clients')).toEqual([{ n: 0 }]);
  });
});
