import { QueueWorker, type QueueWorkerOptions, type Unrun } from '../queue-worker';
import { SiteCheckStore, storedReport, type CheckRow } from './check-store';
import { reportWithoutFacts, type SiteCheckReport } from './check-report';
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

export interface SiteCheckWorkerOptions extends QueueWorkerOptions {
  checker: SiteChecker;
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

/** A check's outcome: its own report, or that of a recent check of the same address (reusedFrom). */
interface CheckOutcome {
  report: SiteCheckReport;
  reusedFrom: number | null;
}

/**
 * Runs the checks queued in site_checks, like the mail outbox worker sends the mails queued
 * beside the leads: rows live in the database, so pending checks survive a restart. A few run at
 * once, each in a process of its own (site-checker.ts); an address checked within the last hour is
 * not fetched again, its result is reused; a host being checked makes the next request for it
 * wait and reuse that result; a check that waited an hour is not run.
 */
export class SiteCheckWorker extends QueueWorker<CheckRow, CheckOutcome> {
  protected readonly name = 'Site check worker';
  protected override readonly concurrency: number;
  private readonly store: SiteCheckStore;
  private readonly reuseWithinMs: number;

  constructor(private readonly checks: SiteCheckWorkerOptions) {
    super(checks);
    this.store = new SiteCheckStore(checks.db);
    this.concurrency = checks.concurrency ?? CHECKS_AT_ONCE;
    this.reuseWithinMs = checks.reuseWithinMs ?? REUSE_WITHIN_MS;
  }

  private failed(row: CheckRow, reason: string): Unrun<CheckRow, CheckOutcome> {
    return { row, result: { report: reportWithoutFacts(row.url, 'failed', reason, this.options.clock()), reusedFrom: null } };
  }

  /** Checks a stop cut short are queued again; one started MAX_CHECK_ATTEMPTS times (a site that keeps ending the process) fails. */
  protected override recover(): Unrun<CheckRow, CheckOutcome>[] {
    return this.store.recoverInterrupted(MAX_CHECK_ATTEMPTS).map((row) => this.failed(row, `the check was interrupted ${row.attempts} times, so it was given up`));
  }

  /** Checks that waited past MAX_WAIT_MS (a long stop, a flood) fail with that reason instead of running late. */
  protected override expired(limit: number): Unrun<CheckRow, CheckOutcome>[] {
    const before = new Date(this.options.clock().getTime() - MAX_WAIT_MS);
    return this.store
      .waitingSinceBefore(before, limit)
      .map((row) => this.failed(row, `the check waited more than ${MAX_WAIT_MS / 3_600_000} hour in the queue, so it was not run`));
  }

  protected claim(): CheckRow | null {
    return this.store.claimNext();
  }

  protected async run(row: CheckRow, signal: AbortSignal): Promise<CheckOutcome> {
    const recent = this.store.recentResult(row, new Date(this.options.clock().getTime() - this.reuseWithinMs));
    const reused = recent ? storedReport(recent) : null;
    // The site's facts, under this request's own address as typed: nothing of the other request's.
    if (recent && reused) return { report: { ...reused, url: row.url.trim() }, reusedFrom: recent.id };
    return { report: await this.checks.checker.check(row.url, { signal }), reusedFrom: null };
  }

  /** Stores the report and delivers it (an audit request's), in one write transaction; then nudges the mail. */
  protected record(row: CheckRow, { report, reusedFrom }: CheckOutcome): void {
    const { db, clock, deliver, logger } = this.checks;
    const auditId = row.audit_id;
    db.transaction(() => {
      this.store.finish(row.id, report, clock(), reusedFrom);
      if (auditId !== null) deliver({ checkId: row.id, auditId, report });
    }).immediate();
    if (auditId !== null) this.checks.onDelivered?.();
    const about = { checkId: row.id, auditId, host: row.host };
    if (reusedFrom !== null) logger.info({ ...about, reusedFrom }, 'Site check: a recent result for the address reused');
    else logger.info({ ...about, status: report.status, score: report.score, reason: report.reason, ms: report.durationMs }, 'Site check finished');
  }

  /**
   * A result the database would not record is not kept: the check is queued again (or failed,
   * after MAX_CHECK_ATTEMPTS starts), never left running, which would hold back every later check
   * of its host.
   */
  protected override insteadOfRecord(row: CheckRow): () => void {
    return () => {
      this.store.release(row, MAX_CHECK_ATTEMPTS, 'its result could not be recorded', this.options.clock());
      this.options.logger.warn({ checkId: row.id, attempts: row.attempts }, row.attempts < MAX_CHECK_ATTEMPTS ? 'Site check queued again' : 'Site check given up');
    };
  }
}
