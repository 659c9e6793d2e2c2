import { BackgroundProcessEnded, builtProcessFile, runBackgroundProcess } from '../background-process';
import type { BackgroundPriority, ProbeAssistantSetting } from '../config';
import type { TrendRunInput } from '../reports/monitor/trend-document';
import type { RunFigures } from '../reports/run-outcome';
import type { SiteCheckReport } from '../site-check/check-report';
import { assistantStart, PROBE_SILENCE_LIMIT_MS, PROBE_STUCK, type AssistantStart, type CallAnswer } from '../visibility-probe/prober';
import type { PlannedQuestion } from '../visibility-probe/prompts';
import type { ProbeInput } from '../visibility-probe/run-probe';
import type { StoredAnswer } from './run-store';

/**
 * The heap a run's process may use: up to 100 questions to each of four assistants, every answer
 * kept (at most MAX_ANSWER_CHARACTERS of text and a few sources each) until the report is composed
 * from them, and four answers being read at once.
 */
const RUN_HEAP_MB = 256;

/** What the agency reads when a run's process had to be ended. */
const RUN_TOO_LARGE = "the assistants' answers took more memory to read than a run may use";

/** What a client's run composes beside its report: its trend, from the client's earlier runs of the series (capped) and this one. */
export interface TrendWork {
  client: { label: string; name: string | null; site: string | null };
  series: number;
  /** The run's id, and the client's earlier finished runs of its series, the latest few. */
  runId: number;
  earlier: TrendRunInput[];
  /** Finished runs of earlier series, not compared (the trend says how many). */
  earlierSeriesRuns: number;
}

/** What a run's process is sent first: the keys travel here, never in its arguments or environment. */
export interface RunStart {
  kind: 'start';
  assistants: AssistantStart[];
  /** The answer judge (JUDGE_PROVIDER, JUDGE_MODEL); null: none. */
  judge: AssistantStart | null;
  promptsPerAssistant: number;
  /** AUDIT_FACT_PROMPTS: the direct questions about the business put to each assistant after the others. */
  aboutPrompts: number;
  input: ProbeInput;
  /** The run's own site check (null: the site could not be checked). */
  check: SiteCheckReport | null;
  /** The answers an earlier start of this run kept: not asked again. */
  previous: StoredAnswer[];
  /** The questions, fixed beforehand (a client's) or kept from an earlier start: asked as they are. */
  questions?: PlannedQuestion[];
  /** A client's run: the facts its trend compares, and the trend itself, are composed with its report. */
  trend?: TrendWork;
  /** The caller's clock when the run started (ISO 8601); the process's own clock runs on from there. */
  startedAt: string;
  callTimeoutMs?: number;
}

/** What a run's process says: the questions, each call it would make (the parent counts it), each answer as it arrives, then the report or why there is none. */
export type RunMessage =
  | { kind: 'may-call'; request: number }
  /** The questions made, and how many direct questions about the business follow them. */
  | { kind: 'questions'; questions: PlannedQuestion[]; about: number }
  /** An answer as it arrives; `judged`: the same answer again with the judge's verdict, kept in its place. */
  | { kind: 'answer'; answer: StoredAnswer; judged?: true }
  | { kind: 'report'; report: RunReport }
  | { kind: 'failed'; reason: string };

/** A run's end as its process reported it: the report (AuditDocument JSON, not parsed here), its figures, and a client's facts and trend (JSON). */
export interface RunReport {
  document: string;
  figures: RunFigures;
  facts?: string;
  trend?: string;
}

export interface RunnerOptions {
  /** The configured assistants (config.probe.assistants). */
  assistants: readonly ProbeAssistantSetting[];
  /** AUDIT_PROMPTS: questions an audit's run makes for each assistant, at most (a client's are fixed). */
  promptsPerAssistant: number;
  /** AUDIT_FACT_PROMPTS */
  aboutPrompts: number;
  /** The answer judge (config.judge); null: the answers are not judged. */
  judge: ProbeAssistantSetting | null;
  clock: () => Date;
  callTimeoutMs?: number;
  /** The code each run's process runs; the built one by default. */
  runFile?: string;
  /** BACKGROUND_PRIORITY (idle by default). */
  priority?: BackgroundPriority;
}

interface RunCallbacks {
  /** Asked before every call: true counts the call; false, the run asks no more; a throw stops its questions there. */
  allowCall: () => boolean | Promise<boolean>;
  /** Told the questions, once they are made. */
  onQuestions: (questions: PlannedQuestion[], about: number) => void;
  /** Told of each answer as it arrives, to be kept at once; again (`judged`) once the judge has read it. */
  onAnswer: (answer: StoredAnswer, judged: boolean) => void;
  signal?: AbortSignal;
}

export interface Runner {
  /** Asks one run's questions and composes its report; rejects with the reason when its process failed, was ended or was stopped. */
  run(work: Pick<RunStart, 'input' | 'check' | 'previous' | 'questions' | 'trend'>, callbacks: RunCallbacks): Promise<RunReport>;
}

/**
 * Runs each run's questions in a process of its own, as the lead's probe runs its own (prober.ts):
 * at idle priority, apart from the pages, with a heap limit, ended when it goes silent for longer
 * than a call takes. The process also composes the report (and a client's trend) from the answers,
 * where they are, and sends back only what is stored: the answers, megabytes at 100 questions, are
 * never parsed on the thread that serves pages.
 */
export function createRunner(options: RunnerOptions): Runner {
  const runFile = options.runFile ?? builtProcessFile('run-process');
  const reasonFor = (error: BackgroundProcessEnded) =>
    error.end === 'silent' || error.end === 'deadline'
      ? PROBE_STUCK
      : error.end === 'out of memory'
        ? RUN_TOO_LARGE
        : error.end === 'not started'
          ? `the run could not start: ${error.message}`
          : 'the run stopped before it had a report';

  return {
    run: async (work, { allowCall, onQuestions, onAnswer, signal }) => {
      const start: RunStart = {
        kind: 'start',
        assistants: options.assistants.map(assistantStart),
        judge: options.judge === null ? null : assistantStart(options.judge),
        promptsPerAssistant: options.promptsPerAssistant,
        aboutPrompts: options.aboutPrompts,
        ...work,
        startedAt: options.clock().toISOString(),
        ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
      };
      try {
        return await runBackgroundProcess<RunReport, RunMessage, CallAnswer>({
          file: runFile,
          heapMb: RUN_HEAP_MB,
          start,
          silenceMs: PROBE_SILENCE_LIMIT_MS,
          ...(options.priority ? { priority: options.priority } : {}),
          ...(signal ? { signal } : {}),
          onMessage: (message, run) => {
            if (message.kind === 'may-call') {
              // Counted as the server counts every call; a count the database refuses for a moment is tried again, not a stop.
              Promise.resolve()
                .then(allowCall)
                .then(
                  (allowed) => run.reply({ kind: 'call', request: message.request, allowed }),
                  (error: unknown) => run.reply({ kind: 'call', request: message.request, error: error instanceof Error ? error.message : String(error) }),
                );
            } else if (message.kind === 'questions') onQuestions(message.questions, message.about);
            else if (message.kind === 'answer') onAnswer(message.answer, message.judged === true);
            else if (message.kind === 'report') run.done(message.report);
            else run.fail(message.reason);
          },
        });
      } catch (error) {
        throw error instanceof BackgroundProcessEnded ? new Error(reasonFor(error)) : error;
      }
    },
  };
}
