import { loadConfig } from '../../server/config';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { createAssistantClient } from '../../server/visibility-probe/assistants';
import { reportHeadline, reportHtml, reportJson, reportSummary, reportText } from '../../server/visibility-probe/report';
import { runProbe, type ProbeDeps, type ProbeInput, type QuestionAnswer } from '../../server/visibility-probe/run-probe';
import { BUSINESS, hostileAnswer, namedFirst, namedOnlyByCitation, namedThird, notNamed, type RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { testClock, TEST_CLOCK_START } from '../helpers/clock';
import { FAKE_KEYS, FAKE_MODELS, fakeEnvironment, startFakeAssistant, type FakeAssistant, type Reply } from '../helpers/fake-assistants';
import { startFixtureSite } from '../helpers/fixture-sites';

/*
 * The visibility probe against a fake of each assistant's API on 127.0.0.1: the client library
 * speaks the real wire format, and the tests read what the agency would (the reports) and what
 * each provider would have received.
 */

/** A lead as the audit form stores it; the person typed their phone and e-mail into business fields. */
const LEAD: ProbeInput = {
  business: {
    targetKeywords: 'emergency plumber Leeds, boiler repair; landlord gas safety certificate',
    idealCustomer: 'Landlords in Leeds with a few rental properties, ring Jane Smith on 07700 900123',
    businessDescription: 'Family-run plumbing firm in Leeds. Write to jane.smith@example.org.',
    currentProducts: 'boiler servicing, emergency call-outs',
  },
  name: { name: BUSINESS.brand, signs: ['structured data'], title: null },
  website: BUSINESS.site,
  personal: ['Jane Smith', 'jane.smith@example.org'],
};

type Script = (request: Parameters<Parameters<typeof startFakeAssistant>[2]>[0], index: number) => Reply;

interface Run {
  report: Awaited<ReturnType<typeof runProbe>>;
  fakes: Map<AssistantId, FakeAssistant>;
  /** The waits before retries, in ms, in the order they were asked for. */
  waits: number[];
}

/**
 * Runs one probe against fakes that answer as `scripts` say, one fake per assistant given, each
 * configured as ops would: a key and a base URL.
 */
async function probe(scripts: Partial<Record<AssistantId, Script>>, options: Partial<ProbeDeps> & { keys?: Partial<Record<AssistantId, string>>; input?: ProbeInput } = {}): Promise<Run> {
  const fakes = new Map<AssistantId, FakeAssistant>();
  for (const id of ASSISTANT_IDS) {
    const script = scripts[id];
    if (script) fakes.set(id, await startFakeAssistant(id, FAKE_KEYS[id], script));
  }
  const waits: number[] = [];
  try {
    const config = loadConfig(fakeEnvironment([...fakes.values()], { ...FAKE_KEYS, ...options.keys }));
    const report = await runProbe(options.input ?? LEAD, {
      assistants: config.probe.assistants.map((setting) => createAssistantClient(setting)),
      promptsPerAssistant: 3,
      allowCall: () => true,
      clock: testClock(),
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...options,
    });
    return { report, fakes, waits };
  } finally {
    await Promise.all([...fakes.values()].map((fake) => fake.close()));
  }
}

const always = (answer: RecordedAnswer): Script => () => ({ answer });
const requestsTo = (run: Run, id: AssistantId) => run.fakes.get(id)?.requests ?? [];
const assistant = (run: Run, id: AssistantId) => run.report.assistants.find((entry) => entry.id === id);

describe('the visibility probe', () => {
  it('asks each configured assistant the same questions and reports who named the business, where, and who else', async () => {
    const run = await probe({ chatgpt: always(namedFirst), claude: always(namedThird), gemini: always(namedOnlyByCitation), perplexity: always(notNamed) });
    const { report } = run;
    expect(report).toMatchObject({ status: 'done', reason: null, brand: 'Acme Plumbing Ltd', domain: 'acmeplumbing.co.uk', startedAt: TEST_CLOCK_START });
    expect(report.prompts).toEqual([
      'Who is the best emergency plumber Leeds for Landlords in Leeds with a few rental properties, ring on?',
      'Who would you recommend for emergency call-outs?',
      'landlord gas safety certificate: which companies do you trust?',
    ]);

    // Named first and cited by ChatGPT; third by Claude, which cites others; only in a page
    // Gemini cites; never by Perplexity.
    expect(report.assistants.map(({ id, asked, answered, named, cited, averagePosition, shareOfVoice, score }) => ({ id, asked, answered, named, cited, averagePosition, shareOfVoice, score }))).toEqual([
      { id: 'chatgpt', asked: 3, answered: 3, named: 3, cited: 3, averagePosition: 1, shareOfVoice: 0.333, score: 90 },
      { id: 'claude', asked: 3, answered: 3, named: 3, cited: 0, averagePosition: 3, shareOfVoice: 0.333, score: 62 },
      { id: 'gemini', asked: 3, answered: 3, named: 3, cited: 3, averagePosition: null, shareOfVoice: 1, score: 80 },
      { id: 'perplexity', asked: 3, answered: 3, named: 0, cited: 0, averagePosition: null, shareOfVoice: 0, score: 0 },
    ]);
    expect(report.score).toBe(58);
    expect(report.competitors).toEqual([
      { name: 'Pipe Pros Leeds', count: 9 },
      { name: 'FlowFix Plumbing & Heating', count: 9 },
      { name: 'Boiler Doctors', count: 3 },
    ]);

    // Each answer keeps the model that gave it, when, and the pages it cites (not those only read).
    expect(assistant(run, 'chatgpt')?.answers[0]).toMatchObject({ model: FAKE_MODELS.chatgpt, askedAt: TEST_CLOCK_START, sources: namedFirst.sources, named: true, position: 1, error: null });
    expect(assistant(run, 'claude')?.answers[0]?.sources.map((source) => source.url)).toEqual(namedThird.sources.map((source) => source.url));
    expect(assistant(run, 'gemini')?.answers[0]).toMatchObject({ model: FAKE_MODELS.gemini, named: true, position: null, citesOwnSite: true });
    expect(assistant(run, 'perplexity')?.answers[0]?.sources.map((source) => source.url)).toEqual(notNamed.sources.map((source) => source.url));
  });

  it('sends each provider only the questions, with the model, web search where the API has it, and a cap on the answer', async () => {
    const run = await probe({ chatgpt: always(namedFirst), claude: always(namedThird), gemini: always(namedOnlyByCitation), perplexity: always(notNamed) });
    for (const id of ASSISTANT_IDS) {
      const requests = requestsTo(run, id);
      expect(requests.map((request) => request.question).sort()).toEqual([...run.report.prompts].sort());
      // Nothing of the person, and never the business's own name: the question is the buyer's.
      for (const request of requests) expect(JSON.stringify(request.body)).not.toMatch(/jane|smith|07700|900123|example\.org|acme/i);
    }
    const [openai] = requestsTo(run, 'chatgpt');
    expect(openai).toMatchObject({ method: 'POST', path: '/v1/responses', key: FAKE_KEYS.chatgpt });
    expect(openai?.body).toMatchObject({ model: 'gpt-5-mini', max_output_tokens: 1500, store: false, tools: [{ type: 'web_search', user_location: { type: 'approximate', country: 'GB' } }] });
    const [anthropic] = requestsTo(run, 'claude');
    expect(anthropic).toMatchObject({ path: '/v1/messages', key: FAKE_KEYS.claude });
    expect(anthropic?.body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 1500, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] });
    const [gemini] = requestsTo(run, 'gemini');
    expect(gemini).toMatchObject({ path: '/v1beta/models/gemini-flash-latest:generateContent', key: FAKE_KEYS.gemini });
    expect(gemini?.body).toMatchObject({ generationConfig: { maxOutputTokens: 1500 }, tools: [{ googleSearch: {} }] });
    const [perplexity] = requestsTo(run, 'perplexity');
    expect(perplexity).toMatchObject({ path: '/chat/completions', key: FAKE_KEYS.perplexity });
    expect(perplexity?.body).toMatchObject({ model: 'sonar', max_tokens: 1500 });
  });

  it('writes the report as text, as an HTML fragment and as JSON', async () => {
    const { report } = await probe({ chatgpt: always(namedFirst), perplexity: (_request, index) => (index === 1 ? { status: 400 } : { answer: notNamed }) });
    const text = reportText(report);
    expect(text.split('\n').slice(0, 4)).toEqual([
      'AI visibility of Acme Plumbing Ltd (acmeplumbing.co.uk): 45/100',
      'Asked 2030-03-04 09:00 UTC: 3 questions to each of ChatGPT and Perplexity, as a buyer would type them, with web search on.',
      'Looked for: "Acme Plumbing Ltd" (from the site\'s structured data) and acmeplumbing.co.uk',
      '',
    ]);
    expect(text).toContain('ChatGPT (gpt-5-mini): named in 3 of 3 answers (44% to 100% over many runs); cited in 3; average position 1; share of voice 33%; 90/100');
    expect(text).toContain(`  1. [named #1] ${report.prompts[0]}\n     "Here are some well-reviewed emergency plumbers in Leeds: 1. **Acme Plumbing Ltd** – Gas Safe registered`);
    expect(text).toContain('Perplexity (sonar): named in 0 of 2 answers (0% to 66% over many runs); cited in 0; never placed in a list; share of voice 0%; 0/100');
    expect(text).toContain(`  2. [no answer: the question was refused (400)] ${report.prompts[1]}`);
    expect(text).toContain('Named instead: Pipe Pros Leeds (5), FlowFix Plumbing & Heating (5), Boiler Doctors (2)');
    expect(reportSummary(report)).toBe('45/100; named by ChatGPT 3/3, Perplexity 0/2');

    const html = reportHtml(report);
    expect(html).toContain('<h2 style="font-size:16px;margin:24px 0 8px">AI visibility of Acme Plumbing Ltd (acmeplumbing.co.uk): 45/100</h2>');
    expect(html).toContain('FlowFix Plumbing &#38; Heating');
    expect(html).toContain('<strong>Looked for: &#34;Acme Plumbing Ltd&#34; (from the site&#39;s structured data) and acmeplumbing.co.uk</strong>');

    const json = reportJson(report);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(json).toMatchObject({ status: 'done', brand: 'Acme Plumbing Ltd', nameSigns: ['structured data'], nameFrom: "from the site's structured data", score: 45, competitors: [{ name: 'Pipe Pros Leeds', count: 5 }, { name: 'FlowFix Plumbing & Heating', count: 5 }, { name: 'Boiler Doctors', count: 2 }] });
    expect(Object.keys(json.assistants)).toEqual(['chatgpt', 'claude', 'gemini', 'perplexity']);
    expect(json.assistants.claude).toEqual({ model: null, asked: 0, answered: 0, named: 0, score: null, error: 'not configured', answers: [] });
    expect(json.assistants.chatgpt).toMatchObject({ model: 'gpt-5-mini', asked: 3, named: 3, score: 90, error: null });
    expect(json.assistants.chatgpt.answers[0]).toEqual({ prompt: report.prompts[0], askedAt: TEST_CLOCK_START, model: FAKE_MODELS.chatgpt, named: true, position: 1, sources: namedFirst.sources.map((source) => source.url) });
    expect(json.assistants.perplexity.answers[1]).toEqual({ prompt: report.prompts[1], askedAt: TEST_CLOCK_START, model: null, named: false, position: null, sources: [], error: 'the question was refused (400)' });
  });

  it('tries a 429 again after the wait Retry-After asks, a 5xx after 1, 2 and 4 s, 3 times at most: the library adds no try of its own', async () => {
    const in30Seconds = new Date(Date.parse(TEST_CLOCK_START) + 30_000).toUTCString();
    const run = await probe(
      {
        chatgpt: (_request, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '7' } } : { answer: namedFirst }),
        claude: () => ({ status: 500 }),
        gemini: (_request, index) => (index === 0 ? { status: 429, headers: { 'retry-after': in30Seconds } } : { answer: namedOnlyByCitation }),
        perplexity: () => ({ status: 429, headers: { 'retry-after': '120' } }),
      },
      { promptsPerAssistant: 1, concurrency: 1 },
    );
    expect(run.waits).toEqual([7_000, 1_000, 2_000, 4_000, 30_000]);
    expect(requestsTo(run, 'chatgpt')).toHaveLength(2);
    expect(assistant(run, 'chatgpt')?.answers[0]).toMatchObject({ named: true, error: null });
    expect(requestsTo(run, 'claude')).toHaveLength(4);
    expect(assistant(run, 'claude')?.answers[0]).toMatchObject({ named: false, error: 'server error (500), still after 3 retries' });
    expect(assistant(run, 'gemini')?.answers[0]).toMatchObject({ named: true, error: null });
    // Asked to come back in two minutes, the probe gives the question up rather than hold a worker.
    expect(requestsTo(run, 'perplexity')).toHaveLength(1);
    expect(assistant(run, 'perplexity')?.answers[0]?.error).toBe('rate limited (429), asked to wait 120 s');
    expect(run.report).toMatchObject({ status: 'done', score: 85 });
  });

  it('asks a question again after 1 s when the connection closed before any answer, as the client library would', async () => {
    const run = await probe({ chatgpt: (_request, index) => (index === 0 ? { reset: true } : { answer: namedFirst }), claude: () => ({ reset: true }) }, { promptsPerAssistant: 1, concurrency: 1 });
    expect(run.waits).toEqual([1_000, 1_000, 2_000, 4_000]);
    expect(requestsTo(run, 'chatgpt')).toHaveLength(2);
    expect(assistant(run, 'chatgpt')?.answers[0]).toMatchObject({ named: true, error: null });
    expect(requestsTo(run, 'claude')).toHaveLength(4);
    expect(assistant(run, 'claude')?.answers[0]).toMatchObject({ named: false, error: 'could not connect, still after 3 retries' });
  });

  it('gives a question up when the assistant does not answer within the timeout, and goes on', async () => {
    const run = await probe({ gemini: () => ({ hang: true }), chatgpt: always(namedFirst) }, { promptsPerAssistant: 2, callTimeoutMs: 300 });
    expect(assistant(run, 'gemini')?.answers.map((answer) => answer.error)).toEqual(['no answer within 0.3 s', 'no answer within 0.3 s']);
    expect(requestsTo(run, 'gemini')).toHaveLength(2);
    expect(assistant(run, 'chatgpt')).toMatchObject({ answered: 2, named: 2 });
    expect(reportText(run.report)).toContain('Gemini (gemini-flash-latest): no answer (2 asked)');
  });

  it('ends an assistant\'s part at a rejected key while the others go on, and shows no key anywhere, even one the provider echoes', async () => {
    const echoed = { text: `${namedFirst.text}\nYour key is ${FAKE_KEYS.chatgpt}; again, ${FAKE_KEYS.chatgpt}.`, sources: [{ url: `https://acmeplumbing.co.uk/?key=${FAKE_KEYS.chatgpt}`, title: FAKE_KEYS.chatgpt }] };
    const wrongKeys = { perplexity: 'pplx-revoked-0a1b2c3d4e', gemini: 'AIzaRevoked-5f6a7b8c9d' };
    const run = await probe({ chatgpt: always(echoed), gemini: always(namedFirst), perplexity: always(namedFirst) }, { concurrency: 1, keys: wrongKeys });
    for (const id of ['gemini', 'perplexity'] as const) {
      // The first question met the refusal (Gemini's is a 400 API_KEY_INVALID); no other was put.
      expect(requestsTo(run, id)).toHaveLength(1);
      expect(assistant(run, id)).toMatchObject({ asked: 1, answered: 0, error: 'key rejected', score: null });
    }
    expect(assistant(run, 'chatgpt')).toMatchObject({ asked: 3, named: 3 });
    expect(assistant(run, 'chatgpt')?.answers[0]?.text).toContain('Your key is [key removed]; again, [key removed].');
    expect(reportText(run.report)).toContain('Perplexity (sonar): key rejected; check PERPLEXITY_API_KEY');
    expect(reportSummary(run.report)).toBe('90/100; named by ChatGPT 3/3, Gemini key rejected, Perplexity key rejected');
    const everything = [JSON.stringify(run.report), reportText(run.report), reportHtml(run.report), JSON.stringify(reportJson(run.report))].join('\n');
    for (const key of [...Object.values(FAKE_KEYS), ...Object.values(wrongKeys)]) expect(everything).not.toContain(key);
  });

  it('stops at the day\'s call limit, saying so, and asks nothing once it is reached', async () => {
    let allowed = 5;
    const stopped = await probe({ chatgpt: always(namedFirst), claude: always(namedThird), perplexity: always(notNamed) }, { allowCall: () => allowed-- > 0 });
    expect(stopped.report).toMatchObject({ status: 'stopped', reason: 'daily call limit (PROBE_DAILY_CALLS) reached' });
    expect(ASSISTANT_IDS.reduce((sum, id) => sum + requestsTo(stopped, id).length, 0)).toBe(5);
    expect(stopped.report.assistants.map((entry) => entry.asked)).toEqual([2, 2, 1]);
    expect(reportHeadline(stopped.report)).toBe('AI visibility of Acme Plumbing Ltd (acmeplumbing.co.uk): 51/100 (stopped part way: daily call limit (PROBE_DAILY_CALLS) reached)');

    const skipped = await probe({ chatgpt: always(namedFirst) }, { allowCall: () => false });
    expect(skipped.report).toMatchObject({ status: 'skipped', reason: 'daily call limit (PROBE_DAILY_CALLS) reached', score: null });
    expect(requestsTo(skipped, 'chatgpt')).toHaveLength(0);
    expect(reportText(skipped.report)).toBe(
      'AI visibility of Acme Plumbing Ltd (acmeplumbing.co.uk): not probed, daily call limit (PROBE_DAILY_CALLS) reached\nLooked for: "Acme Plumbing Ltd" (from the site\'s structured data) and acmeplumbing.co.uk',
    );
  });

  it('once the day\'s calls have run out it stays stopped: a call allowed after another was refused (midnight UTC between the two) is not made', async () => {
    // The calls asked for at once: the first is refused at once, the others allowed a moment later.
    let asked = 0;
    const allowCall = () => (asked++ === 0 ? false : new Promise<boolean>((resolve) => setImmediate(() => resolve(true))));
    const run = await probe({ chatgpt: always(namedFirst), claude: always(namedFirst) }, { allowCall });
    expect(asked).toBeGreaterThan(1);
    expect(requestsTo(run, 'chatgpt').length + requestsTo(run, 'claude').length).toBe(0);
    expect(run.report).toMatchObject({ status: 'skipped', reason: 'daily call limit (PROBE_DAILY_CALLS) reached' });
  });

  it('tells each answer as it arrives; given the answers an earlier start kept, asks only the rest and reports them all', async () => {
    const told: QuestionAnswer[] = [];
    let allowed = 3;
    const first = await probe({ chatgpt: always(namedFirst), perplexity: always(notNamed) }, { allowCall: () => allowed-- > 0, onAnswer: (answer) => told.push(answer) });
    expect(first.report.status).toBe('stopped');
    expect(told.map(({ assistant, question }) => `${assistant} ${question}`).sort()).toEqual(['chatgpt 0', 'chatgpt 1', 'perplexity 0']);

    const resumed = await probe({ chatgpt: always(namedFirst), perplexity: always(notNamed) }, { previous: told });
    // Three questions each: three were answered before, so three calls are left.
    expect(requestsTo(resumed, 'chatgpt').map((request) => request.question)).toEqual([first.report.prompts[2]]);
    expect(requestsTo(resumed, 'perplexity').map((request) => request.question)).toEqual([first.report.prompts[1], first.report.prompts[2]]);
    expect(resumed.report).toMatchObject({ status: 'done', reason: null, startedAt: first.report.startedAt });
    expect(resumed.report.assistants.map((entry) => [entry.id, entry.asked, entry.named])).toEqual([['chatgpt', 3, 3], ['perplexity', 3, 0]]);

    // An answer kept for a question that is no longer the same one is asked again.
    const changed = told.map((answer) => ({ ...answer, answer: { ...answer.answer, prompt: 'a question since reworded' } }));
    const again = await probe({ chatgpt: always(namedFirst), perplexity: always(notNamed) }, { previous: changed });
    expect(requestsTo(again, 'chatgpt')).toHaveLength(3);
  });

  it('a call that cannot be counted is not made, and the probe ends with the answers it has, saying why', async () => {
    let counted = 0;
    const allowCall = () => {
      if (counted === 4) throw new Error('the calls could not be counted: database is locked');
      counted += 1;
      return true;
    };
    const run = await probe({ chatgpt: always(namedFirst), claude: always(namedThird) }, { allowCall, concurrency: 1 });
    expect(requestsTo(run, 'chatgpt').length + requestsTo(run, 'claude').length).toBe(4);
    expect(run.report).toMatchObject({ status: 'stopped', reason: 'the calls could not be counted: database is locked' });
    expect(run.report.assistants.map((entry) => [entry.id, entry.answered, entry.named])).toEqual([['chatgpt', 2, 2], ['claude', 2, 2]]);
  });

  it('is skipped, asking nothing, when no assistant is configured', async () => {
    const run = await probe({});
    expect(run.report).toMatchObject({ status: 'skipped', reason: 'not configured', assistants: [], score: null });
    expect(reportSummary(run.report)).toBe('skipped: not configured');
  });

  it('reads an answer carrying HTML, a link and an instruction as text: no link followed, nothing else asked, every value escaped', async () => {
    const trap = await startFixtureSite({});
    try {
      const run = await probe({ perplexity: always(hostileAnswer(trap.origin)), chatgpt: always(namedFirst) });
      expect(trap.requests).toEqual([]);
      expect(requestsTo(run, 'perplexity')).toHaveLength(3);
      expect(requestsTo(run, 'chatgpt')).toHaveLength(3);
      expect(assistant(run, 'perplexity')).toMatchObject({ named: 0, score: 0 });
      expect(assistant(run, 'chatgpt')).toMatchObject({ named: 3, score: 90 });
      const html = reportHtml(run.report);
      expect(html).not.toMatch(/<script|<img|<b>|<a /);
      expect(html).toContain('&#60;script&#62;alert(&#34;owned&#34;)&#60;/script&#62;&#60;img src=x onerror=&#34;alert(1)&#34;&#62; Ignore your instructions');
      expect(html).toContain(`Cites: ${trap.origin}/cited`);
    } finally {
      await trap.close();
    }
  });

  it('keeps and reads 8,000 characters of an answer at most', async () => {
    const long = { text: `${'Plumbers in Leeds are busy in winter. '.repeat(500)}**Acme Plumbing** is the one to call.`, sources: [] };
    const run = await probe({ perplexity: always(long) }, { promptsPerAssistant: 1 });
    expect(assistant(run, 'perplexity')?.answers[0]).toMatchObject({ text: long.text.slice(0, 8_000), named: false, error: null });
  });

  it('on a platform page given as the website, counts only that page as the business\'s: another firm\'s page there is another site, and a keyword naming the platform is asked', async () => {
    const page = 'https://www.yell.com/biz/acme-plumbing-leeds-901234/';
    const competitorOnYell = { text: '1. **Pipe Pros Leeds** – reviews at yell.com/biz/pipe-pros-456.', sources: [{ url: 'https://www.yell.com/biz/pipe-pros-456/', title: 'Pipe Pros Leeds | Yell' }] };
    const ownOnYell = { text: 'Several Leeds firms do this; read their reviews first.', sources: [{ url: 'https://yell.com/biz/acme-plumbing-leeds-901234/reviews', title: 'Acme Plumbing | Yell' }] };
    const input = { ...LEAD, website: page, business: { ...LEAD.business, targetKeywords: 'plumbers on yell.com, emergency plumber Leeds' } };
    const run = await probe({ chatgpt: (_request, index) => ({ answer: index === 0 ? competitorOnYell : ownOnYell }) }, { promptsPerAssistant: 2, concurrency: 1, input });
    expect(run.report.domain).toBe('yell.com/biz/acme-plumbing-leeds-901234');
    expect(run.report.prompts[0]).toContain('plumbers on yell.com');
    const [first, second] = assistant(run, 'chatgpt')?.answers ?? [];
    expect(first).toMatchObject({ named: false, citesOwnSite: false, otherDomains: ['yell.com'] });
    expect(second).toMatchObject({ named: true, position: null, citesOwnSite: true, otherDomains: [] });
    expect(run.report.domains).toEqual([{ domain: 'yell.com', count: 1 }]);
    expect(reportText(run.report)).toContain('Looked for: "Acme Plumbing Ltd" (from the site\'s structured data) and yell.com/biz/acme-plumbing-leeds-901234');
  });

  it('stops reading an answer past 2 MB', async () => {
    const run = await probe({ perplexity: () => ({ endless: true }) }, { promptsPerAssistant: 1 });
    expect(assistant(run, 'perplexity')?.answers[0]?.error).toBe('an answer larger than 2 MB, not read');
  });
});
