import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { judgePrompt } from '../../server/answer-check/judge';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { isJudgeRequest } from '../helpers/fake-assistants';
import { agreement, agreementLines, casesToJudge, readJudgeCorpus, readRecordedVerdicts, judgeRecorded, type AnswerScore, type RecordedRequest } from '../helpers/judge-corpus';
import { ROOT } from '../helpers/locations';

/*
 * The whole labelled set of answers about businesses (answers.yaml) through the answer judge, on
 * the verdicts recorded for it (judge-recorded.yaml: written by hand in a small model's shape,
 * slips included, as its header says): each verdict goes out from a fake of a provider's API, the
 * answers dealt to the four providers in turn, each fake answering in its own API's shape for
 * structured output, and comes back through the real client library, the quote checks and the
 * scoring npm run judge-agreement prints. The figures are a regression line of the pipeline, not
 * a measure of a model: a change to the prompt's making, the schema, the quote check or the
 * scoring that moves any of them shows here, and docs/answer-judge.md ("Measured") says why each
 * answer the figures count against the labels is counted so.
 */

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'answers-about-business');
const CORPUS = path.join(FIXTURES, 'answers.yaml');
const RECORDED = path.join(FIXTURES, 'judge-recorded.yaml');

/**
 * The verdicts whose quotes were written wrong on purpose in judge-recorded.yaml, as a small model
 * writes them, and nothing else: each must be dropped by the quote check, and no other may be.
 * `claim N` is the claim's place in the recorded verdict, from 1.
 */
const MADE_UNQUOTABLE: Record<string, string[]> = {
  // Citation marks [1][2] left out of the quote.
  'perplexity-contact-right-1': ['claim 1'],
  // The same, through the whole verdict.
  'perplexity-mtd-claims-1': ['tone', 'claim 1', 'claim 2'],
  // A contradiction whose site quote is the site's sentence cut short, closed with a full stop.
  'chatgpt-closed-permanently-1': ['claim 1'],
  // "**Brunch:**" quoted without its bold marks.
  'chatgpt-menu-no-contact-1': ['claim 2'],
  // The tone's quote put in the site's words ("clear written quotes").
  'gemini-facebook-page-1': ['tone'],
  // The tone's quote joined from two paragraphs.
  'claude-temporarily-closed-1': ['tone'],
  // A contradiction whose site quote is reworded ("is £80").
  'gemini-price-claims-no-contact-1': ['claim 2'],
  // Four list items joined into one line.
  'chatgpt-wrong-town-phone-right-1': ['claim 4'],
  // A table's rows written out as one line.
  'chatgpt-closed-on-sundays-1': ['claim 2'],
};

/** The answers whose tone the pipeline gives otherwise than the label: labelled, then given (null: its quote dropped). */
const TONE_MISSES = [
  ['perplexity-recommend-competitor-website-1', 'neutral', 'positive'],
  ['gemini-reviews-negative-1', 'negative', 'mixed'],
  ['chatgpt-closed-permanently-1', 'neutral', 'negative'],
  ['gemini-facebook-page-1', 'positive', null],
  ['claude-temporarily-closed-1', 'neutral', null],
  ['chatgpt-closed-down-1', 'neutral', 'negative'],
  ['perplexity-mtd-claims-1', 'positive', null],
  ['gemini-recommend-headings-competitor-postcode-1', 'neutral', 'positive'],
  ['chatgpt-competitor-entry-names-business-1', 'neutral', 'positive'],
];

/** Matched claims whose verdict differs from the label's. */
const VERDICT_MISSES = {
  'perplexity-contact-wrong-postcode-1': ['place "27 Oldham Street in the Northern Quarter": labelled supported, judged contradicted'],
  'gemini-reviews-negative-1': ['price "£95 for a check-up with scale and polish": labelled not on site, judged contradicted'],
  'perplexity-no-longer-trading-1': ['status "ceased trading in 2023": labelled contradicted, judged not on site'],
  'chatgpt-services-wrong-claim-1': ['status "a 24-hour line": labelled not on site, judged contradicted'],
  'claude-no-contact-services-1': ['service "free courtesy car with major services": labelled not on site, judged supported'],
  'perplexity-funeral-no-contact-1': ['place "delivers to funeral directors across Merseyside": labelled not on site, judged supported'],
};

/** Labelled claims that no kept claim matched: their verdict dropped, or the judge's subject or words not the label's. */
const UNMATCHED = {
  'gemini-recommend-competitor-number-1': ['status "Gas Safe registered engineers" (supported)'],
  'chatgpt-reviews-mixed-1': ['service "emergency leak repairs" (supported)'],
  'gemini-contact-own-email-unlisted-1': ['status "Gas Safe registered" (supported)'],
  'perplexity-contact-right-1': ['place "Sheepscar Court in Leeds" (supported)'],
  'chatgpt-contact-wrong-phone-format-1': ['status "private dental practice" (supported)'],
  'claude-recommend-no-contact-1': ['status "private practice" (supported)'],
  'chatgpt-closed-permanently-1': ['status "permanently closed" (contradicted)'],
  'chatgpt-menu-no-contact-1': ['service "all-day brunch with vegan and gluten-free options" (supported)'],
  'perplexity-solicitor-competitor-cited-1': ['service "fixed-fee probate" (supported)'],
  'perplexity-wrong-website-1': ['price "free roof survey" (supported)'],
  'gemini-price-claims-no-contact-1': ['price "signature facial £85" (contradicted)'],
  'perplexity-mtd-claims-1': ['service "Making Tax Digital for Income Tax help" (supported)', 'service "bookkeeping and VAT returns" (supported)'],
  'chatgpt-wrong-town-phone-right-1': ['status "chartered accountants" (supported)', 'service "year-end accounts, self assessment, payroll and VAT" (supported)'],
  'chatgpt-closed-on-sundays-1': ['status "open weekdays 8am to 5.30pm and Saturday 8am to 12pm" (supported)'],
};

/** Answers where "gets something wrong" (a claim contradicted) differs: labelled, then judged. */
const WRONG_MISSES = [
  ['chatgpt-contact-wrong-phone-1', false, true],
  ['gemini-reviews-negative-1', false, true],
  ['chatgpt-closed-permanently-1', true, false],
  ['perplexity-contact-wrong-postcode-1', false, true],
  ['chatgpt-contact-freephone-wrong-1', false, true],
  ['perplexity-no-longer-trading-1', true, false],
  ['gemini-price-claims-no-contact-1', true, false],
  ['gemini-recommend-headings-competitor-postcode-1', false, true],
  ['claude-closure-taken-back-1', false, true],
];

/** Each provider's path for a verdict, as its client library asks. */
const PATHS: Record<AssistantId, RegExp> = {
  chatgpt: /^\/v1\/responses$/,
  claude: /^\/v1\/messages$/,
  gemini: /^\/v1beta\/models\/gemini-flash-lite-latest:generateContent$/,
  perplexity: /^\/chat\/completions$/,
};

const MESSAGE_FIELDS = ['system', 'systemInstruction', 'input', 'messages', 'contents'];

/** Every text of a request's messages, wherever its API puts them (system or developer, then user). */
function messageTexts(body: unknown): string[] {
  const texts: string[] = [];
  const walk = (node: unknown, key: string) => {
    if (typeof node === 'string' && (key === 'text' || key === 'content')) texts.push(node);
    else if (Array.isArray(node)) for (const item of node) walk(item, key);
    else if (node !== null && typeof node === 'object') for (const [name, value] of Object.entries(node)) walk(value, name);
  };
  for (const field of MESSAGE_FIELDS) {
    const value: unknown = body !== null && typeof body === 'object' ? Reflect.get(body, field) : undefined;
    if (field === 'system' && typeof value === 'string') texts.push(value);
    else walk(value, field);
  }
  return texts;
}

/** The request without its messages: its settings and its schema. */
const withoutMessages = (body: unknown) => JSON.stringify(body !== null && typeof body === 'object' ? Object.fromEntries(Object.entries(body).filter(([name]) => !MESSAGE_FIELDS.includes(name))) : {});

/** The set as written, read apart from the helper: what the prompt must be made of. */
interface RawSet {
  businesses: { id: string; name: string; site: string; facts: Record<string, string[]>; siteText: string }[];
  answers: { id: string; business: string; assistant: string; question: string; text: string; sources?: { url: string }[] }[];
}

/**
 * The prompt an answer must be sent in, section by section, from the set's own words: the
 * business's name, site and town, the facts its site states (no street address), the site's
 * text, the answer. Nothing of the question, the cited pages, the labels or any other answer.
 */
function expectedPrompt(business: RawSet['businesses'][number], answer: string): string {
  const facts = (kind: string) => (business.facts[kind] ?? []).join('; ') || '(none given)';
  return [
    'The business:',
    `Name: ${business.name}`,
    `Website: ${business.site}`,
    `Town: ${business.facts.towns?.[0] ?? '(not given)'}`,
    '',
    "What the business's website states:",
    `Phone numbers: ${facts('phones')}`,
    `E-mail addresses: ${facts('emails')}`,
    `Postcodes: ${facts('postcodes')}`,
    `Towns: ${facts('towns')}`,
    `Opening hours: ${facts('openingHours')}`,
    `Services: ${facts('services')}`,
    '',
    "The website's text:",
    '<website_text>',
    business.siteText,
    '</website_text>',
    '',
    "The assistant's answer:",
    '<answer>',
    answer,
    '</answer>',
  ].join('\n');
}

describe('the answer judge on the labelled answers about businesses, recorded verdicts through the four providers\' fakes', () => {
  const set = parse(readFileSync(CORPUS, 'utf8')) as RawSet;
  const corpus = readJudgeCorpus(CORPUS);
  const { cases, direct, notNaming } = casesToJudge(corpus);
  const recorded = readRecordedVerdicts(RECORDED);
  let run: { scores: AnswerScore[]; model: string; notRecorded: number; requests: RecordedRequest[] };

  beforeAll(async () => {
    run = await judgeRecorded(ASSISTANT_IDS, cases, recorded);
  });

  const byId = <T>(pick: (score: AnswerScore) => T | null) => Object.fromEntries(run.scores.flatMap((score) => (pick(score) === null ? [] : [[score.id, pick(score)]])));

  it('judges every answer a run would: each direct question\'s, and each other that names its business, one verdict each', () => {
    const byAssistant = (answers: readonly { assistant?: string }[]) => Object.fromEntries(ASSISTANT_IDS.map((id) => [id, answers.filter((answer) => answer.assistant === id).length]));
    expect({ answers: corpus.answers.length, byAssistant: byAssistant(corpus.answers) }).toEqual({ answers: 76, byAssistant: { chatgpt: 23, claude: 21, gemini: 16, perplexity: 16 } });
    expect({ judged: cases.length, direct, notNaming, byAssistant: byAssistant(cases.map((item) => item.answer)) }).toEqual({ judged: 73, direct: 53, notNaming: 3, byAssistant: { chatgpt: 22, claude: 19, gemini: 16, perplexity: 16 } });
    // A verdict recorded for each, and for nothing else.
    expect([...recorded.keys()].sort()).toEqual(cases.map((item) => item.answer.id).sort());

    expect({ scores: run.scores.length, failed: run.scores.filter((score) => score.failed !== null), notRecorded: run.notRecorded }).toEqual({ scores: 73, failed: [], notRecorded: 0 });
    // One request an answer, dealt to the providers in turn, each on its own API's path.
    expect(run.requests.map((item) => item.answerId).sort()).toEqual(cases.map((item) => item.answer.id).sort());
    expect(Object.fromEntries(ASSISTANT_IDS.map((id) => [id, run.requests.filter((item) => item.provider === id).length]))).toEqual({ chatgpt: 19, claude: 18, gemini: 18, perplexity: 18 });
    for (const { provider, request } of run.requests) {
      expect({ provider, path: request.path, judge: isJudgeRequest(request) }).toEqual({ provider, path: expect.stringMatching(PATHS[provider]), judge: true });
    }
  });

  it('agrees with the labels as recorded: tone, matched claims\' verdicts, answers found wrong, verdicts dropped', () => {
    const figures = agreement(run.scores, run.model);
    expect(figures).toMatchObject({
      judged: 73,
      failed: 0,
      tone: { agree: 64, of: 73 },
      claims: { labelled: 153, judged: 197, matched: 137, agree: 131 },
      wrong: { agree: 64, of: 73 },
      dropped: 11,
    });
    // Every answer the figures count against the labels, and why it is counted so (docs/answer-judge.md, "Measured").
    expect(run.scores.filter((score) => score.judgedTone !== score.labelledTone).map((score) => [score.id, score.labelledTone, score.judgedTone])).toEqual(TONE_MISSES);
    expect(byId((score) => (score.disagreements.length > 0 ? score.disagreements : null))).toEqual(VERDICT_MISSES);
    expect(byId((score) => (score.unmatched.length > 0 ? score.unmatched : null))).toEqual(UNMATCHED);
    expect(run.scores.filter((score) => score.judgedWrong !== score.labelledWrong).map((score) => [score.id, score.labelledWrong, score.judgedWrong])).toEqual(WRONG_MISSES);
  });

  it('drops exactly the verdicts whose quotes were written wrong on purpose, and counts each', () => {
    expect(byId((score) => (score.droppedParts.length > 0 ? score.droppedParts : null))).toEqual(MADE_UNQUOTABLE);
    // The count the figures give is the parts found dropped, answer by answer.
    for (const score of run.scores) expect({ id: score.id, dropped: score.dropped }).toEqual({ id: score.id, dropped: score.droppedParts.length });
    // The recorded file holds the verdicts as written: each dropped part is one of them.
    for (const [id, parts] of Object.entries(MADE_UNQUOTABLE)) {
      const verdict = recorded.get(id);
      for (const part of parts) expect({ id, part, recorded: part === 'tone' ? verdict?.tone !== undefined : verdict?.claims[Number(part.slice('claim '.length)) - 1] !== undefined }).toEqual({ id, part, recorded: true });
    }
  });

  it('sends each provider only the business\'s public facts, its site\'s text and the answer, in the prompt\'s sections', () => {
    const businesses = new Map(set.businesses.map((business) => [business.id, business]));
    const answers = new Map(set.answers.map((answer) => [answer.id, answer]));
    const otherTexts = set.answers.map((answer) => answer.text);
    let questionsChecked = 0;
    for (const { provider, answerId, request } of run.requests) {
      const answer = answers.get(answerId ?? '');
      const business = businesses.get(answer?.business ?? '');
      const item = cases.find((candidate) => candidate.answer.id === answerId);
      if (!answer || !business || !item) throw new Error(`a request for no answer of the set (${provider})`);
      const body = JSON.stringify(request.body);
      // The messages are the instructions and the prompt made from the set's own words, and only those.
      expect({ answerId, texts: messageTexts(request.body) }).toEqual({ answerId, texts: [judgePrompt(item.input).system, expectedPrompt(business, answer.text)] });
      // The rest of the request is settings and the schema: none of the input's words.
      const rest = withoutMessages(request.body);
      for (const word of [business.name, business.site, business.facts.towns?.[0] ?? '', answer.text.slice(0, 40)]) expect({ answerId, word, inRest: rest.includes(word) }).toEqual({ answerId, word, inRest: false });
      // Not the question the answer was given to, the pages it cites, or another answer.
      const own = `${answer.text}\n${business.siteText}`;
      if (!own.includes(answer.question)) {
        questionsChecked += 1;
        expect({ answerId, question: body.includes(JSON.stringify(answer.question).slice(1, -1)) }).toEqual({ answerId, question: false });
      }
      for (const source of answer.sources ?? []) if (!own.includes(source.url)) expect({ answerId, source: source.url, sent: body.includes(source.url) }).toEqual({ answerId, source: source.url, sent: false });
      for (const other of otherTexts) if (other !== answer.text) expect(body.includes(JSON.stringify(other).slice(1, -1))).toBe(false);
      // The only e-mail addresses are the business's own (its facts, its site) or the answer's: the set names no person.
      const sent = [...messageTexts(request.body), rest].join('\n');
      for (const email of sent.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? []) expect({ answerId, email, public: own.toLowerCase().includes(email.toLowerCase()) || (business.facts.emails ?? []).includes(email) }).toEqual({ answerId, email, public: true });
    }
    // Most questions are not word for word in their answer; those are proven absent.
    expect(questionsChecked).toBeGreaterThan(60);
  });

  it('prints the same figures from npm run judge-agreement --recorded', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/judge-agreement.ts', '--recorded', RECORDED, '--verbose'], { cwd: ROOT, env });
    expect(stdout).toContain("Recorded verdicts through a fake of ChatGPT's API, as gpt-5-nano");
    expect(stdout).toContain('76 answers in the corpus, 73 judged: 53 to a direct question about their business, 20 more that name it (3 neither, and are not judged)');
    // The command judges on one provider's fake, the test on four in turn: the figures are the same, the token counts (the fakes' own) are not.
    for (const line of agreementLines(agreement(run.scores, run.model), run.model).filter((line) => !line.startsWith('Tokens'))) expect(stdout).toContain(`${line}\n`);
    // --verbose names each answer the figures count against the labels.
    const listed = new Set([...stdout.matchAll(/^- ([\w-]+):/gm)].map((match) => match[1]));
    for (const id of [...TONE_MISSES.map(([id]) => id), ...Object.keys(VERDICT_MISSES), ...Object.keys(UNMATCHED), ...Object.keys(MADE_UNQUOTABLE)]) expect({ id, listed: listed.has(String(id)) }).toEqual({ id, listed: true });
    expect(stdout).toContain('- perplexity-mtd-claims-1: tone labelled positive, judged none (quote dropped);');
    expect(stdout).toContain('dropped: tone, claim 1, claim 2');
  }, 120_000);
});
