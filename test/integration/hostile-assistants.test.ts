import { readFileSync } from 'node:fs';
import path from 'node:path';
import { probeDelivery } from '../../server/leads/probe-delivery';
import { LeadStore } from '../../server/leads/lead-store';
import { createLogger } from '../../server/logger';
import { SiteCheckStore } from '../../server/site-check/check-store';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { createProber, PROBE_STUCK, PROBE_TOO_LARGE, type ProberOptions } from '../../server/visibility-probe/prober';
import { ProbeWorker } from '../../server/visibility-probe/probe-worker';
import { namedFirst } from '../fixtures/visibility-probe-answers';
import { backgroundProcesses } from '../helpers/background-processes';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant, type Reply } from '../helpers/fake-assistants';
import { openForm, validAudit } from '../helpers/forms';
import { hostileAnswers } from '../helpers/hostile-assistants';
import { waitFor } from '../helpers/process-forms';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT } from '../helpers/locations';

/**
 * An assistant's API that means harm (or a *_BASE_URL pointed at the wrong place) cannot slow the
 * site or take its memory: each probe runs in a process of its own, where the client libraries
 * parse the answers; it is ended when it goes silent or past its heap, and a stop ends it too.
 * What it costs the pages meanwhile is measured by `npm run bench -- --answers-only`.
 */
jest.setTimeout(120_000);

const logger = createLogger(process.env.TEST_LOG ? 'debug' : 'silent');
const BACKGROUND_PROCESSES = path.join(ROOT, 'test', 'fixtures', 'background-processes');

const fakes: FakeAssistant[] = [];
let app: TestApp | undefined;
afterEach(async () => {
  app?.close();
  app = undefined;
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function assistants(reply: (id: AssistantId, index: number) => Reply, ids: readonly AssistantId[] = ASSISTANT_IDS): Promise<FakeAssistant[]> {
  const started = await Promise.all(ids.map((id) => startFakeAssistant(id, FAKE_KEYS[id], (_request, index) => reply(id, index))));
  fakes.push(...started);
  return started;
}

/** The app over a fresh database, the fakes configured, and one audit request whose site check has ended: its probe is next. */
async function appWithQueuedProbe(): Promise<TestApp> {
  app = createTestApp({ env: { ...fakeEnvironment(fakes), PROBE_PROMPTS: '3' } });
  const { agent, hidden } = await openForm(app.app, '/free-audit');
  await agent.post('/free-audit').type('form').send({ ...validAudit, ...hidden }).expect(303);
  app.db.prepare(`UPDATE site_checks SET status = 'failed', reason = 'not read in this test'`).run();
  return app;
}

function worker(testApp: TestApp, options: Partial<ProberOptions> = {}): ProbeWorker {
  return new ProbeWorker({
    db: testApp.db,
    logger,
    clock: testApp.clock,
    prober: createProber({ assistants: testApp.config.probe.assistants, promptsPerAssistant: testApp.config.probe.promptsPerAssistant, clock: testApp.clock, priority: 'normal', ...options }),
    dailyCalls: testApp.config.probe.dailyCalls,
    deliver: probeDelivery(new LeadStore(testApp.db), new SiteCheckStore(testApp.db), testApp.config, testApp.clock),
  });
}

const probeRow = () => app?.db.prepare('SELECT status, reason FROM visibility_probes').get();
/** The text of every mail the agency is sent, queued or gone. */
const agencyMail = () => (app?.db.prepare<[], string>('SELECT message FROM mail_outbox').pluck().all() ?? []).map((message) => (JSON.parse(message) as { text: string }).text).join('\n');

/** The probe processes this test process has started and that still run. */
const probeProcesses = () => backgroundProcesses(process.pid, 'probe-process.js');

describe('each probe runs in a process of its own', () => {
  it('a process that goes silent is ended, and its probe fails with a plain reason, which the agency is told', async () => {
    await assistants(() => ({ answer: namedFirst }), ['chatgpt']);
    const testApp = await appWithQueuedProbe();
    const probes = worker(testApp, { probeFile: path.join(BACKGROUND_PROCESSES, 'busy-for-ever.js'), silenceLimitMs: 1000 });
    probes.start();
    await probes.idle();
    expect(probeRow()).toEqual({ status: 'failed', reason: PROBE_STUCK });
    expect(PROBE_STUCK).toBe('the probe stopped answering, so it was ended');
    expect(agencyMail()).toContain('AI visibility of shahpayroll.example: no result, the probe stopped answering, so it was ended; ask the assistants by hand');
    expect(probeProcesses()).toEqual([]);
  });

  it('a process that takes more memory than a probe may is ended at its heap limit, and its probe fails with a plain reason, which the agency is told', async () => {
    await assistants(() => ({ answer: namedFirst }), ['chatgpt']);
    const testApp = await appWithQueuedProbe();
    // A silence it would reach if nothing else ended it: the heap limit must come first.
    const probes = worker(testApp, { probeFile: path.join(BACKGROUND_PROCESSES, 'memory-without-end.js'), silenceLimitMs: 60_000 });
    probes.start();
    await probes.idle();
    expect(probeRow()).toEqual({ status: 'failed', reason: PROBE_TOO_LARGE });
    expect(agencyMail()).toContain(`no result, ${PROBE_TOO_LARGE}; ask the assistants by hand`);
    expect(PROBE_TOO_LARGE).toBe("the assistants' answers took more memory to read than a probe may use");
  });

  it('a stop that does not wait ends the process (the call under way is dropped), and the probe runs again at the next start; no key is in the process\'s command line or environment', async () => {
    // Nothing is answered until the stop; after it, everything is.
    let answering = false;
    const [chatgpt] = await assistants(() => (answering ? { answer: namedFirst } : { hang: true }), ['chatgpt']);
    const testApp = await appWithQueuedProbe();
    const first = worker(testApp);
    first.start();
    await waitFor('a question to be asked', () => chatgpt!.requests.length > 0, 20_000);
    const [pid] = probeProcesses();
    expect(pid).toBeDefined();
    // What `ps` and /proc show of it to anyone on the machine.
    for (const file of ['cmdline', 'environ']) expect(readFileSync(`/proc/${pid}/${file}`, 'latin1')).not.toContain(FAKE_KEYS.chatgpt);

    expect(await first.stop(0)).toBe(false);
    await waitFor('the calls under way to be dropped', () => chatgpt!.requests.every((received) => received.closed), 20_000);
    answering = true;
    expect(probeProcesses()).toEqual([]);
    expect(probeRow()).toEqual({ status: 'running', reason: null });

    const next = worker(testApp);
    next.start();
    await next.idle();
    expect(probeRow()).toEqual({ status: 'done', reason: null });
  });
});

describe('answers that cost the most to read', () => {
  it.each(Object.keys(hostileAnswers))('%s, from all four assistants at once, to every question: every answer is read or refused, within the probe\'s heap', async (kind) => {
    await assistants((id) => hostileAnswers[kind]!(id));
    const settings = createTestApp({ env: fakeEnvironment(fakes) });
    app = settings;
    const prober = createProber({ assistants: settings.config.probe.assistants, promptsPerAssistant: 50, clock: settings.clock, priority: 'normal' });
    let calls = 0;
    const report = await prober.probe(
      {
        business: { targetKeywords: validAudit.target_keywords, idealCustomer: validAudit.ideal_customer, businessDescription: validAudit.business_description, currentProducts: validAudit.current_products },
        name: { name: 'Shah Payroll', signs: ['given'], title: null },
        website: validAudit.website_url,
        personal: [],
      },
      { allowCall: () => (calls += 1) > 0 },
    );
    expect(report.status).toBe('done');
    const answers = report.assistants.flatMap((assistant) => assistant.answers);
    expect(report.prompts.length).toBeGreaterThanOrEqual(10);
    expect(answers).toHaveLength(4 * report.prompts.length);
    // Every call was counted before it was made: one tried again after a dropped connection is counted again.
    expect(calls).toBeGreaterThanOrEqual(Math.max(answers.length, fakes.reduce((sum, fake) => sum + fake.requests.length, 0)));
    const errors = new Set(answers.map((answer) => answer.error));
    // An answer at the cap is read whole; one past it is refused, and says so.
    expect(errors).toEqual(new Set([kind === 'an answer without end' ? 'an answer larger than 2 MB, not read' : null]));
    for (const answer of answers) {
      expect(answer.text?.length ?? 0).toBeLessThanOrEqual(8_000);
      expect(answer.sources.length).toBeLessThanOrEqual(20);
      expect(answer.others.length).toBeLessThanOrEqual(50);
    }
  });
});
