import { probePrompts } from '../../shared/generated/probe-prompts';
import type { AssistantId } from './assistant-catalogue';
import { askWithRetries, CALL_TIMEOUT_MS, type CallPolicy } from './ask';
import type { AssistantClient, RawAnswer } from './assistants';
import type { BusinessName, NameSource } from './business-name';
import { nameKey, siteOf } from './names';
import { buildQuestions, type BusinessDetails } from './prompts';
import { overallScore, scoreAssistant, type AssistantFigures } from './scoring';
import { readAnswer, type AnswerReading, type CitedSource } from './who-is-named';

/** The most of an answer's text that is kept, read and shown; an answer asked for at most MAX_OUTPUT_TOKENS is shorter. */
export const MAX_ANSWER_CHARACTERS = 8_000;
/** Cited pages kept per answer, and the longest address and title kept. */
export const MAX_SOURCES = 20;
const MAX_URL_LENGTH = 2_048;
/**
 * Other businesses, and other domains, kept per answer, in the order it names them: a real
 * answer recommends a handful; an answer that lists thousands would make the report, which the
 * server parses to show and mail, as large as the answers themselves. Share of voice counts the
 * kept ones.
 */
const MAX_NAMES_KEPT = 50;
const MAX_TITLE_LENGTH = 200;
/** Calls under way at once, all assistants together. */
const CONCURRENT_CALLS = 4;
/** Competitors and domains a report lists, the most named first. */
const MAX_LISTED = 20;

export interface ProbeInput {
  business: BusinessDetails;
  /** The business's name, as its site gives it or as given; null: it is looked for by its site alone. */
  name: BusinessName | null;
  /** Its website as typed; null: by its name alone. */
  website: string | null;
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
  /** Told the questions once they are made, before any is asked. */
  onQuestions?: (prompts: readonly string[]) => void;
  /** Told of each answer (or failure) as it arrives, so that it can be kept before the probe ends. */
  onAnswer?: (answer: QuestionAnswer) => void;
  /**
   * What an earlier start of the same run already had (an audit run resumed after a restart):
   * those questions are not asked again, and their answers are in the report.
   */
  previous?: readonly QuestionAnswer[];
  /** The questions to ask, fixed beforehand (a monitored client's, the same each run: all of them, whatever promptsPerAssistant says); by default made from the business's words. */
  questions?: readonly string[];
}

/** One assistant's answer to one question (its index in the report's prompts). */
export interface QuestionAnswer {
  assistant: AssistantId;
  question: number;
  answer: ProbeAnswer;
}

export interface ProbeAnswer extends AnswerReading {
  prompt: string;
  askedAt: string;
  /** The model that answered, as the API names it. */
  model: string | null;
  /** The answer as the assistant wrote it, cut at MAX_ANSWER_CHARACTERS: untrusted text, to be escaped wherever it is shown. */
  text: string | null;
  sources: CitedSource[];
  /** Why there is no answer; null when there is one. */
  error: string | null;
}

export interface AssistantReport extends AssistantFigures {
  id: AssistantId;
  /** The model asked for. */
  model: string;
  /** Questions put to it, failed ones included. */
  asked: number;
  /** Why its part ended early ("key rejected"); null when every question was put. */
  error: string | null;
  answers: ProbeAnswer[];
}

/**
 * One probe: stored beside the lead, mailed to the agency, printed by `npm run probe`. Plain data
 * (JSON in, JSON out).
 */
export interface ProbeReport {
  /**
   * done: every question asked that could be; stopped: the day's calls ran out part way, or could
   * not be counted (the reason says which), and the answers before are kept; skipped: nothing asked; failed: the probe's process was ended before it reported (the reason says
   * why), and nothing of its answers is kept.
   */
  status: 'done' | 'stopped' | 'skipped' | 'failed';
  reason: string | null;
  /** The name the answers were searched for, word by word. */
  brand: string | null;
  /** The site they were searched for (siteOf): a domain, or a page on a platform ("facebook.com/acme"). */
  domain: string | null;
  /**
   * Where `brand` came from; 'domain' when there is none and only the site was searched for; null
   * with neither. Said in the agency's mail, so that a wrong name is seen at once.
   */
  nameSource: NameSource | null;
  /** The home page's title the name was read from, or that gave none. */
  pageTitle: string | null;
  startedAt: string;
  finishedAt: string;
  prompts: string[];
  /** 0-100, the mean of the assistants' scores; null when no assistant answered. */
  score: number | null;
  assistants: AssistantReport[];
  /** The other businesses named, with the number of answers naming each, the most named first. */
  competitors: { name: string; count: number }[];
  /** The other domains written or cited, likewise. */
  domains: { domain: string; count: number }[];
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

/** Names (or domains) across all answers, each counted once an answer, the most named first. */
export function tally(lists: string[][], key: (value: string) => string): { value: string; count: number }[] {
  const counts = new Map<string, { value: string; count: number }>();
  for (const list of lists) {
    // Each key once an answer, shown as the answer first wrote it: one pass, however long the list.
    const firstWritten = new Map<string, string>();
    for (const item of list) {
      const value = key(item);
      if (!firstWritten.has(value)) firstWritten.set(value, item);
    }
    for (const [value, shown] of firstWritten) {
      const entry = counts.get(value) ?? { value: shown, count: 0 };
      entry.count += 1;
      counts.set(value, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count).slice(0, MAX_LISTED);
}

/** The report of a probe whose process was ended before it reported, for the agency to ask by hand. */
export function failedReport(input: Pick<ProbeInput, 'name' | 'website'>, reason: string, at: Date): ProbeReport {
  return reportWithoutAnswers('failed', input, reason, at);
}

/** The report of a probe that was not run at all (`reason` says why): nothing asked, no call spent. */
export function skippedReport(input: Pick<ProbeInput, 'name' | 'website'>, reason: string, at: Date): ProbeReport {
  return reportWithoutAnswers('skipped', input, reason, at);
}

function reportWithoutAnswers(status: 'failed' | 'skipped', input: Pick<ProbeInput, 'name' | 'website'>, reason: string, at: Date): ProbeReport {
  const when = at.toISOString();
  return { status, reason, ...businessSought(input), startedAt: when, finishedAt: when, prompts: [], score: null, assistants: [], competitors: [], domains: [] };
}

/**
 * Why an audit request's probe was not run: the client address it came from had started as many
 * probes in the last 24 hours as its share of PROBE_DAILY_CALLS pays for.
 */
export function addressShareUsed(probesPerDay: number): string {
  const probes = `${probesPerDay} probe${probesPerDay === 1 ? '' : 's'}`;
  return `one address may have ${probes} in 24 hours (a fifth of PROBE_DAILY_CALLS), and this request's address had had ${probesPerDay === 1 ? 'it' : 'them'}`;
}

/** The business the answers are searched for: its name (null when it has no letter or digit), its site, and where the name came from. */
function businessSought(input: Pick<ProbeInput, 'name' | 'website'>): Pick<ProbeReport, 'brand' | 'domain' | 'nameSource' | 'pageTitle'> {
  const given = input.name?.name?.trim() ?? '';
  const brand = given !== '' && nameKey(given) !== '' ? given.slice(0, 100) : null;
  const domain = input.website ? siteOf(input.website) : null;
  const nameSource = brand !== null ? (input.name?.source ?? null) : domain !== null ? 'domain' : null;
  return { brand, domain, nameSource, pageTitle: input.name?.title ?? null };
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
  const prompts = deps.questions
    ? [...deps.questions]
    : buildQuestions(input.business, {
        count: deps.promptsPerAssistant,
        templates: deps.templates ?? probePrompts.templates,
        brand,
        domain,
        personal: input.personal,
      });
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

  const report = (status: ProbeReport['status'], reason: string | null): ProbeReport => {
    const assistants = deps.assistants.map((assistant): AssistantReport => {
      const asked = (answers.get(assistant.id) ?? []).filter((answer): answer is ProbeAnswer => answer !== undefined);
      const answered = asked.filter((answer) => answer.error === null);
      return { id: assistant.id, model: assistant.model, asked: asked.length, error: rejected.has(assistant.id) ? 'key rejected' : null, ...scoreAssistant(answered), answers: asked };
    });
    const answered = assistants.flatMap((assistant) => assistant.answers.filter((answer) => answer.error === null));
    return {
      status,
      reason,
      ...sought,
      startedAt,
      finishedAt: deps.clock().toISOString(),
      prompts,
      score: overallScore(assistants.map((assistant) => assistant.score)),
      assistants,
      competitors: tally(answered.map((answer) => answer.others), nameKey).map(({ value, count }) => ({ name: value, count })),
      domains: tally(answered.map((answer) => answer.otherDomains), (value) => value).map(({ value, count }) => ({ domain: value, count })),
    };
  };
  if (deps.assistants.length === 0) return report('skipped', 'not configured');
  if (brand === null && domain === null) return report('skipped', 'no brand or website to look for in the answers');
  if (prompts.length === 0) return report('skipped', 'nothing to ask: the request gives no keywords, products or customer to make a question of');

  deps.onQuestions?.(prompts);
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
        answer = { prompt, askedAt, ...kept, ...reading, others: reading.others.slice(0, MAX_NAMES_KEPT), otherDomains: reading.otherDomains.slice(0, MAX_NAMES_KEPT), error: null };
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
