import { probePrompts } from '../../shared/generated/probe-prompts';
import type { AssistantId } from './assistant-catalogue';
import { answersToJudge } from '../answer-check/judge-sample';
import { verifiedJudgement, type Judge, type JudgeInput } from '../answer-check/judge';
import type { BusinessFacts } from '../business/business-facts';
import { askWithRetries, callWithRetries, type CallPolicy } from './ask';
import type { AssistantClient, RawAnswer } from './assistants';
import { CALL_TIMEOUT_MS, MAX_ANSWER_CHARACTERS } from './call-limits';
import { assembleReport, businessSought, keptReading, nothingToAsk, type AnswerJudgement, type ProbeAnswer, type ProbeReport, type SoughtBusiness } from './probe-report';
import { aboutQuestions, questionPlan, type BusinessDetails, type PlannedQuestion } from './prompts';
import { readAnswer, type CitedSource } from './who-is-named';

/** Cited pages kept per answer, and the longest address and title kept. */
export const MAX_SOURCES = 20;
const MAX_URL_LENGTH = 2_048;
const MAX_TITLE_LENGTH = 200;
/** Calls under way at once, all assistants together. */
const CONCURRENT_CALLS = 4;

export interface ProbeInput extends SoughtBusiness {
  business: BusinessDetails;
  /** The person's name and e-mail address: never sent, even when typed into a business field. */
  personal: string[];
  /** The town the business's own site gives for it (its site check's facts), for the direct questions; null or missing: none. */
  town?: string | null;
}

/** A run's answer judge, and the business's facts from its site check that it judges against. */
interface Judging {
  judge: Judge;
  facts: BusinessFacts;
}

export interface ProbeDeps {
  /** The configured assistants' clients (createAssistantClient for each of config.probe.assistants). */
  assistants: readonly AssistantClient[];
  /** PROBE_PROMPTS */
  promptsPerAssistant: number;
  /**
   * Asked before every call, retries included: true counts the call and lets it go; false means
   * the day's calls (PROBE_DAILY_CALLS) are used up, and the probe stops there.
   */
  allowCall: () => boolean | Promise<boolean>;
  clock: () => Date;
  /** Waits before a retry; tests pass one that returns at once. */
  sleep?: (ms: number) => Promise<void>;
  callTimeoutMs?: number;
  concurrency?: number;
  /** The question templates; those of content/probe-prompts.yaml by default. */
  templates?: readonly string[];
  /**
   * Direct questions about the business put to each assistant after the others (AUDIT_FACT_PROMPTS;
   * none by default, as for a lead's instant probe). Their answers are kept apart from the figures.
   */
  aboutCount?: number;
  /** Their templates; content/probe-prompts.yaml's aboutTemplates by default. */
  aboutTemplates?: readonly string[];
  /**
   * Reads a sample of each assistant's answers about the business once every question is asked
   * (answersToJudge), each reading one call through the same budget; its verdict is kept on the
   * answer. A full run's only: a lead's instant probe judges nothing.
   */
  judging?: Judging;
  /** Told after each question is answered or given up, for a progress line. */
  onProgress?: (done: number, total: number) => void;
  /** Told the questions once they are made, before any is asked, each with the keyword and product it was made of. */
  onQuestions?: (planned: readonly PlannedQuestion[], about: readonly string[]) => void;
  /** Told of each answer (or failure) as it arrives, so that it can be kept before the probe ends. */
  onAnswer?: (answer: QuestionAnswer) => void;
  /**
   * What an earlier start of the same run already had (an audit run resumed after a restart):
   * those questions are not asked again, and their answers are in the report.
   */
  previous?: readonly QuestionAnswer[];
  /** The questions to ask, fixed beforehand (a monitored client's, the same each run: all of them, whatever promptsPerAssistant says); by default made from the business's words. */
  questions?: readonly PlannedQuestion[];
}

/** One assistant's answer to one question: its index in the report's prompts, then in its aboutPrompts (numbered on after the prompts). */
export interface QuestionAnswer {
  assistant: AssistantId;
  question: number;
  answer: ProbeAnswer;
  /** The same answer again, now with the judge's verdict: kept in its place, not counted as a new answer. */
  judged?: true;
}

const DAILY_LIMIT = 'daily call limit (PROBE_DAILY_CALLS) reached';

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Works through `tasks`, `concurrency` at a time, each task once, taking no new one once `going` says no. */
async function inTurn<T>(tasks: readonly T[], concurrency: number, going: () => boolean, work: (task: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let task = tasks[next++]; task !== undefined && going(); task = tasks[next++]) await work(task);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** What the judging of a run's answers works on: the probe's answers (by assistant, visibility questions first) and how it calls. */
interface JudgingRound {
  answers: Map<AssistantId, (ProbeAnswer | undefined)[]>;
  prompts: readonly string[];
  concurrency: number;
  going: () => boolean;
  policy: CallPolicy;
  onAnswer: ((answer: QuestionAnswer) => void) | undefined;
  subject: Pick<JudgeInput, 'name' | 'site' | 'town'>;
}

/**
 * Judges the sample of each assistant's answers that has no verdict yet (a run resumed judges only
 * the rest): one call each, through the run's budget, its verdict kept on the answer only where its
 * quotes are found (verifiedJudgement). A judge whose key is refused judges nothing more this run;
 * the day's calls running out leave the rest for when the run goes on.
 */
async function judgeAnswers(judging: Judging, round: JudgingRound): Promise<void> {
  const { judge, facts } = judging;
  const split = round.prompts.length;
  const tasks = [...round.answers].flatMap(([assistant, list]) =>
    answersToJudge(list.slice(split), list.slice(0, split)).flatMap(({ list: where, index }) => {
      const question = where === 'about' ? split + index : index;
      const answer = list[question];
      return answer && answer.judgement === undefined ? [{ assistant, question, answer }] : [];
    }),
  );
  let refused = false;
  await inTurn(tasks, round.concurrency, () => round.going() && !refused, async ({ assistant, question, answer }) => {
    const text = answer.text ?? '';
    const outcome = await callWithRetries((signal) => judge.judge({ ...round.subject, facts, answer: text }, signal), { ...round.policy, stillWanted: () => !refused });
    if (outcome.kind === 'limit reached' || outcome.kind === 'not asked') return;
    if (outcome.kind === 'key rejected') refused = true;
    const judgement: AnswerJudgement =
      outcome.kind === 'answer'
        ? { ...verifiedJudgement(outcome.answer, text, facts.text), model: outcome.answer.model }
        : { error: outcome.kind === 'key rejected' ? "the judge's key was rejected" : outcome.reason };
    const judged = { ...answer, judgement };
    const list = round.answers.get(assistant);
    if (list) list[question] = judged;
    round.onAnswer?.({ assistant, question, answer: judged, judged: true });
  });
}

/** An answer as it is kept: its length capped, its sources few, short and http(s) only. */
function keptAnswer(raw: RawAnswer): { text: string; sources: CitedSource[]; model: string | null } {
  const sources: CitedSource[] = [];
  for (const source of raw.sources) {
    if (sources.length >= MAX_SOURCES) break;
    if (source.url.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(source.url) || sources.some((kept) => kept.url === source.url)) continue;
    sources.push({ url: source.url, title: source.title === null ? null : source.title.slice(0, MAX_TITLE_LENGTH) });
  }
  // A copy of the kept part: V8's slice of a long string keeps the whole string alive, and a
  // probe keeps every answer until it ends (50 answers of 2 MB would be 100 MB).
  return { text: structuredClone(raw.text.slice(0, MAX_ANSWER_CHARACTERS)), sources, model: raw.model?.slice(0, 100) ?? null };
}

/**
 * Runs one probe: the same questions to every configured assistant, a few calls at once, each
 * with a timeout and retried on a 429 or a 5xx; a rejected key ends that assistant's part while
 * the others go on; the call budget ends the whole probe. Never throws: a failure is in the report.
 */
export async function runProbe(input: ProbeInput, deps: ProbeDeps): Promise<ProbeReport> {
  const previous = deps.previous ?? [];
  // A resumed run began when its first question was asked.
  const startedAt = [deps.clock().toISOString(), ...previous.map(({ answer }) => answer.askedAt)].sort()[0] ?? '';
  const sought = businessSought(input);
  const { brand, domain } = sought;
  const plan = deps.questions
    ? { planned: [...deps.questions], leftOut: [] }
    : questionPlan(input.business, {
        count: deps.promptsPerAssistant,
        templates: deps.templates ?? probePrompts.templates,
        brand,
        domain,
        personal: input.personal,
        alsoNames: sought.typedNames ?? [],
      });
  const prompts = plan.planned.map((planned) => planned.question);
  const aboutPrompts = aboutQuestions({ brand, domain, town: input.town ?? null }, deps.aboutCount ?? 0, deps.aboutTemplates ?? probePrompts.aboutTemplates);
  // Asked after the visibility questions, and kept under the numbers after theirs.
  const asked = [...prompts, ...aboutPrompts];
  const answers = new Map<AssistantId, (ProbeAnswer | undefined)[]>(deps.assistants.map((assistant) => [assistant.id, []]));
  const rejected = new Set<AssistantId>();
  for (const { assistant, question, answer } of previous) {
    const list = answers.get(assistant);
    // Kept only where the question is still the same one (the templates may have changed since).
    if (!list || asked[question] !== answer.prompt) continue;
    list[question] = answer;
    if (answer.error === 'key rejected') rejected.add(assistant);
  }
  /** Why the probe stopped before its last question (the day's calls used up, or not countable); null while it goes on. */
  let stoppedBecause: string | null = null;
  let calls = 0;

  const report = (status: ProbeReport['status'], reason: string | null): ProbeReport =>
    assembleReport({
      status,
      reason,
      sought,
      startedAt,
      finishedAt: deps.clock().toISOString(),
      prompts,
      aboutPrompts,
      leftOut: plan.leftOut,
      assistants: deps.assistants.map((assistant) => {
        const given = answers.get(assistant.id) ?? [];
        const kept = (list: (ProbeAnswer | undefined)[]) => list.filter((answer): answer is ProbeAnswer => answer !== undefined);
        return {
          id: assistant.id,
          model: assistant.model,
          error: rejected.has(assistant.id) ? 'key rejected' : null,
          answers: kept(given.slice(0, prompts.length)),
          aboutAnswers: kept(given.slice(prompts.length)),
        };
      }),
    });
  if (deps.assistants.length === 0) return report('skipped', 'not configured');
  if (brand === null && domain === null) return report('skipped', 'no brand or website to look for in the answers');
  if (prompts.length === 0) return report('skipped', nothingToAsk(plan.leftOut));

  deps.onQuestions?.(plan.planned, aboutPrompts);
  const policy: CallPolicy = {
    allowCall: async () => {
      if (stoppedBecause !== null) return false;
      try {
        if (!(await deps.allowCall())) stoppedBecause ??= DAILY_LIMIT;
      } catch (error) {
        // The count refused (the database held by another program): that call is not made, and
        // the probe ends with the answers it has, rather than losing every call it paid for.
        stoppedBecause ??= error instanceof Error ? error.message : String(error);
      }
      // Once stopped, it stays stopped: with calls asked for at once, one may be allowed after
      // another was refused (a new UTC day begun between the two); it is not made.
      if (stoppedBecause !== null) return false;
      calls += 1;
      return true;
    },
    clock: deps.clock,
    sleep: deps.sleep ?? realSleep,
    timeoutMs: deps.callTimeoutMs ?? CALL_TIMEOUT_MS,
  };
  // Question by question, each to every assistant in turn: a probe stopped part way has asked
  // every assistant about as much.
  const all = asked.flatMap((prompt, index) => deps.assistants.map((assistant) => ({ assistant, prompt, index })));
  const tasks = all.filter(({ assistant, index }) => answers.get(assistant.id)?.[index] === undefined);
  const concurrency = Math.max(1, deps.concurrency ?? CONCURRENT_CALLS);
  const going = () => stoppedBecause === null;
  let done = all.length - tasks.length;
  await inTurn(tasks, concurrency, going, async ({ assistant, prompt, index }) => {
    if (rejected.has(assistant.id)) {
      done += 1;
      return;
    }
    const askedAt = deps.clock().toISOString();
    const outcome = await askWithRetries(assistant, prompt, { ...policy, stillWanted: () => !rejected.has(assistant.id) });
    if (outcome.kind === 'limit reached') return;
    if (outcome.kind === 'not asked') {
      done += 1;
      return;
    }
    const notAnswered = { named: false, position: null, others: [], otherDomains: [], citesOwnSite: false, text: null, sources: [], model: null };
    let answer: ProbeAnswer;
    if (outcome.kind === 'answer') {
      const kept = keptAnswer(outcome.answer);
      const reading = readAnswer(kept.text, kept.sources, { brand, domain });
      answer = { prompt, askedAt, ...kept, ...keptReading(reading), error: null };
    } else {
      if (outcome.kind === 'key rejected') rejected.add(assistant.id);
      answer = { prompt, askedAt, ...notAnswered, error: outcome.kind === 'key rejected' ? 'key rejected' : outcome.reason };
    }
    const list = answers.get(assistant.id);
    if (list) list[index] = answer;
    deps.onAnswer?.({ assistant: assistant.id, question: index, answer });
    done += 1;
    deps.onProgress?.(done, all.length);
  });
  if (deps.judging && going()) await judgeAnswers(deps.judging, { answers, prompts, concurrency, going, policy, onAnswer: deps.onAnswer, subject: { name: brand, site: domain, town: input.town ?? null } });
  if (stoppedBecause !== null) return report(calls === 0 && tasks.length === all.length ? 'skipped' : 'stopped', stoppedBecause);
  return report('done', null);
}
