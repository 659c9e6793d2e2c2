import { REFUSED_RETRY_MS, type Db } from '../db/database';
import { idleWithin } from '../idle-within';
import type { Logger } from '../logger';
import { SiteCheckStore, storedReport, type CheckRow } from './check-store';
import { reportWithoutFacts, type SiteCheckReport } from './run-check';
import type { SiteChecker } from './site-checker';

/** Checks run at once at most: each is a process with a few sockets and up to ~100 MB of heap for up to 30 s. */
export const CHECKS_AT_ONCE = 3;
/** An address checked this recently is not fetched again: its result is reused. */
export const REUSE_WITHIN_MS = 60 * 60 * 1000;
/** A check still waiting this long after it was asked for is not run: it fails with a reason. */
const MAX_WAIT_MS = 60 * 60 * 1000;
/** How long a lead's notification waits for its site check before it goes without the findings. */
export const MAIL_WAITS_FOR_CHECK_MS = 20_000;
/** Starts of one check (restarts, or results that could not be recorded, in between) after which it is given up. */
const MAX_CHECK_ATTEMPTS = 3;

/** A finished check, handed to whoever tells the agency (the lead's mail, or a mail of its own). */
export interface FinishedCheck {
  checkId: number;
  auditId: number;
  report: SiteCheckReport;
}

export interface SiteCheckWorkerOptions {
  db: Db;
  checker: SiteChecker;
  logger: Logger;
  /** The clock the app stamps its rows with: "the last hour" is measured on it. */
  clock: () => Date;
  /**
   * Tells the agency of a finished check of an audit request. Runs inside the transaction that
   * records the result, so a result is never recorded without its mail (or the other way round).
   */
  deliver: (finished: FinishedCheck) => void;
  /** After a delivery has been committed: the mail outbox is nudged. */
  onDelivered?: () => void;
  concurrency?: number;
  reuseWithinMs?: number;
}

/**
 * Runs the checks queued in site_checks, like the mail outbox worker sends the mails queued
 * beside the leads: rows live in the database, so pending checks survive a restart. A few run at
 * once, each in a process of its own (site-checker.ts); an address checked within the last hour is
 * not fetched again, its result is reused; a host being checked makes the next request for it
 * wait and reuse that result; a check that waited an hour is not run.
 */
export class SiteCheckWorker {
  private readonly store: SiteCheckStore;
  private readonly concurrency: number;
  private readonly reuseWithinMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  /** Checks whose row is still 'running' in the database though nothing runs them. */
  private readonly unreleased = new Map<number, CheckRow>();
  private retryTimer: NodeJS.Timeout | undefined;
  /** Aborted by a stop: checks still running are ended and left queued for the next start. */
  private stopping = new AbortController();
  private stopped = false;

  constructor(private readonly options: SiteCheckWorkerOptions) {
    this.store = new SiteCheckStore(options.db);
    this.concurrency = options.concurrency ?? CHECKS_AT_ONCE;
    this.reuseWithinMs = options.reuseWithinMs ?? REUSE_WITHIN_MS;
  }

  /** Picks up what a stopped process left (queued or half-run checks), then what is queued. */
  start(): void {
    this.stopped = false;
    this.stopping = new AbortController();
    try {
      for (const row of this.store.recoverInterrupted(MAX_CHECK_ATTEMPTS)) {
        this.record(row, this.failedReport(row, `the check was interrupted ${row.attempts} times, so it was given up`), null);
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'Site check worker could not recover the checks a stop interrupted');
    }
    this.kick();
  }

  /** Starts queued checks up to the concurrency; called after each stored request that names a website. */
  kick(): void {
    if (this.stopped) return;
    try {
      this.releaseStuck();
      this.expireWaiting();
    } catch (error) {
      this.options.logger.error({ err: error }, 'Site check worker could not tidy its queue');
      this.tryAgainSoon();
    }
    while (!this.stopped && this.inFlight.size < this.concurrency) {
      let row: CheckRow | null;
      try {
        row = this.store.claimNext();
      } catch (error) {
        this.options.logger.error({ err: error }, 'Site check worker could not read its queue');
        this.tryAgainSoon();
        return;
      }
      if (!row) return;
      const run = this.run(row).finally(() => {
        this.inFlight.delete(run);
        this.kick();
      });
      this.inFlight.add(run);
    }
  }

  /** Resolves when no check is running (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /**
   * Starts no further check. Resolves true when the checks in progress have finished within
   * `graceMs`; else ends them (their processes) and resolves false: those stay 'running' in the
   * database and run again at the next start.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.inFlight.size === 0) return true;
    if (await idleWithin(() => this.idle(), graceMs)) return true;
    this.stopping.abort(new Error('stopped'));
    await this.idle();
    return false;
  }

  private failedReport(row: CheckRow, reason: string): SiteCheckReport {
    return reportWithoutFacts(row.url, 'failed', reason, this.options.clock());
  }

  /** Checks that waited past MAX_WAIT_MS (a long stop, a flood) fail with that reason instead of running late. */
  private expireWaiting(): void {
    const before = new Date(this.options.clock().getTime() - MAX_WAIT_MS);
    for (const row of this.store.waitingSinceBefore(before)) {
      this.record(row, this.failedReport(row, `the check waited more than ${MAX_WAIT_MS / 3_600_000} hour in the queue, so it was not run`), null);
    }
  }

  private async run(row: CheckRow): Promise<void> {
    const { logger, clock } = this.options;
    const signal = this.stopping.signal;
    try {
      const recent = this.store.recentResult(row, new Date(clock().getTime() - this.reuseWithinMs));
      const reused = recent ? storedReport(recent) : null;
      if (recent && reused) {
        // The site's facts, under this request's own address as typed: nothing of the other request's.
        this.record(row, { ...reused, url: row.url.trim() }, recent.id);
        logger.info({ checkId: row.id, auditId: row.audit_id, host: row.host, reusedFrom: recent.id }, 'Site check: a recent result for the address reused');
        return;
      }
      const report = await this.options.checker.check(row.url, { signal });
      this.record(row, report, null);
      logger.info({ checkId: row.id, auditId: row.audit_id, host: row.host, status: report.status, score: report.score, reason: report.reason, ms: report.durationMs }, 'Site check finished');
    } catch (error) {
      // Ended by a stop: the row stays running and runs again at the next start.
      if (signal.aborted) return;
      logger.error({ err: error, checkId: row.id, auditId: row.audit_id }, 'Site check could not be recorded');
      this.unreleased.set(row.id, row);
      this.releaseStuck();
    }
  }

  /**
   * Releases the checks whose result could not be recorded (queued again, or failed after
   * MAX_CHECK_ATTEMPTS); while the database refuses that too, tries again every few seconds.
   */
  private releaseStuck(): void {
    for (const [id, row] of this.unreleased) {
      try {
        this.store.release(row, MAX_CHECK_ATTEMPTS, 'its result could not be recorded', this.options.clock());
        this.unreleased.delete(id);
        this.options.logger.warn({ checkId: id, attempts: row.attempts }, row.attempts < MAX_CHECK_ATTEMPTS ? 'Site check queued again' : 'Site check given up');
      } catch (error) {
        this.options.logger.error({ err: error, checkId: id }, 'Site check could not be released yet');
      }
    }
    if (this.unreleased.size > 0) this.tryAgainSoon();
  }

  /** Looks at the queue again in a few seconds: the database refused the worker (busy or full). */
  private tryAgainSoon(): void {
    clearTimeout(this.retryTimer);
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => this.kick(), REFUSED_RETRY_MS);
    this.retryTimer.unref();
  }

  /** Stores the report and delivers it (an audit request's), in one write transaction; then nudges the mail. */
  private record(row: CheckRow, report: SiteCheckReport, reusedFrom: number | null): void {
    const { db, clock, deliver } = this.options;
    const auditId = row.audit_id;
    db.transaction(() => {
      this.store.finish(row.id, report, clock(), reusedFrom);
      if (auditId !== null) deliver({ checkId: row.id, auditId, report });
    }).immediate();
    if (auditId !== null) this.options.onDelivered?.();
  }
}
