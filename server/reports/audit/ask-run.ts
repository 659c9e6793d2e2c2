import type { Logger } from '../../logger';
import type { SiteCheckReport } from '../../site-check/check-report';
import type { SiteChecker } from '../../site-check/site-checker';
import type { PlannedQuestion } from '../../visibility-probe/prompts';
import type { ProbeInput } from '../../visibility-probe/run-probe';
import type { AuditFigures, Auditor } from './auditor';
import type { AuditProgress, AuditRunResult, StoredAnswer } from './audit-store';

/** Where a run keeps what it has done as it goes (an audit run's row, or a monitored client's). */
export interface RunKeeping {
  progress(progress: AuditProgress): void;
  keepCheck(report: SiteCheckReport): void;
  keepAnswers(answers: readonly StoredAnswer[], progress: AuditProgress | null): void;
  /** The answers an earlier start of the run kept. */
  answers(): StoredAnswer[];
}

/** A run's end, and the answers that arrived while the database refused them (kept with the result). */
export interface RunOutcome {
  result: AuditRunResult;
  figures: AuditFigures | null;
  /** A monitored client's run: the facts its trend needs (MonitorRunFacts JSON); null otherwise, or without a report. */
  facts: string | null;
  unkept: StoredAnswer[];
}

export const failedRun = (reason: string, unkept: StoredAnswer[] = []): RunOutcome => ({
  result: { status: 'failed', reason, visibilityScore: null, readinessScore: null, summary: `failed: ${reason}`, document: null },
  figures: null,
  facts: null,
  unkept,
});

export interface RunSteps {
  checker: SiteChecker;
  auditor: Auditor;
  logger: Logger;
  /** Counts one call in the day's PROBE_DAILY_CALLS; false when they are used up. */
  allowCall: () => boolean;
}

export interface RunWork {
  /** The site check an earlier start of the run kept (JSON), or null. */
  keptCheck: string | null;
  website: string | null;
  /** What the questions are asked about, once the site check has read the business's name. */
  input: (check: SiteCheckReport | null) => ProbeInput;
  /** Fixed beforehand (a monitored client's questions); made from the business's words otherwise. */
  questions?: PlannedQuestion[];
  /** What its log lines name it by ({ runId, auditId }). */
  about: Record<string, unknown>;
  /** How its log lines call it ("Audit run"). */
  label: string;
}

/**
 * The steps of a full audit run, whoever queued it: a fresh site check (kept, so that a run resumed
 * after a restart asks the same questions), then every question in the auditor's process, each
 * call counted, each answer kept as it arrives; a run resumed asks only what it has no answer to.
 * Resolves with how it ended; rejects only when `signal` stopped it.
 */
export async function askRun(steps: RunSteps, keeping: RunKeeping, work: RunWork, signal: AbortSignal): Promise<RunOutcome> {
  const { logger } = steps;
  const progress: AuditProgress = { step: 'checking the site', questions: null, answered: {} };
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
    const { document, figures, facts } = await steps.auditor.audit(
      { input, check: check?.status === 'done' ? check : null, previous, ...(work.questions ? { questions: work.questions } : {}) },
      {
        allowCall: steps.allowCall,
        onQuestions: (count) => {
          progress.questions = count;
          keep(() => keeping.progress(progress));
        },
        onAnswer: (answer) => {
          unkept.push(answer);
          progress.answered[answer.assistant] = (progress.answered[answer.assistant] ?? 0) + 1;
          if (keep(() => keeping.keepAnswers(unkept, progress))) unkept.length = 0;
        },
        signal,
      },
    );
    const readinessScore = check?.status === 'done' ? check.score : null;
    // Questions made but none asked (the day's calls had run out) is a run stopped before its
    // first question, which can go on later; skipped before any question was made, it failed.
    const asking = progress.questions !== null;
    const status = figures.status === 'done' ? 'done' : figures.status === 'stopped' || (figures.status === 'skipped' && asking) ? 'stopped' : 'failed';
    if (status === 'failed') {
      const reason = figures.reason ?? 'nothing was asked';
      return { result: { status, reason, visibilityScore: null, readinessScore, summary: `failed: ${reason}`, document: null }, figures, facts: null, unkept };
    }
    return { result: { status, reason: figures.reason, visibilityScore: figures.score, readinessScore, summary: figures.summary, document }, figures, facts: facts ?? null, unkept };
  } catch (error) {
    if (signal.aborted) throw error;
    logger.error({ err: error, ...work.about }, `${work.label} failed`);
    return failedRun(error instanceof Error ? error.message : String(error), unkept);
  }
}
