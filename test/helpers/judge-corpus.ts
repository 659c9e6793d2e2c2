import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { CLAIM_SUBJECTS, TONES, VERDICTS } from '../../server/answer-check/verdicts';
import { createJudge, judgementSchema, verifiedJudgement, type Judge, type JudgeInput, type JudgeReply, type RawJudgement, type VerifiedClaim, type VerifiedJudgement } from '../../server/answer-check/judge';
import type { SiteFact } from '../../server/business/business-facts';
import { siteOf } from '../../server/business/names';
import { loadConfig } from '../../server/config';
import { callWithRetries, type CallPolicy } from '../../server/visibility-probe/ask';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { readAnswer } from '../../server/visibility-probe/who-is-named';
import { FAKE_KEYS, fakeEnvironment, isJudgeRequest, startFakeAssistant, type FakeAssistant, type ReceivedRequest } from './fake-assistants';

/**
 * The answer judge measured against the labelled answers about businesses
 * (test/fixtures/answers-about-business/answers.yaml): each answer a run's judge would read is
 * judged, and the verdict, once its quotes are checked, is compared with the labels. Shared by
 * scripts/judge-agreement.ts (a real model, or recorded verdicts) and its test, so that the
 * figures docs/answer-judge.md asks for come from the code the test runs.
 */

export const CORPUS_FILE = path.resolve(__dirname, '..', 'fixtures', 'answers-about-business', 'answers.yaml');

/** A labelled fact kind, written as the plain value or as the site check's SiteFact. */
const factList = z
  .array(z.union([z.string(), z.object({ value: z.string() })]))
  .default([])
  .transform((facts) => facts.map((fact) => (typeof fact === 'string' ? fact : fact.value)));

/** "not_on_site" and "Not on site" are the label "not on site". */
const verdictLabel = z
  .string()
  .transform((value) => value.trim().toLowerCase().replace(/[_-]+/g, ' '))
  .pipe(z.enum(VERDICTS));

const corpusSchema = z.object({
  businesses: z.array(
    z.object({
      id: z.string(),
      name: z.string().nullable(),
      site: z.string().nullable(),
      town: z.string().nullable().optional(),
      facts: z
        .object({ phones: factList, emails: factList, postcodes: factList, towns: factList, openingHours: factList, services: factList })
        .partial()
        .default({}),
      siteText: z.string(),
    }),
  ),
  answers: z.array(
    z.object({
      id: z.string(),
      business: z.string(),
      assistant: z.string().optional(),
      question: z.string().optional(),
      text: z.string(),
      sources: z.array(z.union([z.string(), z.object({ url: z.string(), title: z.string().nullable().optional() })])).optional(),
      tone: z.enum(TONES).nullable().optional(),
      /** A direct question about the business (true), or a search that may name it among others. */
      about: z.boolean().optional(),
      // Strict: a claim written in YAML's braces with a comma in it unquoted ("{ claim: MOT, tyres, ... }")
      // parses as a shorter claim and a key per comma, which would quietly score another label.
      claims: z.array(z.strictObject({ about: z.enum(CLAIM_SUBJECTS), claim: z.string(), verdict: verdictLabel })).default([]),
      /**
       * Read, not scored: the set labels here the contact facts an answer gets wrong (the facts
       * check's, never the judge's), an older corpus a yes or no. What the judge is scored on is
       * a claim labelled contradicted (`labelledWrong`).
       */
      wrong: z.union([z.boolean(), z.array(z.object({ kind: z.string(), said: z.string() }))]).optional(),
    }),
  ),
});

type Corpus = z.output<typeof corpusSchema>;
type CorpusBusiness = Corpus['businesses'][number];
export type CorpusAnswer = Corpus['answers'][number];

export function readJudgeCorpus(file: string = CORPUS_FILE): Corpus {
  return corpusSchema.parse(parse(readFileSync(file, 'utf8')));
}

/** Recorded verdicts, a map of answer id to the verdict a model gave (`--recorded FILE`). */
export function readRecordedVerdicts(file: string): Map<string, RawJudgement> {
  return new Map(Object.entries(z.record(z.string(), judgementSchema).parse(parse(readFileSync(file, 'utf8')))));
}

const siteFacts = (values: readonly string[] = []): SiteFact[] => values.map((value) => ({ value, source: { page: 'home page', from: 'text' } }));

/** What the judge is given for one answer: its business's public words, and the answer. */
function judgeInputOf(business: CorpusBusiness, answer: CorpusAnswer): JudgeInput {
  const { facts } = business;
  return {
    name: business.name,
    site: business.site === null ? null : siteOf(business.site),
    town: business.town ?? facts.towns?.[0] ?? null,
    facts: {
      phones: siteFacts(facts.phones),
      emails: siteFacts(facts.emails),
      postcodes: siteFacts(facts.postcodes),
      towns: siteFacts(facts.towns),
      openingHours: siteFacts(facts.openingHours),
      services: siteFacts(facts.services),
      text: business.siteText,
    },
    answer: answer.text,
  };
}

export interface JudgedCase {
  answer: CorpusAnswer;
  input: JudgeInput;
}

/**
 * The answers a run's judge reads (server/answer-check/judge-sample.ts): each answer to a direct
 * question about its business (`about: true`), named in it or not, and each other answer whose
 * text names its business (its name or its site, as the probe reads them). `direct` counts the
 * first, `notNaming` the answers left out.
 */
export function casesToJudge(corpus: Corpus): { cases: JudgedCase[]; direct: number; notNaming: number } {
  const businesses = new Map(corpus.businesses.map((business) => [business.id, business]));
  const cases: JudgedCase[] = [];
  let direct = 0;
  let notNaming = 0;
  for (const answer of corpus.answers) {
    const business = businesses.get(answer.business);
    if (!business) throw new Error(`answer ${answer.id}: no business "${answer.business}" in the corpus`);
    const reading = readAnswer(answer.text, [], { brand: business.name, domain: business.site === null ? null : siteOf(business.site) });
    if (answer.about === true) direct += 1;
    if (answer.about !== true && reading.position === null) notNaming += 1;
    else cases.push({ answer, input: judgeInputOf(business, answer) });
  }
  return { cases, direct, notNaming };
}

/** Words of three letters or more, in lower case: what a claim's label and the judge's words are compared by. */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/**
 * Pairs each labelled claim with at most one of the judge's: about the same thing, and holding at
 * least half of the label's words in the judge's claim or in the answer's sentence it quotes; the
 * judge's claim that holds most of them wins. Several claims often quote one sentence ("still
 * open and trading" and "listed as permanently closed" both rest on "Some online listings show
 * ... as permanently closed, but ... still open and trading"), so among equals the claim whose own
 * words hold most of the label's wins, not the first one given.
 */
function matchClaims(labelled: CorpusAnswer['claims'], judged: readonly VerifiedClaim[]): { label: CorpusAnswer['claims'][number]; judged: VerifiedClaim }[] {
  const free = new Set(judged);
  const pairs: { label: CorpusAnswer['claims'][number]; judged: VerifiedClaim }[] = [];
  for (const label of labelled) {
    const wanted = wordsOf(label.claim);
    const shareIn = (words: Set<string>) => (wanted.size === 0 ? 0 : [...wanted].filter((word) => words.has(word)).length / wanted.size);
    let best: { claim: VerifiedClaim; share: number; own: number } | null = null;
    for (const claim of free) {
      if (claim.about !== label.about) continue;
      const share = shareIn(wordsOf(`${claim.claim} ${claim.quote}`));
      const own = shareIn(wordsOf(claim.claim));
      if (share >= 0.5 && (best === null || share > best.share || (share === best.share && own > best.own))) best = { claim, share, own };
    }
    if (best) {
      free.delete(best.claim);
      pairs.push({ label, judged: best.claim });
    }
  }
  return pairs;
}

export interface AnswerScore {
  id: string;
  /** Null when the judge gave no verdict (`failed` says why). */
  failed: string | null;
  labelledTone: CorpusAnswer['tone'];
  /** Null when its quote was dropped, or no verdict. */
  judgedTone: (typeof TONES)[number] | null;
  labelledClaims: number;
  judgedClaims: number;
  /** Labelled claims matched with one of the judge's, and the verdicts of those that agree. */
  matched: number;
  verdictsAgree: number;
  /** The matched pairs whose verdicts differ: label's, then judge's. */
  disagreements: string[];
  /** The labelled claims no kept claim of the judge's matched. */
  unmatched: string[];
  /** The judge's kept claims that matched no label (another firm's, a phone number's, or one the labels leave out). */
  unlabelled: string[];
  /** A claim labelled contradicted: what the judge is scored on as "the answer gets something wrong". */
  labelledWrong: boolean;
  /** The judge found a claim the site contradicts. */
  judgedWrong: boolean | null;
  dropped: number;
  /** What was dropped: `tone`, or `claim N` (its place in the verdict as given, from 1). */
  droppedParts: string[];
  inputTokens: number | null;
  outputTokens: number | null;
}

const claimLabel = (claim: { about: string; claim: string; verdict: string }) => `${claim.about} "${claim.claim}" (${claim.verdict})`;

/**
 * Which parts of a verdict verifiedJudgement left out. It keeps the claims it keeps in their
 * order, unchanged but for a supported claim's site quote, so the kept ones are walked along the
 * given ones; a claim past MAX_CLAIMS is one it left out too.
 */
function droppedParts(raw: RawJudgement, verified: VerifiedJudgement): string[] {
  const parts = verified.tone === null ? ['tone'] : [];
  let kept = 0;
  raw.claims.forEach((claim, index) => {
    const next = verified.claims[kept];
    if (next && next.about === claim.about && next.claim === claim.claim && next.verdict === claim.verdict && next.quote === claim.quote) kept += 1;
    else parts.push(`claim ${index + 1}`);
  });
  return parts;
}

/** One answer's verdict against its labels. */
export function scoreAnswer(item: JudgedCase, reply: JudgeReply | null, failed: string | null = null): AnswerScore {
  const { answer } = item;
  const base = { id: answer.id, labelledTone: answer.tone, labelledClaims: answer.claims.length, labelledWrong: answer.claims.some((claim) => claim.verdict === 'contradicted') };
  if (reply === null) return { ...base, failed: failed ?? 'no verdict', judgedTone: null, judgedClaims: 0, matched: 0, verdictsAgree: 0, disagreements: [], unmatched: answer.claims.map(claimLabel), unlabelled: [], judgedWrong: null, dropped: 0, droppedParts: [], inputTokens: null, outputTokens: null };
  const verified = verifiedJudgement(reply, item.input.answer, item.input.facts.text);
  const pairs = matchClaims(answer.claims, verified.claims);
  const differing = pairs.filter((pair) => pair.label.verdict !== pair.judged.verdict);
  return {
    ...base,
    failed: null,
    judgedTone: verified.tone?.value ?? null,
    judgedClaims: verified.claims.length,
    matched: pairs.length,
    verdictsAgree: pairs.length - differing.length,
    disagreements: differing.map((pair) => `${pair.label.about} "${pair.label.claim}": labelled ${pair.label.verdict}, judged ${pair.judged.verdict}`),
    unmatched: answer.claims.filter((label) => !pairs.some((pair) => pair.label === label)).map(claimLabel),
    unlabelled: verified.claims.filter((claim) => !pairs.some((pair) => pair.judged === claim)).map(claimLabel),
    judgedWrong: verified.claims.some((claim) => claim.verdict === 'contradicted'),
    dropped: verified.dropped,
    droppedParts: droppedParts(reply, verified),
    inputTokens: reply.usage.inputTokens,
    outputTokens: reply.usage.outputTokens,
  };
}

/**
 * List prices in US dollars per million tokens of the judge's default models (and Perplexity's fee
 * for each request, which it charges whether or not it searches), as docs/answer-judge.md records
 * them with their dates; a model not listed has no cost worked out.
 */
export const JUDGE_PRICES: Record<string, { input: number; output: number; perRequest: number }> = {
  'gpt-5-nano': { input: 0.05, output: 0.4, perRequest: 0 },
  'claude-haiku-4-5': { input: 1, output: 5, perRequest: 0 },
  'gemini-flash-lite-latest': { input: 0.25, output: 1.5, perRequest: 0 },
  sonar: { input: 1, output: 1, perRequest: 0.005 },
};

export interface Agreement {
  judged: number;
  failed: number;
  tone: { agree: number; of: number };
  claims: { labelled: number; judged: number; matched: number; agree: number };
  wrong: { agree: number; of: number };
  dropped: number;
  /** Per verdict, on average over those with a usage; null when none had one. */
  tokens: { input: number; output: number } | null;
  /** Dollars per verdict at JUDGE_PRICES; null when the model has no price or no usage was reported. */
  costPerVerdict: number | null;
}

export function agreement(scores: readonly AnswerScore[], model: string): Agreement {
  const judged = scores.filter((score) => score.failed === null);
  const toned = judged.filter((score) => score.labelledTone !== null && score.labelledTone !== undefined);
  const withUsage = judged.filter((score) => score.inputTokens !== null && score.outputTokens !== null);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const tokens = withUsage.length === 0 ? null : { input: sum(withUsage.map((score) => score.inputTokens ?? 0)) / withUsage.length, output: sum(withUsage.map((score) => score.outputTokens ?? 0)) / withUsage.length };
  const price = JUDGE_PRICES[model];
  return {
    judged: judged.length,
    failed: scores.length - judged.length,
    tone: { agree: toned.filter((score) => score.judgedTone === score.labelledTone).length, of: toned.length },
    claims: { labelled: sum(judged.map((score) => score.labelledClaims)), judged: sum(judged.map((score) => score.judgedClaims)), matched: sum(judged.map((score) => score.matched)), agree: sum(judged.map((score) => score.verdictsAgree)) },
    wrong: { agree: judged.filter((score) => score.judgedWrong === score.labelledWrong).length, of: judged.length },
    dropped: sum(judged.map((score) => score.dropped)),
    tokens,
    costPerVerdict: price && tokens ? (tokens.input * price.input + tokens.output * price.output) / 1_000_000 + price.perRequest : null,
  };
}

const share = (part: number, whole: number) => (whole === 0 ? 'none to compare' : `${part} of ${whole} (${Math.round((part / whole) * 100)}%)`);

/** The figures as the script prints them. */
export function agreementLines(figures: Agreement, model: string): string[] {
  const price = JUDGE_PRICES[model];
  const { claims } = figures;
  return [
    `Judged: ${figures.judged}${figures.failed > 0 ? `, ${figures.failed} without a verdict` : ''}`,
    `Tone agrees with the label: ${share(figures.tone.agree, figures.tone.of)}`,
    `Claims: ${claims.labelled} labelled, ${claims.judged} kept from the judge, ${claims.matched} matched; verdict agrees: ${share(claims.agree, claims.matched)}`,
    `Answers with a claim labelled contradicted or not, the judge agrees (a contradicted claim kept): ${share(figures.wrong.agree, figures.wrong.of)}`,
    `Verdicts dropped for a quote not found: ${figures.dropped}`,
    figures.tokens === null
      ? 'Tokens: no usage reported'
      : `Tokens per verdict, on average: ${Math.round(figures.tokens.input)} in, ${Math.round(figures.tokens.output)} out; ${
          figures.costPerVerdict === null || !price ? `no price recorded for ${model}` : `$${figures.costPerVerdict.toFixed(5)} a verdict at $${price.input} / $${price.output} per million${price.perRequest > 0 ? ` and $${price.perRequest} a request` : ''}`
        }`,
  ];
}

/** Each case judged in turn by `judge`, every call through callWithRetries as the runs make them. */
export async function judgeCases(judge: Judge, cases: readonly JudgedCase[], policy: CallPolicy, onEach?: (score: AnswerScore) => void): Promise<AnswerScore[]> {
  const scores: AnswerScore[] = [];
  for (const item of cases) {
    const outcome = await callWithRetries((signal) => judge.judge(item.input, signal), policy);
    const score = outcome.kind === 'answer' ? scoreAnswer(item, outcome.answer) : scoreAnswer(item, null, outcome.kind === 'failed' ? outcome.reason : outcome.kind);
    onEach?.(score);
    scores.push(score);
  }
  return scores;
}

/** A request one of the fakes received, with the provider it went to and the answer it held (null: none of them). */
export interface RecordedRequest {
  provider: AssistantId;
  answerId: string | null;
  request: ReceivedRequest;
}

/**
 * The cases judged on recorded verdicts: a fake of each provider's API answers each judge request
 * with the verdict recorded for the answer it holds, so the verdict goes through the real client
 * library as a real one would. With several providers the cases go to them in turn, each
 * provider's judge configured as ops would (its key, its base URL, JUDGE_PROVIDER), and each fake
 * answers in its own API's shape for structured output. Answers with no recorded verdict are left
 * out and counted. `model` names the models asked (a price is only found for one), `requests`
 * what the fakes received.
 */
export async function judgeRecorded(
  providers: AssistantId | readonly AssistantId[],
  cases: readonly JudgedCase[],
  recorded: ReadonlyMap<string, RawJudgement>,
): Promise<{ scores: AnswerScore[]; model: string; notRecorded: number; requests: RecordedRequest[] }> {
  const ids = typeof providers === 'string' ? [providers] : [...providers];
  const asked = cases.filter((item) => recorded.has(item.answer.id));
  const byAnswer = new Map(asked.map((item) => [JSON.stringify(item.input.answer).slice(1, -1), item.answer.id]));
  const answerOf = (request: ReceivedRequest) => {
    const body = JSON.stringify(request.body);
    return isJudgeRequest(request) ? ([...byAnswer].find(([text]) => body.includes(text))?.[1] ?? null) : null;
  };
  const fakes: FakeAssistant[] = [];
  try {
    for (const id of ids) {
      fakes.push(
        await startFakeAssistant(id, FAKE_KEYS[id], (request) => {
          const answerId = answerOf(request);
          const verdict = answerId === null ? undefined : recorded.get(answerId);
          return verdict === undefined ? { status: 400 } : { json: verdict };
        }),
      );
    }
    const judges = fakes.map((fake) => {
      const setting = loadConfig({ ...fakeEnvironment([fake]), JUDGE_PROVIDER: fake.id }).judge;
      if (setting === null) throw new Error(`no judge configured for ${fake.id}`);
      return createJudge(setting);
    });
    const policy: CallPolicy = { allowCall: () => true, clock: () => new Date(), sleep: async () => undefined, timeoutMs: 30_000 };
    const scores: AnswerScore[] = [];
    for (const [index, item] of asked.entries()) {
      const judge = judges[index % judges.length];
      if (judge) scores.push(...(await judgeCases(judge, [item], policy)));
    }
    return {
      scores,
      model: [...new Set(judges.map((judge) => judge.model))].join(', '),
      notRecorded: cases.length - asked.length,
      requests: fakes.flatMap((fake) => fake.requests.map((request) => ({ provider: fake.id, answerId: answerOf(request), request }))),
    };
  } finally {
    for (const fake of fakes) await fake.close();
  }
}

/** Whether a string names an assistant (JUDGE_PROVIDER's values). */
export const isAssistantId = (value: string | undefined): value is AssistantId => ASSISTANT_IDS.some((id) => id === value);
