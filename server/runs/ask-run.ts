import type { Logger } from '../logger';
import type { SiteCheckReport } from '../site-check/check-report';
import type { SiteChecker } from '../site-check/site-checker';
import type { PlannedQuestion } from '../visibility-probe/prompts';
import type { ProbeInput } from '../visibility-probe/run-probe';
import type { RunFigures, RunResult } from '../reports/run-outcome';
import type { Runner, TrendWork } from './runner';
import type { RunProgress, StoredAnswer } from './run-store';

/** Where a run keeps what it has done as it goes: its row. */
export interface RunKeeping {
  progress(progress: RunProgress): void;
  keepCheck(report: SiteCheckReport): void;
  keepQuestions(questions: PlannedQuestion[]): void;
  keepAnswers(answers: readonly StoredAnswer[], progress: RunProgress | null): void;
  /** The answers an earlier start of the run kept. */
  answers(): StoredAnswer[];
}

/** A run's end, and the answers that arrived while the database refused them (kept with the result). */
export interface RunOutcome {
  result: RunResult;
  figures: RunFigures | null;
  /** A client's run: the facts its trend compares (MonitorRunFacts JSON), and its trend with this run in it (TrendDocument JSON; only once every question is asked). */
  facts: string | null;
  trend: string | null;
  unkept: StoredAnswer[];
}

export const failedRun = (reason: string, unkept: StoredAnswer[] = []): RunOutcome => ({
  result: { status: 'failed', reason, visibilityScore: null, readinessScore: null, summary: `failed: ${reason}`, document: null },
  figures: null,
  facts: null,
  trend: null,
  unkept,
});

export interface RunSteps {
  checker: SiteChecker;
  runner: Runner;
  logger: Logger;
  /** Counts one call in the day's PROBE_DAILY_CALLS; false when they are used up, or the run is no longer wanted. */
  allowCall: () => boolean | Promise<boolean>;
}

export interface RunWork {
  /** The site check an earlier start of the run kept (JSON), or null. */
  keptCheck: string | null;
  website: string | null;
  /** What the questions are asked about, once the site check has read the business's name. */
  input: (check: SiteCheckReport | null) => ProbeInput;
  /** Fixed beforehand (a client's), or made by an earlier start (an audit's): asked as they are; made from the business's words otherwise. */
  questions: PlannedQuestion[] | null;
  /** A client's run: what its trend is composed from. */
  trend?: TrendWork;
  /** What its log lines name it by ({ runId, auditId }). */
  about: Record<string, unknown>;
  /** How its log lines call it ("Audit run"). */
  label: string;
}

/**
 * The steps of a full run, whoever queued it and whatever it is for: a fresh site check (kept, so
 * that a run resumed after a restart asks the same questions), then every question in the runner's
 * process, each call counted, each answer kept as it arrives; a run resumed asks only what it has
 * no answer to. Resolves with how it ended; rejects only when `signal` stopped it.
 */
export async function askRun(steps: RunSteps, keeping: RunKeeping, work: RunWork, signal: AbortSignal): Promise<RunOutcome> {
  const { logger } = steps;
  const progress: RunProgress = { step: 'checking the site', questions: null, answered: {} };
  /** Answers not yet written (the database refused them): tried again with the next, and kept with the result. */
  const unkept: StoredAnswer[] = [];
  const keep = (write: () => void) => {
    try {
      write();
      return true;
    } catch (error) {
      logger.warn({ err: error, ...work.about }, `${work.label}: its progress could not be written now (kept to write later)`);
      return false;
    }
  };

  // A run resumed after a restart keeps the site check it made: its questions stay the same.
  let check: SiteCheckReport | null = work.keptCheck ? (JSON.parse(work.keptCheck) as SiteCheckReport) : null;
  if (check === null && work.website !== null) {
    keep(() => keeping.progress(progress));
    const fresh = await steps.checker.check(work.website, { signal });
    keep(() => keeping.keepCheck(fresh));
    check = fresh;
  }
  const input = work.input(check);
  const previous = keeping.answers();
  for (const { assistant } of previous) progress.answered[assistant] = (progress.answered[assistant] ?? 0) + 1;
  if (previous.length > 0) logger.info({ ...work.about, answersKept: previous.length }, `${work.label} resumed: the questions already answered are not asked again`);
  progress.step = 'asking';
  try {
    const { document, figures, facts, trend } = await steps.runner.run(
      { input, check: check?.status === 'done' ? check : null, previous, ...(work.questions ? { questions: work.questions } : {}), ...(work.trend ? { trend: work.trend } : {}) },
      {
        allowCall: steps.allowCall,
        onQuestions: (questions, about) => {
          // Each assistant's share of the calls: its questions and the direct ones about the business.
          progress.questions = questions.length + about;
          keep(() => {
            if (work.questions === null) keeping.keepQuestions(questions);
            keeping.progress(progress);
          });
        },
        onAnswer: (answer, judged) => {
          unkept.push(answer);
          if (!judged) progress.answered[answer.assistant] = (progress.answered[answer.assistant] ?? 0) + 1;
          if (keep(() => keeping.keepAnswers(unkept, progress))) unkept.length = 0;
        },
        signal,
      },
    );
    const readinessScore = check?.status === 'done' ? check.score : null;
    // Questions made but none asked (the day's calls had run out) is a run stopped before its
    // first question, which can go on later; skipped before any question was made, it failed.
    const asking = progress.questions !== null && progress.questions > 0;
    const status = figures.status === 'done' ? 'done' : figures.status === 'stopped' || (figures.status === 'skipped' && asking) ? 'stopped' : 'failed';
    if (status === 'failed') {
      const reason = figures.reason ?? 'nothing was asked';
      return { result: { status, reason, visibilityScore: null, readinessScore, summary: `failed: ${reason}`, document: null }, figures, facts: null, trend: null, unkept };
    }
    return { result: { status, reason: figures.reason, visibilityScore: figures.score, readinessScore, summary: figures.summary, document }, figures, facts: facts ?? null, trend: trend ?? null, unkept };
  } catch (error) {
    if (signal.aborted) throw error;
    logger.error({ err: error, ...work.about }, `${work.label} failed`);
    return failedRun(error instanceof Error ? error.message : String(error), unkept);
  }
}
