import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { createJudge, judgePrompt, verifiedJudgement, type JudgeInput, type JudgeReply, type RawJudgement } from '../../server/answer-check/judge';
import type { BusinessFacts, SiteFact } from '../../server/business/business-facts';
import { loadConfig, type ProbeAssistantSetting } from '../../server/config';
import { callWithRetries, type CallPolicy, type Outcome } from '../../server/visibility-probe/ask';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { testClock } from '../helpers/clock';
import { FAKE_KEYS, FAKE_MODELS, fakeEnvironment, isJudgeRequest, startFakeAssistant, type FakeAssistant, type ReceivedRequest, type Reply } from '../helpers/fake-assistants';
import { agreement, casesToJudge, judgeRecorded, readJudgeCorpus, readRecordedVerdicts } from '../helpers/judge-corpus';
import { ROOT } from '../helpers/locations';

/*
 * The answer judge against a fake of each assistant's API on 127.0.0.1: the request goes out
 * through the real client library with its JSON schema, the fake answers in the provider's own
 * shape for structured output, and the verdict comes back through the library's parsing to the
 * quote checks. What each fake received is read too.
 */

const fact = (value: string, from: SiteFact['source']['from'] = 'text'): SiteFact => ({ value, source: { page: 'home page', from } });

/** What the business's site states, as the site check reads it. */
const SITE_TEXT = [
  'Acme Plumbing & Heating Ltd',
  'Gas Safe registered plumbers in Leeds since 1998.',
  'We offer boiler servicing, boiler installation and emergency call-outs across West Yorkshire.',
  'Opening hours: Monday to Friday, 8am\u20136pm. We are closed at weekends.',
  'A boiler service costs from \u00a380, with a free quote for every installation.',
  'We do not cover Bradford or Harrogate.',
  'Call 0113 496 0000 or write to hello@acmeplumbing.co.uk.',
].join('\n');

const FACTS: BusinessFacts = {
  phones: [fact('0113 496 0000', 'link')],
  emails: [fact('hello@acmeplumbing.co.uk', 'link')],
  addresses: [fact('12 Kirkgate, Leeds LS1 6BY', 'structured data')],
  postcodes: [fact('LS1 6BY')],
  towns: [fact('Leeds', 'structured data')],
  openingHours: [fact('Mo-Fr 08:00-18:00', 'structured data')],
  services: [fact('Boiler servicing'), fact('Boiler installation'), fact('Emergency call-outs')],
  contactPage: 'https://www.acmeplumbing.co.uk/contact',
  text: SITE_TEXT,
};

/** The person who asked for the audit: never a part of what the judge is given. */
const PERSON = { name: 'Jane Smith', email: 'jane.smith@example.org' };

const ANSWERS = {
  positive: 'Acme Plumbing Ltd is a highly rated Gas Safe registered firm in Leeds. They offer emergency call-outs 24 hours a day, seven days a week. A boiler service costs about \u00a380.',
  mixed: 'Acme Plumbing Ltd covers Leeds and Bradford. Reviews praise their boiler installations, but several customers mention missed appointments.',
  negative: 'I would be careful with Acme Plumbing Ltd. Some reviews say they stopped trading in 2025, so consider another Leeds plumber.',
};

const input = (answer: string): JudgeInput => ({ name: 'Acme Plumbing Ltd', site: 'acmeplumbing.co.uk', town: 'Leeds', facts: FACTS, answer });

// A judge's input has no field for a person: the type refuses one.
// @ts-expect-error personal is not a field of JudgeInput
const refused: JudgeInput = { ...input(ANSWERS.positive), personal: [PERSON.name, PERSON.email] };
void refused;

const CALL_OUTS: RawJudgement['claims'][number] = { about: 'service', claim: 'offers emergency call-outs', verdict: 'supported', quote: 'They offer emergency call-outs 24 hours a day, seven days a week.', siteQuote: 'We offer boiler servicing, boiler installation and emergency call-outs across West Yorkshire.' };

/** The verdicts a model gave for each answer, as recorded: quotes copied word for word (a plain hyphen where the site has an en dash). */
const VERDICTS: Record<keyof typeof ANSWERS, RawJudgement> = {
  positive: {
    tone: { value: 'positive', quote: 'Acme Plumbing Ltd is a highly rated Gas Safe registered firm in Leeds.' },
    claims: [
      CALL_OUTS,
      { about: 'status', claim: 'open every day, all day', verdict: 'contradicted', quote: 'They offer emergency call-outs 24 hours a day, seven days a week.', siteQuote: 'Opening hours: Monday to Friday, 8am-6pm. We are closed at weekends.' },
      { about: 'price', claim: 'a boiler service costs about \u00a380', verdict: 'supported', quote: 'A boiler service costs about \u00a380.', siteQuote: 'A boiler service costs from \u00a380' },
    ],
  },
  mixed: {
    tone: { value: 'mixed', quote: 'Reviews praise their boiler installations, but several customers mention missed appointments.' },
    claims: [
      { about: 'place', claim: 'covers Bradford', verdict: 'contradicted', quote: 'Acme Plumbing Ltd covers Leeds and Bradford.', siteQuote: 'We do not cover Bradford or Harrogate.' },
      { about: 'service', claim: 'installs boilers', verdict: 'supported', quote: 'Reviews praise their boiler installations, but several customers mention missed appointments.', siteQuote: null },
    ],
  },
  negative: {
    tone: { value: 'negative', quote: 'I would be careful with Acme Plumbing Ltd.' },
    claims: [{ about: 'status', claim: 'stopped trading in 2025', verdict: 'not on site', quote: 'Some reviews say they stopped trading in 2025, so consider another Leeds plumber.', siteQuote: null }],
  },
};

type Script = (request: ReceivedRequest, index: number) => Reply;

/** Which of ANSWERS a judge request is about. */
function answerAsked(request: ReceivedRequest): keyof typeof ANSWERS {
  const body = JSON.stringify(request.body);
  const found = (Object.keys(ANSWERS) as (keyof typeof ANSWERS)[]).find((kind) => body.includes(JSON.stringify(ANSWERS[kind]).slice(1, -1)));
  if (!found) throw new Error('a judge request without one of the answers');
  return found;
}

/** Answers each judge request with the recorded verdict for its answer; a question gets a 400, which no test expects. */
const recorded: Script = (request) => (isJudgeRequest(request) ? { json: VERDICTS[answerAsked(request)] } : { status: 400 });

interface Judged {
  outcome: Outcome<JudgeReply>;
  fake: FakeAssistant;
  setting: ProbeAssistantSetting;
  waits: number[];
  calls: number;
}

/** One judgement by `id`'s judge, configured as ops would (its key, its base URL, JUDGE_PROVIDER), made as every call is: through callWithRetries. */
async function judged(id: AssistantId, script: Script, options: { answer?: string; env?: Record<string, string>; key?: string } = {}): Promise<Judged> {
  const fake = await startFakeAssistant(id, FAKE_KEYS[id], script);
  try {
    const setting = loadConfig({ ...fakeEnvironment([fake], { [id]: options.key ?? FAKE_KEYS[id] }), JUDGE_PROVIDER: id, ...options.env }).judge;
    if (setting === null) throw new Error('no judge configured');
    const judge = createJudge(setting);
    const waits: number[] = [];
    let calls = 0;
    const policy: CallPolicy = {
      allowCall: () => {
        calls += 1;
        return true;
      },
      clock: testClock(),
      sleep: async (ms) => {
        waits.push(ms);
      },
      timeoutMs: 10_000,
    };
    const outcome = await callWithRetries((signal) => judge.judge(input(options.answer ?? ANSWERS.positive), signal), policy);
    return { outcome, fake, setting, waits, calls };
  } finally {
    await fake.close();
  }
}

function reply(run: Judged): JudgeReply {
  if (run.outcome.kind !== 'answer') throw new Error(`no verdict: ${JSON.stringify(run.outcome)}`);
  return run.outcome.answer;
}

/** Every text of the request's messages, wherever its API puts them (system or developer, then user). */
function messageTexts(body: unknown): string[] {
  const texts: string[] = [];
  const walk = (node: unknown, key: string) => {
    if (typeof node === 'string' && (key === 'text' || key === 'content')) texts.push(node);
    else if (Array.isArray(node)) for (const item of node) walk(item, key);
    else if (node !== null && typeof node === 'object') for (const [name, value] of Object.entries(node)) walk(value, name);
  };
  for (const field of ['system', 'systemInstruction', 'input', 'messages', 'contents']) {
    const value: unknown = body !== null && typeof body === 'object' ? Reflect.get(body, field) : undefined;
    if (field === 'system' && typeof value === 'string') texts.push(value);
    else walk(value, field);
  }
  return texts;
}

/** The request without its messages: its settings and its schema. */
function withoutMessages(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object') return {};
  return Object.fromEntries(Object.entries(body).filter(([name]) => !['system', 'systemInstruction', 'input', 'messages', 'contents'].includes(name)));
}

describe('the answer judge', () => {
  it.each(ASSISTANT_IDS)('%s: a recorded verdict goes through the real client library to a verified judgement', async (id) => {
    const run = await judged(id, recorded);
    const answer = reply(run);
    expect(answer.model).toBe(FAKE_MODELS[id]);
    // The fake's own token counts, read from the provider's usage fields.
    expect(answer.usage.inputTokens).toBeGreaterThan(1_000);
    expect(answer.usage.outputTokens).toBeGreaterThan(100);
    expect(verifiedJudgement(answer, ANSWERS.positive, SITE_TEXT)).toEqual({ tone: VERDICTS.positive.tone, claims: VERDICTS.positive.claims, dropped: 0 });

    // One call, asking for the verdict's schema where the API takes one, with no tool, and the model's small default.
    expect(run.fake.requests).toHaveLength(1);
    const [request] = run.fake.requests;
    expect(request && isJudgeRequest(request)).toBe(true);
    expect(request?.key).toBe(FAKE_KEYS[id]);
    const body = request?.body;
    expect(JSON.stringify(body)).not.toContain('"tools"');
    switch (id) {
      case 'chatgpt':
        expect(request?.path).toBe('/v1/responses');
        expect(body).toMatchObject({ model: 'gpt-5-nano', store: false, max_output_tokens: 4000, text: { format: { type: 'json_schema', strict: true, name: 'judgement' } } });
        break;
      case 'claude':
        expect(request?.path).toBe('/v1/messages');
        expect(body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 4000, temperature: 0, output_config: { format: { type: 'json_schema' } } });
        break;
      case 'gemini':
        expect(request?.path).toBe('/v1beta/models/gemini-flash-lite-latest:generateContent');
        expect(body).toMatchObject({ generationConfig: { responseMimeType: 'application/json', maxOutputTokens: 4000, temperature: 0 } });
        break;
      case 'perplexity':
        expect(request?.path).toBe('/chat/completions');
        expect(body).toMatchObject({ model: 'sonar', max_tokens: 4000, disable_search: true, response_format: { type: 'json_schema' } });
        break;
    }
  });

  it('claude: a model without its own output format answers through the json tool, and the verdict is the same', async () => {
    const run = await judged('claude', recorded, { env: { JUDGE_MODEL: 'claude-sonnet-4-20250514' } });
    const body = run.fake.requests[0]?.body;
    expect(body).toMatchObject({ model: 'claude-sonnet-4-20250514', tools: [{ name: 'json' }] });
    expect(JSON.stringify(body)).not.toContain('output_config');
    expect(verifiedJudgement(reply(run), ANSWERS.positive, SITE_TEXT)).toEqual({ tone: VERDICTS.positive.tone, claims: VERDICTS.positive.claims, dropped: 0 });
  });

  it('gives each answer its tone', async () => {
    for (const [index, kind] of (['positive', 'mixed', 'negative'] as const).entries()) {
      const id = ASSISTANT_IDS[index] ?? 'chatgpt';
      const verified = verifiedJudgement(reply(await judged(id, recorded, { answer: ANSWERS[kind] })), ANSWERS[kind], SITE_TEXT);
      expect({ kind, tone: verified.tone?.value, dropped: verified.dropped }).toEqual({ kind, tone: kind, dropped: 0 });
    }
  });

  it('drops and counts a made-up quote, and a contradiction whose site quote is not in the site\'s text', async () => {
    const madeUp: RawJudgement = {
      tone: { value: 'positive', quote: 'Acme Plumbing Ltd is the best plumber in Yorkshire.' },
      claims: [
        CALL_OUTS,
        // The answer says "about £80"; the judge misquotes it.
        { about: 'price', claim: 'a boiler service costs £80', verdict: 'supported', quote: 'A boiler service costs \u00a380.', siteQuote: null },
        // The site never says this: a contradiction resting on words it does not hold.
        { about: 'status', claim: 'open at weekends', verdict: 'contradicted', quote: 'They offer emergency call-outs 24 hours a day, seven days a week.', siteQuote: 'We are closed on Sundays.' },
        // Nor this: the words are the answer's, not the site's.
        { about: 'service', claim: 'emergency call-outs', verdict: 'contradicted', quote: 'They offer emergency call-outs 24 hours a day, seven days a week.', siteQuote: 'emergency call-outs 24 hours a day' },
      ],
    };
    for (const id of ASSISTANT_IDS) {
      const verified = verifiedJudgement(reply(await judged(id, (request) => (isJudgeRequest(request) ? { json: madeUp } : { status: 400 }))), ANSWERS.positive, SITE_TEXT);
      expect({ id, ...verified }).toEqual({ id, tone: null, claims: [CALL_OUTS], dropped: 4 });
    }
  });

  it('sends the judge the business\'s public facts, its site\'s text and the answer, and nothing else', async () => {
    for (const id of ASSISTANT_IDS) {
      const run = await judged(id, recorded);
      const body = run.fake.requests[0]?.body;
      const { system, prompt } = judgePrompt(input(ANSWERS.positive));
      // The messages are the prompt made from the input, and only that.
      expect({ id, texts: messageTexts(body) }).toEqual({ id, texts: [system, prompt] });
      for (const value of ['Acme Plumbing Ltd', 'acmeplumbing.co.uk', '0113 496 0000', 'hello@acmeplumbing.co.uk', 'LS1 6BY', 'Mo-Fr 08:00-18:00', 'Emergency call-outs', 'We do not cover Bradford or Harrogate.', ANSWERS.positive]) {
        expect(prompt).toContain(value);
      }
      expect(system).toMatch(/word for word/);
      // The rest of the request is settings and the schema: none of the input's words.
      const rest = JSON.stringify(withoutMessages(body));
      for (const word of ['Acme', 'Leeds', '0113', 'Bradford', 'highly rated']) expect({ id, word, inRest: rest.includes(word) }).toEqual({ id, word, inRest: false });
      // Nothing of the person who asked for the audit, anywhere.
      expect(JSON.stringify(body)).not.toMatch(/jane|smith|example\.org/i);
      // The street address is not among what the judge is told.
      expect(JSON.stringify(body)).not.toContain('12 Kirkgate');
    }
  });

  it('tries again after a 429, waiting as the answer asks, each try counted against the day\'s calls', async () => {
    for (const id of ASSISTANT_IDS) {
      const run = await judged(id, (request, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '2' } } : recorded(request, index)));
      expect({ id, kind: run.outcome.kind, requests: run.fake.requests.length, calls: run.calls, waits: run.waits }).toEqual({ id, kind: 'answer', requests: 2, calls: 2, waits: [2_000] });
      expect(verifiedJudgement(reply(run), ANSWERS.positive, SITE_TEXT).dropped).toBe(0);
    }
  });

  it('never gives back the key: not in a refusal that echoes it, not in an unreadable verdict, and scrubbed from a verdict that echoes it', async () => {
    for (const id of ASSISTANT_IDS) {
      const wrongKey = `${FAKE_KEYS[id]}-wrong`;
      const refused = await judged(id, recorded, { key: wrongKey });
      // The fake's refusal echoes the key it was sent, as OpenAI's does.
      expect(refused.fake.requests).toHaveLength(1);
      expect(refused.outcome).toEqual({ kind: 'key rejected' });

      const unreadable = await judged(id, () => ({ json: { tone: { value: FAKE_KEYS[id], quote: FAKE_KEYS[id] }, claims: [] } }));
      expect(unreadable.outcome).toEqual({ kind: 'failed', reason: 'an answer the client library could not read' });

      const failing = await judged(id, () => ({ status: 500 }));
      expect(failing.outcome).toEqual({ kind: 'failed', reason: 'server error (500), still after 3 retries' });

      const echoed = await judged(id, () => ({ json: { tone: { value: 'neutral', quote: `Your key is ${FAKE_KEYS[id]}.` }, claims: [{ about: 'service', claim: FAKE_KEYS[id], verdict: 'not on site', quote: FAKE_KEYS[id], siteQuote: FAKE_KEYS[id] }] }, model: `model-${FAKE_KEYS[id]}` }));
      const answer = reply(echoed);
      expect(answer.tone.quote).toBe('Your key is [key removed].');
      expect(answer.model).toBe('model-[key removed]');
      for (const run of [refused, unreadable, failing, echoed]) expect(JSON.stringify(run.outcome)).not.toContain(FAKE_KEYS[id]);
    }
  });

  describe('measured against labelled answers (npm run judge-agreement), on recorded verdicts through the fakes', () => {
    let folder = '';
    const files = { corpus: '', recorded: '' };

    beforeAll(() => {
      folder = mkdtempSync(path.join(tmpdir(), 'judge-corpus-'));
      files.corpus = path.join(folder, 'answers.yaml');
      files.recorded = path.join(folder, 'recorded.yaml');
      const facts = { phones: ['0113 496 0000'], emails: ['hello@acmeplumbing.co.uk'], postcodes: ['LS1 6BY'], towns: ['Leeds'], openingHours: ['Mo-Fr 08:00-18:00'], services: ['Boiler servicing', 'Boiler installation', 'Emergency call-outs'] };
      const answer = (id: string, text: string, tone: string | null, claims: { about: string; claim: string; verdict: string }[], wrong: boolean) => ({ id, business: 'acme', assistant: 'chatgpt', question: 'Who should I call?', text, tone, claims, wrong });
      const corpus = {
        businesses: [{ id: 'acme', name: 'Acme Plumbing Ltd', site: 'https://www.acmeplumbing.co.uk/', facts, siteText: SITE_TEXT }],
        answers: [
          answer('positive', ANSWERS.positive, 'positive', [
            { about: 'service', claim: 'offers emergency call-outs', verdict: 'supported' },
            { about: 'status', claim: 'open 24 hours, seven days a week', verdict: 'contradicted' },
            { about: 'price', claim: 'boiler service costs £80', verdict: 'supported' },
          ], true),
          answer('mixed', ANSWERS.mixed, 'mixed', [
            { about: 'place', claim: 'covers Bradford', verdict: 'contradicted' },
            { about: 'service', claim: 'installs boilers', verdict: 'supported' },
          ], true),
          answer('negative', ANSWERS.negative, 'negative', [{ about: 'status', claim: 'stopped trading in 2025', verdict: 'not_on_site' }], false),
          // Names only others: never judged.
          answer('others', 'For a plumber in Leeds, try **Pipe Pros Leeds** or **FlowFix Plumbing**.', null, [], false),
        ],
      };
      const recorded = {
        positive: VERDICTS.positive,
        // Tone and one verdict other than the labels'.
        mixed: { tone: { ...VERDICTS.mixed.tone, value: 'positive' }, claims: VERDICTS.mixed.claims.map((claim) => (claim.about === 'place' ? { ...claim, verdict: 'not on site', siteQuote: null } : claim)) },
        // The tone's quote is not the answer's: dropped.
        negative: { ...VERDICTS.negative, tone: { value: 'negative', quote: 'Avoid Acme Plumbing Ltd.' } },
      };
      writeFileSync(files.corpus, stringify(corpus));
      writeFileSync(files.recorded, stringify(recorded));
    });

    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it('scores tone, matched claims\' verdicts, answers found wrong, quotes dropped, tokens and cost per verdict', async () => {
      const { cases, notNaming } = casesToJudge(readJudgeCorpus(files.corpus));
      expect({ judged: cases.map((item) => item.answer.id), notNaming }).toEqual({ judged: ['positive', 'mixed', 'negative'], notNaming: 1 });
      const { scores, model, notRecorded } = await judgeRecorded('chatgpt', cases, readRecordedVerdicts(files.recorded));
      expect({ model, notRecorded }).toEqual({ model: 'gpt-5-nano', notRecorded: 0 });
      const figures = agreement(scores, model);
      expect(figures).toMatchObject({
        judged: 3,
        failed: 0,
        tone: { agree: 1, of: 3 },
        claims: { labelled: 6, judged: 6, matched: 6, agree: 5 },
        wrong: { agree: 2, of: 3 },
        dropped: 1,
      });
      expect(figures.tokens?.input).toBeGreaterThan(1_000);
      // gpt-5-nano's prices applied to the fake's token counts.
      const tokens = figures.tokens ?? { input: 0, output: 0 };
      expect(figures.costPerVerdict).toBeCloseTo((tokens.input * 0.05 + tokens.output * 0.4) / 1_000_000, 10);
      expect(scores.find((score) => score.id === 'mixed')?.disagreements).toEqual(['place "covers Bradford": labelled contradicted, judged not on site']);
    });

    it('prints the same figures from the command, and says in one line that it judged nothing without a key', async () => {
      const run = promisify(execFile);
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
      const recorded = await run('npx', ['tsx', 'scripts/judge-agreement.ts', '--corpus', files.corpus, '--recorded', files.recorded, '--verbose'], { cwd: ROOT, env });
      expect(recorded.stdout).toContain('4 answers in the corpus, 3 name their business (1 do not, and are not judged)');
      expect(recorded.stdout).toContain('Tone agrees with the label: 1 of 3 (33%)');
      expect(recorded.stdout).toContain('Claims: 6 labelled, 6 kept from the judge, 6 matched; verdict agrees: 5 of 6 (83%)');
      expect(recorded.stdout).toContain('Verdicts dropped for a quote not found: 1');
      expect(recorded.stdout).toMatch(/Tokens per verdict, on average: \d+ in, \d+ out; \$0\.\d{5} a verdict at \$0\.05 \/ \$0\.4 per million/);
      expect(recorded.stdout).toContain('- mixed: tone labelled mixed, judged positive; place "covers Bradford": labelled contradicted, judged not on site');
      const keyless = await run('npx', ['tsx', 'scripts/judge-agreement.ts', '--corpus', files.corpus], { cwd: ROOT, env });
      expect(keyless.stdout).toBe("No assistant's key set (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, PERPLEXITY_API_KEY): no answer judged (--recorded FILE runs on recorded verdicts).\n");
    }, 60_000);
  });
});
