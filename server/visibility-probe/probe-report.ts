import type { VerifiedJudgement } from '../answer-check/judge';
import type { AssistantId } from './assistant-catalogue';
import type { BusinessName, NameSign } from '../business/business-name';
import { nameKey, siteOf } from '../business/names';
import { overallScore, scoreAssistant, type AssistantFigures } from './scoring';
import { readAnswer, type AnswerReading, type CitedSource } from './who-is-named';

/*
 * A probe's report as plain data, and the reports made without asking anyone. The server reads,
 * stores, mails and shows reports; only the probe's own process asks the assistants, so this
 * module, unlike run-probe.ts, loads none of their client libraries.
 */

/** Competitors and domains a report lists, the most named first. */
const MAX_LISTED = 20;

/** Who a probe looks for: the business's name as found, and its website as typed (either may be missing). */
export interface SoughtBusiness {
  /** The business's name, as its site gives it or as given; null: it is looked for by its site alone. */
  name: BusinessName | null;
  /** Its website as typed; null: by its name alone. */
  website: string | null;
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
  /**
   * What the answer judge made of it (a full run's answers about the business, a sample of each
   * assistant's): its verdicts whose quotes were found, or why there is none. Missing: not judged.
   */
  judgement?: AnswerJudgement;
}

/** The judge's verdict on one answer as kept, with the model that gave it; or why it gave none. */
export type AnswerJudgement = (VerifiedJudgement & { model: string | null }) | { error: string };

export interface AssistantReport extends AssistantFigures {
  id: AssistantId;
  /** The model asked for. */
  model: string;
  /** Questions put to it, failed ones included. */
  asked: number;
  /** Why its part ended early ("key rejected"); null when every question was put. */
  error: string | null;
  answers: ProbeAnswer[];
  /**
   * Its answers to the direct questions about the business (aboutPrompts), in their order: what it
   * tells a buyer who already has the name. Never in its figures, since each question names the
   * business itself. Missing from a report made without them.
   */
  aboutAnswers?: ProbeAnswer[];
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
   * Where `brand` was read (the signs of the home page that agree on it, or given with --brand); []
   * when there is none and only the site was searched for. Said wherever the name is shown, so
   * that a wrong name is seen at once. A report stored before names had more than one sign has
   * `nameSource` instead (signsOfStored reads both).
   */
  nameSigns: NameSign[];
  /** The home page's title the name was read from, or that gave none. */
  pageTitle: string | null;
  /** Names the page gives made only of the request's own words (BusinessName.typedNames): not searched for, never asked about. */
  typedNames?: string[];
  startedAt: string;
  finishedAt: string;
  prompts: string[];
  /** The direct questions about the business put to each assistant after `prompts` (a full audit's or a monitoring run's); missing or [] when none were. */
  aboutPrompts?: string[];
  /**
   * The keywords, products or customers the request gave that were not asked, since each names
   * the business itself (an assistant that names it then only repeats the question). Missing from
   * a report stored before it was kept.
   */
  leftOut?: string[];
  /** 0-100, the mean of the assistants' scores; null when no assistant answered. */
  score: number | null;
  assistants: AssistantReport[];
  /** The other businesses named, with the number of answers naming each, the most named first. */
  competitors: { name: string; count: number }[];
  /** The other domains written or cited, likewise. */
  domains: { domain: string; count: number }[];
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

/** What a report is made of: every answer of each assistant asked, and how the probe went. */
export interface ReportParts {
  status: ProbeReport['status'];
  reason: string | null;
  sought: Pick<ProbeReport, 'brand' | 'domain' | 'nameSigns' | 'pageTitle' | 'typedNames'>;
  startedAt: string;
  finishedAt: string;
  prompts: string[];
  aboutPrompts?: string[];
  leftOut: string[];
  assistants: { id: AssistantId; model: string; error: string | null; answers: ProbeAnswer[]; aboutAnswers?: ProbeAnswer[] }[];
}

/** A probe's report from its answers: each assistant's figures and score, the overall score, and who else the answers named. */
export function assembleReport(parts: ReportParts): ProbeReport {
  const assistants = parts.assistants.map(({ id, model, error, answers, aboutAnswers }): AssistantReport => ({
    id,
    model,
    asked: answers.length,
    error,
    ...scoreAssistant(answers.filter((answer) => answer.error === null)),
    answers,
    ...(aboutAnswers && aboutAnswers.length > 0 ? { aboutAnswers } : {}),
  }));
  const answered = assistants.flatMap((assistant) => assistant.answers.filter((answer) => answer.error === null));
  return {
    status: parts.status,
    reason: parts.reason,
    ...parts.sought,
    startedAt: parts.startedAt,
    finishedAt: parts.finishedAt,
    prompts: parts.prompts,
    ...(parts.aboutPrompts && parts.aboutPrompts.length > 0 ? { aboutPrompts: parts.aboutPrompts } : {}),
    leftOut: parts.leftOut,
    score: overallScore(assistants.map((assistant) => assistant.score)),
    assistants,
    competitors: tally(answered.map((answer) => answer.others), nameKey).map(({ value, count }) => ({ name: value, count })),
    domains: tally(answered.map((answer) => answer.otherDomains), (value) => value).map(({ value, count }) => ({ domain: value, count })),
  };
}

/**
 * The same report counted again under another name (the agency's correction, `--brand`): every
 * kept answer read again for who it names, with no call to any assistant. The questions, the
 * answers and how the probe went stay as they were asked.
 */
export function recountReport(report: ProbeReport, name: BusinessName): ProbeReport {
  const sought = businessSought({ name, website: report.domain });
  const identity = { brand: sought.brand, domain: report.domain };
  return assembleReport({
    ...report,
    sought: { ...sought, domain: report.domain, pageTitle: report.pageTitle },
    leftOut: report.leftOut ?? [],
    assistants: report.assistants.map(({ id, model, error, answers, aboutAnswers }) => {
      const reread = (answer: ProbeAnswer) => (answer.error !== null || answer.text === null ? answer : { ...answer, ...keptReading(readAnswer(answer.text, answer.sources, identity)) });
      return { id, model, error, answers: answers.map(reread), ...(aboutAnswers ? { aboutAnswers: aboutAnswers.map(reread) } : {}) };
    }),
  });
}

/**
 * Other businesses, and other domains, kept per answer, in the order it names them: a real
 * answer recommends a handful; an answer that lists thousands would make the report, which the
 * server parses to show and mail, as large as the answers themselves. Share of voice counts the
 * kept ones.
 */
const MAX_NAMES_KEPT = 50;

/** An answer's reading as it is kept: its lists of other businesses and domains capped. */
export function keptReading(reading: AnswerReading): AnswerReading {
  return { ...reading, others: reading.others.slice(0, MAX_NAMES_KEPT), otherDomains: reading.otherDomains.slice(0, MAX_NAMES_KEPT) };
}

/** The report of a probe whose process was ended before it reported, for the agency to ask by hand. */
export function failedReport(input: SoughtBusiness, reason: string, at: Date): ProbeReport {
  return reportWithoutAnswers('failed', input, reason, at);
}

/** The report of a probe that was not run at all (`reason` says why): nothing asked, no call spent. */
export function skippedReport(input: SoughtBusiness, reason: string, at: Date): ProbeReport {
  return reportWithoutAnswers('skipped', input, reason, at);
}

function reportWithoutAnswers(status: 'failed' | 'skipped', input: SoughtBusiness, reason: string, at: Date): ProbeReport {
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

/** Why a probe asks nothing: the request gave no words to make a question of, or every one it gave names the business. */
export function nothingToAsk(leftOut: readonly string[]): string {
  if (leftOut.length === 0) return 'nothing to ask: the request gives no keywords, products or customer to make a question of';
  const parts = leftOut.slice(0, 5).map((part) => `"${part}"`).join(', ');
  return `nothing to ask: every keyword, product and customer the request gives names the business itself (${parts}), and a question that names it cannot show whether an assistant would`;
}

/** The business the answers are searched for: its name (null when it has no letter or digit), its site, and where the name was read. */
export function businessSought(input: SoughtBusiness): Pick<ProbeReport, 'brand' | 'domain' | 'nameSigns' | 'pageTitle' | 'typedNames'> {
  const given = input.name?.name?.trim() ?? '';
  const brand = given !== '' && nameKey(given) !== '' ? given.slice(0, 100) : null;
  const domain = input.website ? siteOf(input.website) : null;
  const typedNames = input.name?.typedNames ?? [];
  return { brand, domain, nameSigns: brand !== null ? (input.name?.signs ?? []) : [], pageTitle: input.name?.title ?? null, ...(typedNames.length > 0 ? { typedNames } : {}) };
}
