import type { Db } from '../db/database';
import { idleWithin } from '../idle-within';
import type { Logger } from '../logger';
import { SiteCheckStore, storedReport, type CheckRow } from './check-store';
import type { SiteCheckReport } from './run-check';
import type { SiteChecker } from './site-checker';

/** Checks run at once at most: each holds a few sockets and up to a few MB for up to 30 s. */
const CHECK_CONCURRENCY = 3;
/** A host checked this recently is not fetched again: its result is reused. */
const REUSE_WITHIN_MS = 60 * 60 * 1000;
/** How long a lead's notification waits for its site check before it goes without the findings. */
export const MAIL_WAITS_FOR_CHECK_MS = 20_000;
/** Starts of one check (restarts in between) after which it is given up. */
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
   * Tells the agency of a finished check. Runs inside the transaction that records the result,
   * so a result is never recorded without its mail (or the other way round).
   */
  deliver: (finished: FinishedCheck) => void;
  /** After a delivery has been committed: the mail outbox is nudged. */
  onDelivered?: () => void;
  concurrency?: number;
  reuseWithinMs?: number;
}

/**
 * Runs the checks the audit form queued in site_checks, like the mail outbox worker sends the
 * mails queued beside the leads: rows live in the database, so pending checks survive a restart.
 * A few run at once; a host checked within the last hour is not fetched again, its result is
 * reused; a host being checked makes the next request for it wait and reuse that result.
 */
export class SiteCheckWorker {
  private readonly store: SiteCheckStore;
  private readonly concurrency: number;
  private readonly reuseWithinMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly options: SiteCheckWorkerOptions) {
    this.store = new SiteCheckStore(options.db);
    this.concurrency = options.concurrency ?? CHECK_CONCURRENCY;
    this.reuseWithinMs = options.reuseWithinMs ?? REUSE_WITHIN_MS;
  }

  /** Picks up what a stopped process left (queued or half-run checks), then what is queued. */
  start(): void {
    this.stopped = false;
    for (const row of this.store.recoverInterrupted(MAX_CHECK_ATTEMPTS)) {
      this.record(row, this.failedReport(row, `the check was interrupted ${row.attempts} times, so it was given up`), null);
    }
    this.kick();
  }

  /** Starts queued checks up to the concurrency; called after each stored request that names a website. */
  kick(): void {
    while (!this.stopped && this.inFlight.size < this.concurrency) {
      let row: CheckRow | null;
      try {
        row = this.store.claimNext();
      } catch (error) {
        this.options.logger.error({ err: error }, 'Site check worker could not read its queue');
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
   * Starts no further check. Resolves true when the checks in progress have finished, or false
   * after `graceMs`: those stay 'running' in the database and run again at the next start.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.stopped = true;
    if (this.inFlight.size === 0) return true;
    return idleWithin(() => this.idle(), graceMs);
  }

  private failedReport(row: CheckRow, reason: string): SiteCheckReport {
    return { status: 'failed', reason, url: row.url, host: row.host, checkedAt: this.options.clock().toISOString(), durationMs: 0, score: null, findings: [], facts: null };
  }

  private async run(row: CheckRow): Promise<void> {
    const { logger, clock } = this.options;
    try {
      const recent = this.store.recentResult(row, new Date(clock().getTime() - this.reuseWithinMs));
      const reused = recent ? storedReport(recent) : null;
      if (recent && reused) {
        this.record(row, reused, recent.id);
        logger.info({ checkId: row.id, auditId: row.audit_id, host: row.host, reusedFrom: recent.id }, 'Site check: a recent result for the host reused');
        return;
      }
      const report = await this.options.checker.check(row.url);
      // Stopped meanwhile: the database may be closing; the row runs again at the next start.
      if (this.stopped && !this.options.db.open) return;
      this.record(row, report, null);
      logger.info({ checkId: row.id, auditId: row.audit_id, host: row.host, status: report.status, score: report.score, reason: report.reason, ms: report.durationMs }, 'Site check finished');
    } catch (error) {
      logger.error({ err: error, checkId: row.id, auditId: row.audit_id }, 'Site check could not be recorded');
    }
  }

  /** Stores the report and delivers it, in one write transaction; then nudges the mail. */
  private record(row: CheckRow, report: SiteCheckReport, reusedFrom: number | null): void {
    const { db, clock, deliver } = this.options;
    db.transaction(() => {
      this.store.finish(row.id, report, clock(), reusedFrom);
      deliver({ checkId: row.id, auditId: row.audit_id, report });
    }).immediate();
    this.options.onDelivered?.();
  }
}
