import { REFUSED_RETRY_MS, type Db } from './db/database';
import type { Logger } from './logger';

/**
 * Rows that will not run (given up, or expired) recorded in one write transaction, before the
 * worker yields to the pages: each may compose a mail, and a restart after an outage may find
 * thousands, which one after another would hold every page back.
 */
const RECORDED_PER_BATCH = 20;

export interface QueueWorkerOptions {
  db: Db;
  logger: Logger;
  /** The clock the app stamps its rows with: due times are compared on one clock. */
  clock: () => Date;
}

/** A row that will not run, with the result to record for it (a check given up, or that waited too long). */
export interface Unrun<Row, Result> {
  row: Row;
  result: Result;
}

/**
 * The one shape of the server's background work (the mail outbox, the site checks, the visibility
 * probes): rows queued in the database, so that what is pending survives a restart; a few claimed
 * at once, each marked as taken in the write that claims it; each run apart from the pages; its
 * result recorded in one write transaction with whatever goes with it (the agency's mail).
 *
 * While the database refuses a write (another program holds its lock, a full disk), nothing is
 * lost and nothing is left half-done: a refused claim or recovery is tried again every
 * REFUSED_RETRY_MS, and so is a refused record (or what the queue writes instead), so that a row
 * is never left running, holding back what waits behind it, until the next restart.
 *
 * A queue says what its rows are and how each step is written; this runs them.
 */
export abstract class QueueWorker<Row extends { id: number }, Result> {
  /** Names the worker in its log lines ("Site check worker"). */
  protected abstract readonly name: string;
  /** Rows run at once at most. */
  protected readonly concurrency: number = 1;

  /** The next row to run, taken in the same write transaction; null when none may run now. */
  protected abstract claim(): Row | null;
  /** Runs one row. Resolves with its result whatever happened to it; rejects only when `signal` stops it. */
  protected abstract run(row: Row, signal: AbortSignal): Promise<Result>;
  /** Records a result, and whatever goes with it, in one write transaction; throws when refused. */
  protected abstract record(row: Row, result: Result): void;

  /**
   * At each start: puts back what a stopped process left running, in one write transaction; returns
   * the rows given up instead (started too often), which are recorded as any result is.
   */
  protected recover(): Unrun<Row, Result>[] {
    return [];
  }

  /**
   * Before each claim: `limit` rows at most that are not to run any more (they waited too long),
   * with their results. They are recorded in one transaction, and the worker yields to the pages
   * before the next batch: a long outage may leave thousands.
   */
  protected expired(_limit: number): Unrun<Row, Result>[] {
    return [];
  }

  /**
   * What to write when the database refused to record `result`, tried again every
   * REFUSED_RETRY_MS until it is taken. By default the record itself, so that what the run cost is
   * kept; null writes nothing (the row is due again as it stands).
   */
  protected insteadOfRecord(row: Row, result: Result, _error: unknown): (() => void) | null {
    return () => this.record(row, result);
  }

  /**
   * A row whose run a stop ended (`stop` past its grace): by default left as it is, to run again at
   * the next start. Runs while the database is still open.
   */
  protected stoppedUnder(_row: Row): void {}

  /** Milliseconds until a row falls due by itself (a retry's time); null: rows only come with a kick. */
  protected nextDueIn(): number | null {
    return null;
  }

  private readonly runs = new Set<Promise<void>>();
  /** Rows given up at recovery, recorded a batch at a time as expired rows are. */
  private readonly givenUp: Unrun<Row, Result>[] = [];
  /** Writes the database refused, by row: tried again at every pass, the first thing. */
  private readonly unrecorded = new Map<number, () => void>();
  /** The next pass, after yielding to the pages between two batches of rows that will not run. */
  private yielding: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private wakeAt: Date | null = null;
  private recovering = false;
  /** Aborted by a stop that did not wait for the runs under way: their processes are ended, their rows left for the next start. */
  private stopping = new AbortController();
  private stopped = false;

  constructor(protected readonly options: QueueWorkerOptions) {}

  /** Puts back what a stopped process left, then runs what is queued. */
  start(): void {
    this.stopped = false;
    this.stopping = new AbortController();
    this.recovering = true;
    this.kick();
  }

  /** Runs what may run now; called whenever a row is queued or becomes ready. */
  kick(): void {
    if (this.stopped) return;
    // Kicked by another worker's record, inside its transaction (a batch): after it commits.
    if (this.options.db.inTransaction) {
      setImmediate(() => this.kick());
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.wakeAt = null;
    try {
      if (this.recovering) {
        // All the rows still running: those of an earlier start not yet recorded among them.
        this.givenUp.splice(0, this.givenUp.length, ...this.recover());
        this.recovering = false;
      }
      this.writeUnrecorded();
      const batch = this.givenUp.length > 0 ? this.givenUp.slice(0, RECORDED_PER_BATCH) : this.expired(RECORDED_PER_BATCH);
      if (batch.length > 0) {
        this.options.db.transaction(() => batch.forEach(({ row, result }) => this.record(row, result))).immediate();
        if (this.givenUp.length > 0) this.givenUp.splice(0, batch.length);
        this.yielding ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          this.yielding = null;
          this.kick();
        });
        return;
      }
      while (!this.stopped && this.runs.size < this.concurrency) {
        const row = this.claim();
        if (!row) break;
        this.launch(row);
      }
      if (this.unrecorded.size > 0) this.wake(REFUSED_RETRY_MS);
      else if (this.runs.size === 0) {
        const due = this.nextDueIn();
        if (due !== null) this.wake(due);
      }
    } catch (error) {
      this.refused(error);
    }
  }

  /** When the worker next looks at its queue on its own (null: only when kicked, or stopped). */
  get nextWake(): Date | null {
    return this.wakeAt;
  }

  /** Resolves when nothing runs (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.runs.size > 0 || this.yielding) await Promise.all([...this.runs, this.yielding]);
  }

  /**
   * Starts nothing more. Resolves true when what runs has finished and been recorded within
   * `graceMs`; else ends it (its processes: a mail already handed to the mail server is still
   * recorded if it is accepted) and resolves false: those rows run again at the next start.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wakeAt = null;
    if (await idleWithin(() => this.idle(), graceMs)) return true;
    this.stopping.abort(new Error('stopped'));
    return false;
  }

  private launch(row: Row): void {
    const signal = this.stopping.signal;
    let refused = false;
    const run = this.run(row, signal)
      .then(
        (result) => {
          refused = !this.settle(row, result);
        },
        (error: unknown) => {
          // Ended by a stop: the row runs again at the next start, as the queue says (stoppedUnder).
          if (!signal.aborted) this.options.logger.error({ err: error, id: row.id }, `${this.name} failed`);
          else if (this.options.db.open) this.stoppedUnder(row);
        },
      )
      .finally(() => {
        this.runs.delete(run);
        // After a refusal, the next pass waits REFUSED_RETRY_MS, not a moment.
        if (!refused) this.kick();
      });
    this.runs.add(run);
  }

  /** Records a run's result; false when the database refused it (then kept to try again, or dropped). */
  private settle(row: Row, result: Result): boolean {
    try {
      this.record(row, result);
      return true;
    } catch (error) {
      // Closed under the run (a stop): the row runs again at the next start.
      if (!this.options.db.open) return true;
      const instead = this.insteadOfRecord(row, result, error);
      if (instead) this.unrecorded.set(row.id, instead);
      this.refused(error, row.id);
      return false;
    }
  }

  private writeUnrecorded(): void {
    for (const [id, write] of this.unrecorded) {
      write();
      this.unrecorded.delete(id);
    }
  }

  private refused(error: unknown, id?: number): void {
    // A database closed under a pass (shutdown, or ops closing it) ends the work quietly; the next start picks it up.
    if (!this.options.db.open) return;
    this.options.logger.error({ err: error, ...(id === undefined ? {} : { id }), retryInMs: REFUSED_RETRY_MS }, `${this.name} failed`);
    this.wake(REFUSED_RETRY_MS);
  }

  private wake(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.wakeAt = new Date(this.options.clock().getTime() + ms);
    this.timer = setTimeout(() => this.kick(), ms);
    this.timer.unref();
  }
}

/**
 * How a worker stops: true once `idle` resolves, or false when `graceMs` passes first (what is
 * still running then is left to the next start). No grace limit: waits for idle.
 */
export async function idleWithin(idle: () => Promise<void>, graceMs: number): Promise<boolean> {
  if (!Number.isFinite(graceMs)) {
    await idle();
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
  const finished = await Promise.race([idle().then(() => true as const), late]);
  clearTimeout(timer);
  return finished;
}

/**
 * A queue's recovery, for a table whose worker marks a row running while it works on it: the rows
 * a stopped process left running are queued again, in one write transaction, unless they have
 * been started `maxAttempts` times already; those are returned, for the worker to record as
 * failed (a row that keeps ending the process is given up).
 */
export function requeueInterrupted<Row extends { id: number; attempts: number }>(
  db: Db,
  rows: { running: { all(): Row[] }; requeue: { run(id: number): unknown } },
  maxAttempts: number,
): Row[] {
  return db
    .transaction(() => {
      const givenUp: Row[] = [];
      for (const row of rows.running.all()) {
        if (row.attempts < maxAttempts) rows.requeue.run(row.id);
        else givenUp.push(row);
      }
      return givenUp;
    })
    .immediate();
}
