import type { AssistantId } from '../../visibility-probe/assistant-catalogue';
import type { ProbeReport } from '../../visibility-probe/probe-report';
import type { Tone } from '../../answer-check/verdicts';
import type { AuditDocument, SampleCount, WrongFactKind } from '../audit/audit-document';

/**
 * Monthly monitoring of a client: the same fixed questions each run, and the trend over the runs
 * of one series (a series ends when the client's questions change: runs of different questions do
 * not compare). A run is composed like a full audit (its AuditDocument) and keeps beside it the
 * few facts the trend needs question by question. The trend page only lays a TrendDocument out;
 * the agency's mail after a run says its changes in the same words.
 */

/** What one monitoring run keeps beside its AuditDocument for the trend (small: no answer texts). */
export interface MonitorRunFacts {
  /** Per question, in the client's fixed order: the assistants that answered it, and those of them whose answer named the business. */
  questions: { question: string; answeredBy: AssistantId[]; namedBy: AssistantId[] }[];
  /**
   * Every other business named, one entry per name key (the first way it was written), with the
   * answers naming it and the assistants whose answers named it. Facts kept before the assistants
   * were recorded have no `assistants`: such a competitor is compared as if every assistant could
   * have named it (as the trend compared them then).
   */
  competitors: { key: string; name: string; answers: number; assistants?: AssistantId[] }[];
}

/** One stored run, as the trend is composed from it. */
export interface TrendRunInput {
  id: number;
  /** The client's question series the run asked (1 for the questions fixed when the client was added). */
  series: number;
  /** When the run ended (ISO 8601). */
  madeAt: string;
  document: AuditDocument;
  facts: MonitorRunFacts;
}

export interface TrendInput {
  client: { label: string; name: string | null; site: string | null };
  /** The client's finished runs, any order, any series (a run's process is given the latest few of its series only). */
  runs: TrendRunInput[];
  /** Finished runs of earlier series left out of `runs`, which the trend counts as not compared. */
  earlierSeriesRuns?: number;
}

/**
 * What the change test of one assistant rests on: the questions it answered in both runs, and of
 * those, how many named the business both times, before only (b) and now only (c). Those named
 * neither time are the rest of `questions`.
 */
export interface PairedQuestions {
  questions: number;
  namedBoth: number;
  namedBeforeOnly: number;
  namedNowOnly: number;
}

/** Whether an assistant's naming of the business moved between two runs more than the usual variation of its answers. */
export interface ChangeVerdict {
  /** 'rise' and 'fall' are real changes at the stated test's level; 'same' is within the usual variation. */
  verdict: 'rise' | 'fall' | 'same';
  /** The counts a person reads: answers naming the business, out of the answers each run gave. */
  before: SampleCount;
  now: SampleCount;
  /** The paired test's two-sided p-value (McNemar's exact test; 1 when no question answered both times changed). */
  pValue: number;
  /** What the test rests on (absent from trends stored before the test was paired). */
  paired?: PairedQuestions;
}

export interface AssistantChange extends ChangeVerdict {
  assistant: AssistantId;
  label: string;
  /** As a person reads it: "ChatGPT named you in 17 of 50 (was 12 of 50): within the usual variation." */
  sentence: string;
}

export interface TrendDocument {
  version: 1;
  client: { label: string; name: string | null; site: string | null };
  /** The latest run in full (null: no run has finished yet). */
  latest: AuditDocument | null;
  /** The series the trend covers (the latest run's), when it began, and how many earlier runs asked other questions (not compared). */
  series: { number: number; since: string | null; earlierRuns: number };
  /** The series' runs, oldest first: the line chart's points and its table's rows. */
  runs: {
    id: number;
    madeAt: string;
    visibilityScore: number | null;
    readinessScore: number | null;
    perAssistant: { assistant: AssistantId; label: string; named: SampleCount }[];
  }[];
  /** The latest run against the one before it, per assistant asked in both; real changes first. Empty with one run. */
  changes: AssistantChange[];
  /** The business and the competitors named most over the series, each one's share of voice run by run (aligned with `runs`). */
  shareOfVoice: { name: string; isBusiness: boolean; perRun: (number | null)[] }[];
  /** Competitors named in the latest run and in none of the one before (new), and the other way round (gone). */
  competitorsNew: { name: string; answers: number }[];
  competitorsGone: { name: string; answers: number }[];
  /** Questions some assistant named the business for in the latest run and none did the run before (won), and the other way round (lost). */
  questionsWon: { question: string; assistants: AssistantId[] }[];
  questionsLost: { question: string; assistants: AssistantId[] }[];
  /** What the assistants say about the client, run by run, and what was put right; missing from a trend stored before it was kept. */
  said?: SaidOverTime;
}

/**
 * What the assistants say about the client over the series: per run (aligned with `runs`; null
 * for a run made without it), the wrong facts they gave and the tone of the answers judged; the
 * latest run's wrong facts (each new or given the run before too), and those of the run before
 * that an assistant, asked about the client again, no longer gives: put right.
 */
export interface SaidOverTime {
  perRun: ({ wrong: number; tone: Record<Tone, number>; judged: number } | null)[];
  wrongNow: (TrendFact & { new: boolean })[];
  putRight: TrendFact[];
}

/** A wrong fact as the trend lists it: whose, what about, the assistant's words and the site's. */
export interface TrendFact {
  assistant: AssistantId;
  label: string;
  kind: WrongFactKind;
  said: string | null;
  says: string;
  siteSays: string | null;
}

/** The facts a monitoring run keeps, from its probe's full report. */
export type MonitorFactsOf = (probe: ProbeReport) => MonitorRunFacts;
/** The trend of a client from its stored runs (pure). */
export type ComposeTrend = (input: TrendInput) => TrendDocument;
