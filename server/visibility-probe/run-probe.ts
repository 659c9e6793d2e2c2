import { probePrompts } from '../../shared/generated/probe-prompts';
import type { AssistantId } from './assistant-catalogue';
import { askWithRetries, type CallPolicy } from './ask';
import type { AssistantClient, RawAnswer } from './assistants';
import { CALL_TIMEOUT_MS } from './call-limits';
import { assembleReport, businessSought, keptReading, nothingToAsk, type ProbeAnswer, type ProbeReport, type SoughtBusiness } from './probe-report';
import { questionPlan, type BusinessDetails, type PlannedQuestion } from './prompts';
import { readAnswer, type CitedSource } from './who-is-named';

/** The most of an answer's text that is kept, read and shown; an answer asked for at most MAX_OUTPUT_TOKENS is shorter. */
export const MAX_ANSWER_CHARACTERS = 8_000;
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
  /** Told after each question is answered or given up, for a progress line. */
  onProgress?: (done: number, total: number) => void;
  /** Told the questions once they are made, before any is asked, each with the keyword and product it was made of. */
  onQuestions?: (planned: readonly PlannedQuestion[]) => void;
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

/** One assistant's answer to one question (its index in the report's prompts). */
export interface QuestionAnswer {
  assistant: AssistantId;
  question: number;
  answer: ProbeAnswer;
}

const DAILY_LIMIT = 'daily call limit (PROBE_DAILY_CALLS) reached';

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
  const answers = new Map<AssistantId, (ProbeAnswer | undefined)[]>(deps.assistants.map((assistant) => [assistant.id, []]));
  const rejected = new Set<AssistantId>();
  for (const { assistant, question, answer } of previous) {
    const list = answers.get(assistant);
    // Kept only where the question is still the same one (the templates may have changed since).
    if (!list || prompts[question] !== answer.prompt) continue;
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
      leftOut: plan.leftOut,
      assistants: deps.assistants.map((assistant) => ({
        id: assistant.id,
        model: assistant.model,
        error: rejected.has(assistant.id) ? 'key rejected' : null,
        answers: (answers.get(assistant.id) ?? []).filter((answer): answer is ProbeAnswer => answer !== undefined),
      })),
    });
  if (deps.assistants.length === 0) return report('skipped', 'not configured');
  if (brand === null && domain === null) return report('skipped', 'no brand or website to look for in the answers');
  if (prompts.length === 0) return report('skipped', nothingToAsk(plan.leftOut));

  deps.onQuestions?.(plan.planned);
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
  const all = prompts.flatMap((prompt, index) => deps.assistants.map((assistant) => ({ assistant, prompt, index })));
  const tasks = all.filter(({ assistant, index }) => answers.get(assistant.id)?.[index] === undefined);
  let next = 0;
  let done = all.length - tasks.length;
  const worker = async () => {
    for (let task = tasks[next++]; task !== undefined && stoppedBecause === null; task = tasks[next++]) {
      const { assistant, prompt, index } = task;
      if (rejected.has(assistant.id)) {
        done += 1;
        continue;
      }
      const askedAt = deps.clock().toISOString();
      const outcome = await askWithRetries(assistant, prompt, { ...policy, stillWanted: () => !rejected.has(assistant.id) });
      if (outcome.kind === 'limit reached') break;
      if (outcome.kind === 'not asked') {
        done += 1;
        continue;
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
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.concurrency ?? CONCURRENT_CALLS) }, worker));
  if (stoppedBecause !== null) return report(calls === 0 && tasks.length === all.length ? 'skipped' : 'stopped', stoppedBecause);
  return report('done', null);
}
