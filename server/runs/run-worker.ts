import { REFUSED_RETRY_MS } from '../db/database';
import { idleWithin, QueueWorker, type QueueWorkerOptions, type Unrun } from '../queue-worker';
import type { SiteChecker } from '../site-check/site-checker';
import { ProbeStore } from '../visibility-probe/probe-store';
import { askRun, failedRun, type RunOutcome, type RunWork } from './ask-run';
import { dayBudget, nextUtcDay } from './run-budget';
import type { Runner } from './runner';
import { RunStore, type RunRow } from './run-store';

/** Starts of one run (restarts that cut it short in between, not clean stops) after which it is given up. */
const MAX_RUN_ATTEMPTS = 3;

/**
 * How often the worker looks for runs queued by the commands (other processes) and for clients
 * falling due: a query of an index or two, and a run starts within this of being queued.
 */
const RUN_POLL_MS = 2_000;

/** How long a stop waits, once it has ended a run, for it to be put back (its process is killed at once). */
const RUN_SETTLE_MS = 2_000;

/** The reason a run ends with when the day's calls run out part way: it goes on the next UTC day. */
const DAY_USED_UP = /^daily call limit/;

/**
 * What differs between the kinds of run (an audit request's, a monitored client's): what it asks
 * about and what it delivers. Everything else is the one machine's.
 */
export interface RunKind {
  /** How log lines, mails and reasons name a run of this kind ("Audit run"). */
  label: string;
  /** Why a run is not run any more: its request was erased, its client removed. */
  gone: string;
  /** Whether this kind's rows are `run`'s (runs.audit_id or runs.client_id set). */
  owns(run: RunRow): boolean;
  /** What the run asks about; null once what it is for is gone. */
  work(run: RunRow): Omit<RunWork, 'keptCheck' | 'about' | 'label'> | null;
  /** Queues what falls due (a client's schedule); the runs queued. */
  queueDue?(now: Date): number[];
  /**
   * Tells whoever is told of the run's end; runs inside the transaction that records it. `goesOnAt`:
   * a run the day's calls stopped part way goes on by itself then. False: nothing was left to tell.
   */
  deliver(run: RunRow, outcome: RunOutcome, now: Date, goesOnAt: Date | null): boolean;
}

export interface RunWorkerOptions extends QueueWorkerOptions {
  /** Checks the business's site afresh for each run (createSiteChecker). */
  checker: SiteChecker;
  /** Asks the questions and composes the run's report, apart from the pages (createRunner). */
  runner: Runner;
  /** PROBE_DAILY_CALLS: the day's calls, shared with the leads' probes and `npm run probe`. */
  dailyCalls: number;
  kinds: readonly RunKind[];
  /** After a run's mails have been committed: the mail outbox is nudged. */
  onDelivered?: () => void;
}

/**
 * Runs every full run, an audit request's and a monitored client's alike, one at a time, on the
 * one shape of the server's background work (queue-worker.ts). Each rule is written once here:
 * - a run starts only when the day's calls can hold what it still needs; one they cannot waits
 *   for the next UTC day, and one no day can hold fails at once, saying so;
 * - each call is counted before it is made, and the run's request or client is looked at first:
 *   erased or removed, the run asks nothing more and keeps nothing;
 * - a count the database refuses for a moment is tried again, as every refused write is;
 * - a run the day's calls stopped part way goes on the next UTC day, with the answers it kept;
 * - a clean stop of the server puts a run back, its start not counted; a restart that cut it
 *   short counts, and a run started MAX_RUN_ATTEMPTS times is given up.
 */
export class RunWorker extends QueueWorker<RunRow, RunOutcome> {
  protected readonly name = 'Run worker';
  private readonly store: RunStore;
  private readonly probes: ProbeStore;

  constructor(private readonly settings: RunWorkerOptions) {
    super(settings);
    this.store = new RunStore(settings.db);
    this.probes = new ProbeStore(settings.db);
  }

  private kindOf(run: RunRow): RunKind {
    const kind = this.settings.kinds.find((candidate) => candidate.owns(run));
    if (!kind) throw new Error(`run #${run.id} is of no kind this worker runs`);
    return kind;
  }

  protected override recover(): Unrun<RunRow, RunOutcome>[] {
    return this.store.recoverInterrupted(MAX_RUN_ATTEMPTS).map((row) => ({ row, result: failedRun(`the run was cut short by ${row.attempts} restarts, so it was given up`) }));
  }

  /** Queues what has fallen due, then takes the next run the day's calls can hold. */
  protected claim(): RunRow | null {
    const { clock, dailyCalls, logger, kinds } = this.settings;
    const now = clock();
    for (const kind of kinds) {
      const queued = kind.queueDue?.(now) ?? [];
      if (queued.length > 0) logger.info({ runIds: queued }, `${kind.label}s queued: they fell due`);
    }
    const budget = dayBudget(this.probes.callsOn(now), dailyCalls);
    // A run no day can hold is claimed (and failed at once, saying so), never left waiting for ever.
    return this.store.claimNext(now, (calls) => budget.holds(calls) || !budget.everHolds(calls), nextUtcDay(now));
  }

  protected override nextDueIn(): number {
    return RUN_POLL_MS;
  }

  protected async run(row: RunRow, signal: AbortSignal): Promise<RunOutcome> {
    const { clock, dailyCalls, checker, runner, logger } = this.settings;
    const kind = this.kindOf(row);
    const calls = this.store.callsLeftFor(row);
    if (!dayBudget(0, dailyCalls).everHolds(calls)) {
      return failedRun(`it needs ${calls} calls, more than a whole day's PROBE_DAILY_CALLS=${dailyCalls}: ask fewer questions, or allow more calls a day`);
    }
    const work = kind.work(row);
    if (!work) return failedRun(kind.gone);
    // What the run is for erased or removed while it goes: it stops before its next call, keeping nothing more.
    const gone = new AbortController();
    const stillWanted = () => {
      if (this.store.get(row.id)) return true;
      gone.abort(new Error(kind.gone));
      return false;
    };
    const allowCall = async (): Promise<boolean> => {
      for (;;) {
        if (!stillWanted()) return false;
        try {
          return this.probes.takeCall(clock(), dailyCalls);
        } catch (error) {
          // Another program holds the lock for a moment: the count waits and is tried again, as every refused write is.
          if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || signal.aborted) throw error;
          logger.warn({ err: error, runId: row.id, retryInMs: REFUSED_RETRY_MS }, `${kind.label}: a call could not be counted now (tried again)`);
          await new Promise((resolve) => setTimeout(resolve, REFUSED_RETRY_MS));
        }
      }
    };
    try {
      return await askRun(
        { checker, runner, logger, allowCall },
        {
          progress: (progress) => this.store.progress(row.id, progress),
          keepCheck: (report) => this.store.keepCheck(row.id, report),
          keepQuestions: (questions) => this.store.keepQuestions(row.id, questions),
          keepAnswers: (answers, progress) => {
            if (stillWanted()) this.store.keepAnswers(row.id, answers, progress);
          },
          answers: () => this.store.answers(row.id),
        },
        { ...work, keptCheck: row.check_report, about: { runId: row.id, auditId: row.audit_id, clientId: row.client_id }, label: kind.label },
        AbortSignal.any([signal, gone.signal]),
      );
    } catch (error) {
      if (gone.signal.aborted && !signal.aborted) return failedRun(kind.gone);
      throw error;
    }
  }

  /** Records the run, with any answer not yet written, and tells whoever is told, in one write transaction; then nudges the mail. */
  protected record(row: RunRow, outcome: RunOutcome): void {
    const { db, clock, logger } = this.settings;
    const kind = this.kindOf(row);
    const now = clock();
    const delivered = db
      .transaction(() => {
        // Erased or removed meanwhile: its run went with it, and nothing is left to keep or tell.
        if (this.store.get(row.id) === null) return false;
        if (outcome.unkept.length > 0) this.store.keepAnswers(row.id, outcome.unkept, null);
        this.store.finish(row.id, outcome.result, outcome.facts, now);
        // Stopped by the day's calls: it goes on by itself the next UTC day, with the answers it kept.
        const goesOnAt = outcome.result.status === 'stopped' && DAY_USED_UP.test(outcome.result.reason ?? '') ? nextUtcDay(now) : null;
        const told = kind.deliver(row, outcome, now, goesOnAt);
        if (goesOnAt) this.store.continueStopped(row.id, goesOnAt);
        return told;
      })
      .immediate();
    if (delivered) this.settings.onDelivered?.();
    const { status, reason, visibilityScore, readinessScore } = outcome.result;
    logger.info({ runId: row.id, auditId: row.audit_id, clientId: row.client_id, status, visibilityScore, readinessScore, reason, delivered }, `${kind.label} ended`);
  }

  /**
   * A result refused while another program holds the database's lock is recorded once it lets go:
   * its calls are paid for. Refused for any other reason, the run fails (its answers stay kept).
   */
  protected override insteadOfRecord(row: RunRow, outcome: RunOutcome, error: unknown): () => void {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return () => this.record(row, outcome);
    return () => this.store.finish(row.id, failedRun('its result could not be recorded').result, null, this.settings.clock());
  }

  /** A clean stop of the server ended the run: it is put back, its start not counted. */
  protected override stoppedUnder(row: RunRow): void {
    this.store.putBack(row.id);
  }

  /**
   * Stops as every worker does; a run still going after `graceMs` is ended (its process killed at
   * once) and put back before the database closes, which takes a moment at most.
   */
  override async stop(graceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    if (await super.stop(graceMs)) return true;
    await idleWithin(() => this.idle(), RUN_SETTLE_MS);
    return false;
  }
}
