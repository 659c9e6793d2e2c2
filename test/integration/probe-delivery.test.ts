import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'node-html-parser';
import request from 'supertest';
import { siteCheckDelivery } from '../../server/leads/site-check-delivery';
import { probeDelivery } from '../../server/leads/probe-delivery';
import { FINDINGS_WAIT_FOR_PROBE_MS, LeadStore } from '../../server/leads/lead-store';
import { createLogger, type Logger } from '../../server/logger';
import { smtpTransport } from '../../server/mail/mail-transport';
import { SiteCheckWorker } from '../../server/site-check/check-worker';
import { SiteCheckStore } from '../../server/site-check/check-store';
import { createSiteChecker } from '../../server/site-check/site-checker';
import { loadAiSources } from '../../server/ledger/ai-sources';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { createProber } from '../../server/visibility-probe/prober';
import { ProbeWorker } from '../../server/visibility-probe/probe-worker';
import { HONEYPOT_FIELD } from '../../shared/forms/form-contract';
import { namedFirst, notNamed, namedThird, type RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { capturingLogger } from '../helpers/capturing-logger';
import { parseCsv } from '../helpers/csv';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant, type Reply } from '../helpers/fake-assistants';
import { html, startSiteAt, wellMadeSite, type FixtureSite } from '../helpers/fixture-sites';
import { countRows, formSession, openForm, postForm, validAudit } from '../helpers/forms';
import { waitFor } from '../helpers/process-forms';
import { runOps } from '../helpers/ops-command';
import { decodeQuotedPrintable, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * An audit request's AI visibility probe, from the form to the agency and back to the prospect:
 * the real app over a real SQLite file, the real site check of a fixture site on 127.0.0.1, each
 * assistant's fake API speaking its own wire format, and a real SMTP server receiving the mail.
 */

jest.setTimeout(60_000);

const AGENTS = loadAiSources().agents.map((agent) => agent.match);
const silent = createLogger('silent');

/** Acme Plumbing's own site: its structured data names the business as the probe looks for it. */
const acmeSite = (origin: () => string) => ({
  ...wellMadeSite(origin),
  '/': html(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Emergency plumbers in Leeds | Acme</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Plumber","name":"Acme Plumbing Ltd","url":"${origin()}/"}</script></head>
<body><main><h1>Emergency plumbers in Leeds</h1><p>Gas Safe registered plumbers, 24 hours a day, across Leeds and West Yorkshire.</p></main></body></html>`),
});

/** A request as a plumber in Leeds types it; the person wrote their phone and e-mail into the business fields too. */
const acmeRequest = {
  ...validAudit,
  name: 'Jane Smith',
  email: 'jane.smith@acme-plumbing.example',
  business_description: 'Family-run plumbing firm in Leeds. Ring Jane Smith on 07700 900123 or write to jane.smith@acme-plumbing.example.',
  ideal_customer: 'Landlords in Leeds with a few rental properties',
  target_keywords: 'emergency plumber Leeds, boiler repair',
  current_products: 'boiler servicing, emergency call-outs',
};

type Script = (request: Parameters<Parameters<typeof startFakeAssistant>[2]>[0], index: number) => Reply;
const always = (answer: RecordedAnswer): Script => () => ({ answer });

let app: TestApp | undefined;
let smtp: TestSmtpServer | undefined;
const fakes: FakeAssistant[] = [];
const sites: FixtureSite[] = [];
afterEach(async () => {
  current().close();
  app = undefined;
  await smtp?.close();
  smtp = undefined;
  await Promise.all([...fakes.splice(0), ...sites.splice(0)].map((server) => server.close()));
});

interface Wiring {
  checks: SiteCheckWorker;
  probes: ProbeWorker;
  mail: ReturnType<TestApp['outboxWorker']>;
  /** What the probe worker logged. */
  lines: Record<string, unknown>[];
}

/**
 * The app with its three workers over one database and clock, as server/index.ts wires them, the
 * assistants in `scripts` configured (through their *_API_KEY and *_BASE_URL), or none.
 * `kickMail: false` leaves the outbox to the test, so that what waits in it can be seen.
 */
async function wired(
  scripts: Partial<Record<AssistantId, Script>>,
  options: {
    env?: Record<string, string>;
    keys?: Partial<Record<AssistantId, string>>;
    mailWaitMs?: number;
    kickMail?: boolean;
    callTimeoutMs?: number;
    logger?: Logger;
    /** Probes one client address may start in 24 hours; null: as the server works it out from PROBE_DAILY_CALLS. */
    probesPerAddressPerDay?: number | null;
  } = {},
): Promise<Wiring> {
  for (const id of ASSISTANT_IDS) {
    const script = scripts[id];
    if (script) fakes.push(await startFakeAssistant(id, FAKE_KEYS[id], script));
  }
  smtp = await startSmtpServer();
  const kickMail = options.kickMail ?? true;
  let wiring: Wiring | undefined;
  const env = { ...(fakes.length > 0 ? fakeEnvironment(fakes, { ...FAKE_KEYS, ...options.keys }) : {}), PROBE_PROMPTS: '3', ...options.env };
  const testApp = createTestApp({
    env,
    siteChecks: { kick: () => wiring?.checks.kick(), mailWaitMs: options.mailWaitMs ?? 20_000 },
    probes: { kick: () => wiring?.probes.kick() },
    mailer: { kick: () => (kickMail ? wiring?.mail.kick() : undefined) },
    ...(options.probesPerAddressPerDay !== undefined ? { probesPerAddressPerDay: options.probesPerAddressPerDay } : {}),
  });
  app = testApp;
  const store = new LeadStore(testApp.db);
  const mail = testApp.outboxWorker(smtpTransport(smtp.url), { logger: silent });
  const checker = createSiteChecker({ brand: 'Citewise', siteUrl: testApp.config.siteUrl, allow: ['127.0.0.1', '::1'], agents: AGENTS, clock: () => new Date(), priority: 'normal' });
  const { logger, lines } = capturingLogger();
  const probes = new ProbeWorker({
    db: testApp.db,
    logger: options.logger ?? logger,
    clock: testApp.clock,
    prober: createProber({
      assistants: testApp.config.probe.assistants,
      promptsPerAssistant: testApp.config.probe.promptsPerAssistant,
      clock: testApp.clock,
      priority: 'normal',
      ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
    }),
    dailyCalls: testApp.config.probe.dailyCalls,
    deliver: probeDelivery(store, new SiteCheckStore(testApp.db), testApp.config, testApp.clock),
    onDelivered: () => (kickMail ? mail.kick() : undefined),
  });
  const checks = new SiteCheckWorker({
    db: testApp.db,
    checker,
    logger: silent,
    clock: testApp.clock,
    deliver: siteCheckDelivery(store, testApp.config, testApp.clock),
    onDelivered: () => {
      if (kickMail) mail.kick();
      probes.kick();
    },
  });
  wiring = { checks, probes, mail, lines };
  return wiring;
}

/** The app of the test under way. */
function current(): TestApp {
  if (!app) throw new Error('no app started');
  return app;
}

async function acme(): Promise<FixtureSite> {
  const site = await startSiteAt(acmeSite);
  sites.push(site);
  return site;
}

async function submit(values: Record<string, string>): Promise<string> {
  const { agent, hidden } = await openForm(current().app, '/free-audit');
  const response = await agent.post('/free-audit').type('form').send({ ...values, ...hidden }).expect(303);
  return String(response.headers.location);
}

/** The same, from the client address a trusted proxy names (the app runs with TRUST_PROXY=1). */
async function submitFrom(address: string, values: Record<string, string>): Promise<string> {
  const page = await request(current().app).get('/free-audit').set('X-Forwarded-For', address);
  const session = formSession(page.text, page.headers['set-cookie'] as unknown as string[]);
  const response = await request(current().app).post('/free-audit').set('X-Forwarded-For', address).set('Cookie', session.cookie).type('form').send({ ...values, ...session.hidden }).expect(303);
  return String(response.headers.location);
}

/** Waits until every worker has nothing left to do (each one's own signal, in the order work flows). */
async function settled({ checks, probes, mail }: Wiring): Promise<void> {
  await checks.idle();
  await probes.idle();
  await mail.idle();
}

/** The mails received, as the agency's mail program shows them: bodies decoded, long headers unfolded. */
const mails = () => (smtp?.received ?? []).map((mail) => decodeQuotedPrintable(mail.raw).replace(/\r?\n[ \t]+/g, ' '));
const statusOf = async (thankYou: string) => (await request(current().app).get(thankYou.replace('/thank-you', '/site-check/status'))).body as { siteCheck: unknown; probe: unknown };
const fake = (id: AssistantId) => fakes.find((item) => item.id === id);

describe('an audit request\'s AI visibility probe', () => {
  it('asks the assistants after the site check has read the business\'s name, and mails the agency who named it, where, and who instead', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst), claude: always(namedThird), perplexity: always(notNamed) });
    const thankYou = await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    // Stored with its probe queued, before any assistant is asked: the probe waits for the check.
    expect(current().db.prepare('SELECT audit_id, status FROM visibility_probes').all()).toEqual([{ audit_id: 1, status: 'queued' }]);
    expect(fakes.every((item) => item.requests.length === 0)).toBe(true);
    await settled(wiring);

    expect(fakes.map((item) => [item.id, item.requests.length])).toEqual([['chatgpt', 3], ['claude', 3], ['perplexity', 3]]);
    const [notification, results] = mails();
    expect(mails()).toHaveLength(2);
    expect(notification).toContain('AI visibility probe: asking the assistants now; the results follow in a separate mail.');
    expect(results).toMatch(/Subject: AI visibility probe for audit request #1: AI visibility \d+\/100/);
    expect(results).toContain('The AI visibility probe of audit request #1 from Jane Smith (received 2030-03-04 09:00:00 UTC) has finished');
    expect(results).toContain('AI visibility of Acme Plumbing Ltd');
    expect(results).toMatch(/ChatGPT \([^)]+\): named in 3 of 3 answers/);
    expect(results).toMatch(/Claude \([^)]+\): named in 3 of 3 answers/);
    expect(results).toMatch(/Perplexity \([^)]+\): named in 0 of 3 answers/);
    expect(results).toContain('[named #1] Who is the best emergency plumber Leeds for Landlords in Leeds with a few rental properties?');
    expect(results).toContain('[named #3]');
    expect(results).toContain('[not named]');
    expect(results).toMatch(/Named instead: Pipe Pros Leeds \(\d+\)/);

    // The prospect's own link answers the probe too; the answers are stored beside the request.
    const status = await statusOf(thankYou);
    expect(status.probe).toMatchObject({
      status: 'done',
      keyword: 'emergency plumber Leeds',
      assistants: [
        { name: 'ChatGPT', answered: 3, named: 3 },
        { name: 'Claude', answered: 3, named: 3 },
        { name: 'Perplexity', answered: 3, named: 0, others: expect.arrayContaining(['Pipe Pros Leeds']) },
      ],
    });
    const stored = current().db.prepare('SELECT status, score, summary, report FROM visibility_probes').get() as { status: string; score: number; summary: string; report: string };
    expect(stored).toMatchObject({ status: 'done', score: expect.any(Number), summary: expect.stringContaining('named by ChatGPT 3/3, Claude 3/3, Perplexity 0/3') });
    const report = JSON.parse(stored.report) as { assistants: { id: string; model: string; answers: { prompt: string; askedAt: string; text: string; sources: unknown[]; named: boolean; position: number | null }[] }[] };
    expect(report.assistants[0]?.answers[0]).toMatchObject({ askedAt: expect.any(String), named: true, position: 1, sources: expect.any(Array), text: expect.stringContaining('Acme Plumbing Ltd') });
    expect(report.assistants.map((assistant) => assistant.model)).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
  });

  it('reads the name from a title such as "Home | Okafor Plumbing": the mail says what was searched for and where it came from, "home" alone names no one, and a keyword with "home" in it is asked', async () => {
    // The home page gives its title and nothing else: no structured data, no og:site_name.
    const site = await startSiteAt((origin) => ({
      ...wellMadeSite(origin),
      '/': html(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Home | Okafor Plumbing</title></head>
<body><main><h1>Plumbers in Leeds</h1><p>Gas Safe registered plumbers across Leeds.</p></main></body></html>`),
    }));
    sites.push(site);
    const home: RecordedAnswer = { text: 'Most landlords want someone who treats a tenant\'s home with care: **Pipe Pros Leeds** is one. Home visits are free.', sources: [] };
    const okafor: RecordedAnswer = { text: '1. **Okafor Plumbing** – Gas Safe registered, Leeds.\n2. **Pipe Pros Leeds** – fast call-outs.', sources: [] };
    const wiring = await wired({ chatgpt: (received) => ({ answer: received.question?.includes('home boiler repair') ? home : okafor }) });
    await submit({ ...acmeRequest, website_url: `${site.origin}/`, target_keywords: 'home boiler repair, emergency plumber Leeds', current_products: 'boiler servicing' });
    await settled(wiring);

    const questions = fake('chatgpt')?.requests.map((received) => received.question) ?? [];
    expect(questions).toContain('Who is the best home boiler repair for Landlords in Leeds with a few rental properties?');
    const results = mails().at(-1) ?? '';
    expect(results).toContain(`Looked for: "Okafor Plumbing" (from the title) and 127.0.0.1`);
    expect(results).toContain('[not named] Who is the best home boiler repair for Landlords in Leeds with a few rental properties?');
    expect(results).toContain('[named #1] Who would you recommend for boiler servicing?');
    expect(results).toContain('[not named] home boiler repair: which companies do you trust?');
    expect(results).toMatch(/ChatGPT \([^)]+\): named in 1 of 3 answers/);
    const stored = JSON.parse(current().db.prepare('SELECT report FROM visibility_probes').pluck().get() as string) as { brand: string; nameSigns: string[]; pageTitle: string };
    expect(stored).toMatchObject({ brand: 'Okafor Plumbing', nameSigns: ['title'], pageTitle: 'Home | Okafor Plumbing' });
  });

  it('sends no assistant anything of the person: neither their name, their e-mail nor their phone, wherever they typed them', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst), claude: always(namedFirst) });
    await submit({
      ...acmeRequest,
      website_url: `${site.origin}/`,
      target_keywords: 'emergency plumber Leeds, call Jane Smith 07700 900123',
      ideal_customer: 'Landlords in Leeds (ask for Jane Smith)',
      current_products: 'jane.smith@acme-plumbing.example for boiler servicing',
    });
    await settled(wiring);
    const sent = fakes.flatMap((item) => item.requests.map((received) => JSON.stringify(received.body)));
    expect(sent.length).toBe(6);
    expect(sent.some((body) => body.includes('emergency plumber Leeds'))).toBe(true);
    for (const body of sent) expect(body).not.toMatch(/Jane|Smith|jane\.smith|07700|900123/i);
  });

  it('goes with the site check\'s findings in one mail when both are ready before that mail goes', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) }, { mailWaitMs: 0, kickMail: false });
    // The probe waits until the notification has gone: the check may end at any moment after the
    // request, and a probe that ended too would make the findings due while the outbox still runs.
    await wiring.probes.stop();
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    // The notification goes at once (the lead never waits), whenever the check ends.
    wiring.mail.kick();
    await wiring.mail.idle();
    expect(mails()).toHaveLength(1);
    await wiring.checks.idle();
    wiring.probes.start();
    await wiring.probes.idle();
    wiring.mail.kick();
    await wiring.mail.idle();
    expect(mails()).toHaveLength(2);
    const second = mails()[1] ?? '';
    expect(second).toMatch(/Subject: AI-readiness check and visibility probe for audit request #1: 127\.0\.0\.1:\d+ \d+\/100, AI visibility \d+\/100/);
    expect(second).toContain(`The instant AI-readiness check of ${site.origin}/`);
    expect(second).toContain('The AI visibility probe of the same request has finished');
    expect(second).toMatch(/ChatGPT \([^)]+\): named in 3 of 3 answers/);
    expect(current().db.prepare('SELECT kind FROM mail_outbox ORDER BY id').pluck().all()).toEqual(['audit', 'site-check']);
  });

  it('findings mailed on their own wait a while for the probe; once due they are never written into, and the probe follows alone', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) }, { mailWaitMs: 0, kickMail: false });
    // The probe does not get its turn yet: the findings are ready first, and wait for it. Its
    // worker stops before the request is sent, as the check may finish at any moment after, and
    // a finished check starts the probe.
    await wiring.probes.stop();
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    wiring.mail.kick();
    await wiring.mail.idle();
    await wiring.checks.idle();
    wiring.mail.kick();
    await wiring.mail.idle();
    expect(current().db.prepare('SELECT status FROM visibility_probes').pluck().all()).toEqual(['queued']);
    expect(mails()).toHaveLength(1);

    // The wait is over: the findings are due, and may be on their way at any moment.
    current().clock.advance(FINDINGS_WAIT_FOR_PROBE_MS);
    wiring.probes.start();
    await wiring.probes.idle();
    expect(current().db.prepare('SELECT kind FROM mail_outbox ORDER BY id').pluck().all()).toEqual(['audit', 'site-check', 'probe']);
    wiring.mail.kick();
    await wiring.mail.idle();
    expect(mails()).toHaveLength(3);
    expect(mails()[1]).toMatch(/Subject: AI-readiness check for audit request #1: 127\.0\.0\.1:\d+ \d+\/100/);
    expect(mails()[1]).not.toContain('AI visibility of');
    expect(mails()[2]).toMatch(/Subject: AI visibility probe for audit request #1: AI visibility \d+\/100/);
  });

  it('never delays the lead: a provider that does not answer holds neither the answer, the notification nor the other assistants', async () => {
    const site = await acme();
    // One call timeout holds for every assistant: ChatGPT's silence ends with it, and Claude's
    // answers, sent at once, must be read within it even while the machine is busy with other
    // work (a probe's process stalled past 300 ms under a full test run beside a busy loop).
    const wiring = await wired({ chatgpt: () => ({ hang: true }), claude: always(namedFirst) }, { mailWaitMs: 0, callTimeoutMs: 2_000 });
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await wiring.checks.idle();
    await wiring.mail.idle();
    // The notification and the findings are out while ChatGPT has not answered.
    expect(mails().length).toBeGreaterThanOrEqual(1);
    expect(mails()[0]).toContain('Audit request #1');
    await wiring.probes.idle();
    await wiring.mail.idle();
    const last = mails().at(-1) ?? '';
    expect(last).toMatch(/ChatGPT \([^)]+\): no answer \(3 asked\)/);
    expect(last).toMatch(/Claude \([^)]+\): named in 3 of 3 answers/);
  });

  it('a rejected key ends that assistant\'s part; no key is ever in the log, the mail, the database or the page', async () => {
    const site = await acme();
    const wrong = { claude: 'sk-ant-api03-wrong-key-that-the-provider-echoes' };
    const wiring = await wired({ chatgpt: always(namedFirst), claude: always(namedFirst) }, { keys: wrong });
    const thankYou = await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await settled(wiring);
    const last = mails().at(-1) ?? '';
    expect(last).toMatch(/Claude \([^)]+\): key rejected; check ANTHROPIC_API_KEY/);
    expect(last).toMatch(/ChatGPT \([^)]+\): named in 3 of 3 answers/);
    // Not asked again once it refused the key (a call already under way at the same moment may have been).
    expect(fake('claude')?.requests.length).toBeLessThan(3);
    expect(fake('claude')?.requests.every((received) => received.key === wrong.claude)).toBe(true);

    const status = JSON.stringify(await statusOf(thankYou));
    const page = (await request(current().app).get(thankYou)).text;
    current().db.pragma('wal_checkpoint(TRUNCATE)');
    const dir = current().dir;
    const files = readdirSync(dir).map((name) => readFileSync(path.join(dir, name)).toString('latin1'));
    const everywhere = [status, page, ...mails(), ...(smtp?.received ?? []).map((mail) => mail.raw), JSON.stringify(wiring.lines), ...files].join('\n');
    expect(wiring.lines.length).toBeGreaterThan(0);
    for (const key of [FAKE_KEYS.chatgpt, wrong.claude]) expect(everywhere).not.toContain(key);
  });

  it('stops at PROBE_DAILY_CALLS a UTC day in all, says so, and asks again the next day', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) }, { env: { PROBE_DAILY_CALLS: '4' } });
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await settled(wiring);
    await submit({ ...acmeRequest, email: 'second@acme-plumbing.example', website_url: `${site.origin}/` });
    await settled(wiring);
    expect(fake('chatgpt')?.requests).toHaveLength(4);
    const rows = current().db.prepare('SELECT status, summary FROM visibility_probes ORDER BY id').all() as { status: string; summary: string }[];
    expect(rows[0]?.status).toBe('done');
    expect(rows[1]).toMatchObject({ status: 'stopped', summary: expect.stringContaining('daily call limit (PROBE_DAILY_CALLS) reached') });

    current().clock.advance(24 * 60 * 60 * 1000);
    await submit({ ...acmeRequest, email: 'third@acme-plumbing.example', website_url: `${site.origin}/` });
    await settled(wiring);
    expect(fake('chatgpt')?.requests).toHaveLength(7);
  });

  it('one client address gets as many probes in 24 hours as a fifth of PROBE_DAILY_CALLS pays for: past it the request is stored and mailed, its probe not run, the agency told why, the prospect a plain line', async () => {
    const site = await acme();
    // 15 calls a day, 3 questions to 1 assistant a probe: a fifth of the day pays for one probe.
    const wiring = await wired({ chatgpt: always(namedFirst) }, { env: { PROBE_DAILY_CALLS: '15', TRUST_PROXY: '1' }, probesPerAddressPerDay: null });
    await submitFrom('203.0.113.7', { ...acmeRequest, website_url: `${site.origin}/` });
    await settled(wiring);
    // A script's second request, with another e-mail address, from the same client address.
    const second = await submitFrom('203.0.113.7', { ...acmeRequest, email: 'second@acme-plumbing.example', website_url: `${site.origin}/` });
    await settled(wiring);
    expect(fake('chatgpt')?.requests).toHaveLength(3);
    const reason = "one address may have 1 probe in 24 hours (a fifth of PROBE_DAILY_CALLS), and this request's address had had it";
    expect(current().db.prepare('SELECT audit_id, status, reason FROM visibility_probes ORDER BY id').all()).toEqual([
      { audit_id: 1, status: 'done', reason: null },
      { audit_id: 2, status: 'skipped', reason },
    ]);
    // The second request is stored and its site checked; its notification, which waited for the
    // check's findings, says why there is no probe, and no probe mail follows.
    expect(countRows(current().db, 'audit_submissions')).toBe(2);
    const notification = mails().find((mail) => mail.includes('Audit request #2'));
    expect(notification).toContain(`AI visibility of 127.0.0.1: not probed, ${reason}`);
    expect(notification).toMatch(/AI-readiness of .+: \d+\/100/);
    expect(notification).not.toContain('asking the assistants now');
    expect(mails().filter((mail) => /Subject: AI visibility probe for audit request #2/.test(mail))).toEqual([]);
    // The prospect reads why in their own terms, and that the team will ask by hand.
    expect((await statusOf(second)).probe).toEqual({ status: 'skipped', keyword: 'emergency plumber Leeds', reason: 'we asked them about another request from your connection in the last 24 hours' });
    const page = parse((await request(current().app).get(second)).text).querySelector('[aria-labelledby="probe-title"]')?.text.replace(/\s+/g, ' ');
    expect(page).toContain("We couldn't ask the AI assistants this time: we asked them about another request from your connection in the last 24 hours. Our team will put your questions to them by hand for your full audit.");

    // Another address has its own share; the first has its own again a day later.
    await submitFrom('198.51.100.4', { ...acmeRequest, email: 'other@acme-plumbing.example', website_url: `${site.origin}/` });
    await settled(wiring);
    expect(fake('chatgpt')?.requests).toHaveLength(6);
    current().clock.advance(24 * 60 * 60 * 1000);
    await submitFrom('203.0.113.7', { ...acmeRequest, email: 'next-day@acme-plumbing.example', website_url: `${site.origin}/` });
    await settled(wiring);
    expect(current().db.prepare('SELECT status FROM visibility_probes ORDER BY id').pluck().all()).toEqual(['done', 'skipped', 'done', 'done']);
  });

  it('a request without a website costs its address none of its share: the probe has nothing to look for, and asks nothing', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) }, { env: { PROBE_DAILY_CALLS: '15', TRUST_PROXY: '1' }, probesPerAddressPerDay: null });
    await submitFrom('203.0.113.7', { ...acmeRequest, website_url: '' });
    await settled(wiring);
    await submitFrom('203.0.113.7', { ...acmeRequest, email: 'second@acme-plumbing.example', website_url: `${site.origin}/` });
    await settled(wiring);
    expect(current().db.prepare('SELECT status, reason FROM visibility_probes ORDER BY id').all()).toEqual([
      { status: 'skipped', reason: 'no brand or website to look for in the answers' },
      { status: 'done', reason: null },
    ]);
    expect(fake('chatgpt')?.requests).toHaveLength(3);
  });

  it('with no key set nothing is asked: the agency\'s mail says the probe is not configured, and the prospect sees no probe', async () => {
    const site = await acme();
    const wiring = await wired({});
    const thankYou = await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await settled(wiring);
    expect(countRows(current().db, 'visibility_probes')).toBe(0);
    expect(mails()).toHaveLength(1);
    expect(mails()[0]).toContain('AI visibility probe: not configured');
    expect((await statusOf(thankYou)).probe).toBeNull();
  });

  it('a held submission is never probed, and its link answers as a probe still running does', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) });
    const held = await postForm(current(), '/free-audit', { ...acmeRequest, website_url: `${site.origin}/` }, { hidden: { [HONEYPOT_FIELD]: 'http://spam.example' } });
    await settled(wiring);
    expect(countRows(current().db, 'quarantine')).toBe(1);
    expect(countRows(current().db, 'visibility_probes')).toBe(0);
    expect(fake('chatgpt')?.requests).toHaveLength(0);
    expect((await statusOf(String(held.response.headers.location))).probe).toEqual({ status: 'pending', keyword: 'emergency plumber Leeds' });
  });

  it('a probe cut short by a stop runs again at the next start, and one interrupted 3 times is given up with a reason, which the agency is told', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) });
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await wiring.checks.idle();
    await wiring.probes.stop();
    // As a process stopped in the middle of the probe leaves it.
    current().db.prepare(`UPDATE visibility_probes SET status = 'running', attempts = 1`).run();
    wiring.probes.start();
    await settled(wiring);
    expect(current().db.prepare('SELECT status, attempts FROM visibility_probes').get()).toEqual({ status: 'done', attempts: 2 });

    current().db.prepare(`UPDATE visibility_probes SET status = 'running', attempts = 3, report = NULL`).run();
    wiring.probes.start();
    await wiring.probes.idle();
    expect(current().db.prepare('SELECT status, reason FROM visibility_probes').get()).toEqual({ status: 'failed', reason: 'the probe was interrupted 3 times, so it was given up' });
    await wiring.mail.idle();
    expect(mails().at(-1)).toMatch(/Subject: AI visibility probe for audit request #1: AI visibility failed/);
    expect(mails().at(-1)).toContain('AI visibility of Acme Plumbing Ltd (127.0.0.1): no result, the probe was interrupted 3 times, so it was given up; ask the assistants by hand');
  });

  it('a result the database refuses (ops hold it as the last answer comes) is recorded once they let go, with no assistant asked again', async () => {
    const site = await acme();
    let ops: Database.Database | undefined;
    const wiring = await wired({
      chatgpt: (_request, index) => {
        // The last of the three questions: ops take the database before its answer is back.
        if (index === 2) {
          ops = new Database(current().config.databasePath);
          ops.exec('BEGIN EXCLUSIVE');
        }
        return { answer: namedFirst };
      },
    });
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await wiring.checks.idle();
    await waitFor('the last question to be asked', () => ops !== undefined, 20_000);
    await wiring.probes.idle();
    expect(current().db.prepare('SELECT status FROM visibility_probes').get()).toEqual({ status: 'running' });

    ops!.exec('COMMIT');
    ops!.close();
    await waitFor('the probe to be recorded', () => (current().db.prepare('SELECT status FROM visibility_probes').get() as { status: string }).status === 'done', 20_000);
    await settled(wiring);
    expect(fake('chatgpt')!.requests).toHaveLength(3);
    expect(mails().some((mail) => /Subject: AI visibility probe for audit request #1/.test(mail))).toBe(true);
  });

  it('a call the database refuses to count (ops take it part way) is not made: the answers already paid for are kept, recorded once they let go', async () => {
    const site = await acme();
    let ops: Database.Database | undefined;
    let received = 0;
    // Two assistants, three questions: four calls are counted and go at once; ops take the
    // database as the first reaches its assistant, so the next calls meet their lock when counted.
    const script: Script = () => {
      received += 1;
      if (received === 1) {
        ops = new Database(current().config.databasePath);
        ops.exec('BEGIN EXCLUSIVE');
      }
      return { answer: namedFirst };
    };
    const wiring = await wired({ chatgpt: script, claude: script });
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await wiring.checks.idle();
    await waitFor('ops to take the database', () => ops !== undefined, 20_000);
    await wiring.probes.idle();
    expect(current().db.prepare('SELECT status FROM visibility_probes').get()).toEqual({ status: 'running' });

    ops!.exec('COMMIT');
    ops!.close();
    await waitFor('the probe to be recorded', () => (current().db.prepare('SELECT status FROM visibility_probes').get() as { status: string }).status !== 'running', 20_000);
    await settled(wiring);
    // Some calls were not made, and every call made is in the report.
    expect(received).toBeLessThan(6);
    const stored = current().db.prepare('SELECT status, reason, report FROM visibility_probes').get() as { status: string; reason: string; report: string };
    expect(stored).toMatchObject({ status: 'stopped', reason: expect.stringMatching(/^the calls could not be counted: .*database is locked$/) });
    const report = JSON.parse(stored.report) as { assistants: { answered: number }[] };
    expect(report.assistants.reduce((sum, assistant) => sum + assistant.answered, 0)).toBe(received);
    expect(mails().at(-1)).toMatch(/stopped part way: the calls could not be counted: .*database is locked/);
  });

  it('on a keyword domain, searches for the name the page gives and counts no answer that only repeats the search: the mail and the thank-you page say which name and where it was read', async () => {
    // leedsplumbers.localhost resolves to this machine: a site whose address is a search phrase,
    // titled with the search, its name only in its logo and footer.
    const site = await startSiteAt((origin) => ({
      ...wellMadeSite(origin),
      '/': html(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Leeds Plumbers | Emergency Plumber Leeds</title></head>
<body><header><a href="/"><img class="custom-logo" src="/logo.png" alt="Calder Plumbing &amp; Heating logo"></a></header><main><h1>Leeds Plumbers</h1><p>Gas Safe registered plumbers across Leeds.</p></main>
<footer><p>&copy; 2019-2026 Calder Plumbing &amp; Heating Ltd. Registered in England No. 01234567.</p></footer></body></html>`),
    }));
    sites.push(site);
    const talk: RecordedAnswer = { text: 'Leeds plumbers are busy in winter: book early. Most Leeds plumbers are Gas Safe registered, and emergency plumbers in Leeds charge more at night.', sources: [] };
    const calder: RecordedAnswer = { text: '1. **Pipe Pros Leeds** – fixed prices.\n2. **Calder Plumbing & Heating** – Gas Safe, 24 hours.', sources: [] };
    const wiring = await wired({ chatgpt: (received) => ({ answer: received.question?.includes('boiler') ? calder : talk }) });
    const website = `${site.origin.replace('127.0.0.1', 'leedsplumbers.localhost')}/`;
    const thankYou = await submit({ ...acmeRequest, website_url: website, target_keywords: 'leeds plumbers, emergency plumber leeds', current_products: 'boiler servicing' });
    await settled(wiring);

    // The keywords the domain spells are asked, not dropped as naming the business.
    const questions = fake('chatgpt')?.requests.map((received) => received.question ?? '') ?? [];
    expect(questions).toHaveLength(3);
    expect(questions.some((question) => question.includes('leeds plumbers'))).toBe(true);
    const aboutBoilers = questions.filter((question) => question.includes('boiler')).length;
    expect(aboutBoilers).toBeGreaterThan(0);
    expect(aboutBoilers).toBeLessThan(3);
    const results = mails().find((mail) => mail.includes('Subject: AI visibility probe')) ?? '';
    expect(results).toContain(`Looked for: "Calder Plumbing & Heating" (from the logo's text and the footer's copyright line) and ${new URL(website).hostname}`);
    expect(results).toMatch(new RegExp(`ChatGPT \\([^)]+\\): named in ${aboutBoilers} of 3 answers`));
    expect((await statusOf(thankYou)).probe).toMatchObject({
      status: 'done',
      searchedFor: { name: 'Calder Plumbing & Heating', from: "from the logo's text and the footer's copyright line", site: 'leedsplumbers.localhost' },
      assistants: [{ name: 'ChatGPT', answered: 3, named: aboutBoilers }],
    });
    const page = parse((await request(current().app).get(thankYou)).text);
    expect(page.querySelector('[aria-labelledby="probe-title"]')?.text.replace(/\s+/g, ' ')).toContain(
      "We looked for “Calder Plumbing & Heating” (from the logo's text and the footer's copyright line) and leedsplumbers.localhost in their answers.",
    );
    expect(page.querySelector('[aria-labelledby="site-check-title"]')?.text.replace(/\s+/g, ' ')).toContain(
      "The name AI assistants would look for: “Calder Plumbing & Heating”, from the logo's text and the footer's copyright line.",
    );
  });

  it('a probe left with no question, since every word of the request names the business, asks nothing and says why: to the agency, and on the thank-you page', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) });
    const thankYou = await submit({
      ...acmeRequest,
      website_url: `${site.origin}/`,
      target_keywords: 'Acme Plumbing reviews, acme plumbing ltd leeds',
      current_products: 'Acme Plumbing boiler cover',
      ideal_customer: 'Customers of Acme Plumbing',
      business_description: 'Acme Plumbing Ltd.',
    });
    await settled(wiring);
    expect(fake('chatgpt')?.requests).toHaveLength(0);
    const reason = 'nothing to ask: every keyword, product and customer the request gives names the business itself ("Acme Plumbing reviews", "acme plumbing ltd leeds", "Customers of Acme Plumbing", "Acme Plumbing boiler cover", "Acme Plumbing Ltd."), and a question that names it cannot show whether an assistant would';
    expect(current().db.prepare('SELECT status, reason FROM visibility_probes').get()).toEqual({ status: 'skipped', reason });
    const notification = mails().find((mail) => /Subject: AI visibility probe for audit request #1/.test(mail)) ?? mails().join('\n');
    expect(notification).toContain(`AI visibility of 127.0.0.1: not probed, ${reason}`);
    // The name the site gives is made of the request's own keywords: not searched for, and said so.
    expect(notification).toContain(
      'Looked for: 127.0.0.1 only, by its web address: the name its site gives, "Acme Plumbing Ltd", is made of the request\'s own keywords, and a search of theirs would count as naming it; if it is the name, correct it with --brand',
    );
    expect((await statusOf(thankYou)).probe).toEqual({
      status: 'skipped',
      keyword: 'Acme Plumbing reviews',
      reason: 'every keyword and product you gave names your business itself, and we ask as a buyer would, without your name',
    });
    const page = parse((await request(current().app).get(thankYou)).text).querySelector('[aria-labelledby="probe-title"]')?.text.replace(/\s+/g, ' ');
    expect(page).toContain("We couldn't ask the AI assistants this time: every keyword and product you gave names your business itself, and we ask as a buyer would, without your name.");
  });

  it('is listed by npm run export:csv with its score and summary, and npm run erase removes it with the person', async () => {
    const site = await acme();
    const wiring = await wired({ chatgpt: always(namedFirst) });
    await submit({ ...acmeRequest, website_url: `${site.origin}/` });
    await settled(wiring);
    const env = { DATABASE_PATH: current().config.databasePath };
    const csv = runOps('export-csv', ['--no-bom'], env);
    expect(csv.status).toBe(0);
    const rows = parseCsv(csv.stdout);
    const column = (name: string) => rows[1]?.[rows[0]?.indexOf(name) ?? -1];
    expect(column('probe_score')).toMatch(/^\d+$/);
    expect(column('probe_summary')).toMatch(/^\d+\/100; named by ChatGPT 3\/3$/);

    const erased = runOps('erase', ['--email', acmeRequest.email], env);
    expect(erased.status).toBe(0);
    expect(erased.stdout).toContain('visibility probes: 1');
    expect(countRows(current().db, 'visibility_probes')).toBe(0);
  });
});
