import { REFUSED_RETRY_MS, type Db } from '../db/database';
import { idleWithin } from '../idle-within';
import type { Logger } from '../logger';
import { SiteCheckStore, storedReport } from '../site-check/check-store';
import { nameFromSiteCheck } from './business-name';
import type { Prober } from './prober';
import { ProbeStore, type ProbeRow } from './probe-store';
import { failedReport, type ProbeInput, type ProbeReport } from './run-probe';

/** Starts of one probe (restarts in between) after which it is given up. */
const MAX_PROBE_ATTEMPTS = 3;

/** A finished probe, handed to whoever tells the agency. */
export interface FinishedProbe {
  probeId: number;
  auditId: number;
  report: ProbeReport;
}

export interface ProbeWorkerOptions {
  db: Db;
  /** Runs each probe apart from the pages (createProber over the configured assistants). */
  prober: Prober;
  /** PROBE_DAILY_CALLS */
  dailyCalls: number;
  logger: Logger;
  clock: () => Date;
  /** Tells the agency; runs inside the transaction that records the probe. */
  deliver: (finished: FinishedProbe) => void;
  /** After a delivery has been committed: the mail outbox is nudged. */
  onDelivered?: () => void;
}

/**
 * Runs the probes queued in visibility_probes, one at a time (each makes a few calls at once),
 * like the other workers run theirs: rows live in the database, so a pending probe survives a
 * restart. A probe waits for its request's site check, which reads the business's name from its
 * site; the agency's mail and the prospect's thank-you page get the result.
 */
export class ProbeWorker {
  private readonly store: ProbeStore;
  private readonly checks: SiteCheckStore;
  private readonly auditRow;
  private running: Promise<void> | null = null;
  /**
   * Finished probes whose result the database refused (another program's lock, a full disk): kept
   * here and recorded once it lets go, so that the calls they cost are not made again.
   */
  private readonly unrecorded = new Map<number, { row: ProbeRow; report: ProbeReport }>();
  private retryTimer: NodeJS.Timeout | undefined;
  /** Aborted by a stop that did not wait for the probe under way: its process is ended, its row left running for the next start. */
  private stopping = new AbortController();
  private stopped = false;

  constructor(private readonly options: ProbeWorkerOptions) {
    this.store = new ProbeStore(options.db);
    this.checks = new SiteCheckStore(options.db);
    this.auditRow = options.db.prepare<[number], Record<string, string>>(`SELECT * FROM audit_submissions WHERE id = ?`);
  }

  /** Picks up what a stopped process left, then what is queued. */
  start(): void {
    this.stopped = false;
    this.stopping = new AbortController();
    try {
      for (const row of this.store.recoverInterrupted(MAX_PROBE_ATTEMPTS)) {
        const input = this.inputFor(row);
        const reason = `the probe was interrupted ${row.attempts} times, so it was given up`;
        if (input) this.unrecorded.set(row.id, { row, report: failedReport(input, reason, this.options.clock()) });
        else this.store.fail(row.id, reason, this.options.clock());
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'Probe worker could not recover the probes a stop interrupted');
    }
    // Given up: recorded, and the agency told, as a finished probe is.
    this.recordFinished();
    this.kick();
  }

  /** Runs the queued probes that may run now; called after each lead and each finished site check. */
  kick(): void {
    if (this.stopped || this.running) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no probe is running (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Starts no further probe. Resolves true when the one in progress has finished within
   * `graceMs`, else false: it stays running in the database and runs again at the next start.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (!this.running) return true;
    const finished = await idleWithin(() => this.idle(), graceMs);
    if (!finished) this.stopping.abort(new Error('stopped'));
    return finished;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      let row: ProbeRow | null;
      try {
        row = this.store.claimNext();
      } catch (error) {
        this.options.logger.error({ err: error }, 'Probe worker could not read its queue');
        this.tryAgainSoon();
        return;
      }
      if (!row) return;
      await this.run(row);
    }
  }

  /** What the probe asks about: the stored request's business fields and its site's name; null once the request is erased. */
  private inputFor(row: ProbeRow): ProbeInput | null {
    const lead = this.auditRow.get(row.audit_id);
    if (!lead) return null;
    const check = this.checks.forAudit(row.audit_id);
    const checkReport = check ? storedReport(check) : null;
    return {
      business: {
        targetKeywords: lead.target_keywords ?? '',
        idealCustomer: lead.ideal_customer ?? '',
        businessDescription: lead.business_description ?? '',
        currentProducts: lead.current_products ?? '',
      },
      name: checkReport ? nameFromSiteCheck(checkReport) : null,
      website: lead.website_url || null,
      // Never sent: the person's own details, wherever they typed them.
      personal: [lead.name ?? '', lead.email ?? ''].filter(Boolean),
    };
  }

  private async run(row: ProbeRow): Promise<void> {
    const { clock } = this.options;
    try {
      const input = this.inputFor(row);
      if (!input) {
        this.store.fail(row.id, 'the request was erased', clock());
        return;
      }
      const signal = this.stopping.signal;
      let report: ProbeReport;
      try {
        report = await this.options.prober.probe(input, { allowCall: () => this.store.takeCall(clock(), this.options.dailyCalls), signal });
      } catch (error) {
        // Ended by a stop: the row stays running and runs again at the next start.
        if (signal.aborted) return;
        this.options.logger.error({ err: error, probeId: row.id, auditId: row.audit_id }, 'Visibility probe failed: the agency is told to ask by hand');
        report = failedReport(input, error instanceof Error ? error.message : String(error), clock());
      }
      // Stopped meanwhile: the database may be closing; the probe runs again at the next start.
      if (this.stopped && !this.options.db.open) return;
      this.unrecorded.set(row.id, { row, report });
      this.recordFinished();
    } catch (error) {
      this.giveUp(row, error);
    }
  }

  private giveUp(row: ProbeRow, error: unknown): void {
    this.options.logger.error({ err: error, probeId: row.id, auditId: row.audit_id }, 'Visibility probe could not be recorded');
    try {
      this.store.fail(row.id, 'its result could not be recorded', this.options.clock());
    } catch {
      // Still running in the database: queued again at the next start.
    }
  }

  /** Records the finished probes the database has not taken yet; while it refuses, tries again every few seconds. */
  private recordFinished(): void {
    const { logger, clock } = this.options;
    for (const [id, { row, report }] of this.unrecorded) {
      try {
        this.options.db
          .transaction(() => {
            this.store.finish(id, report, clock());
            this.options.deliver({ probeId: id, auditId: row.audit_id, report });
          })
          .immediate();
      } catch (error) {
        // Another program's lock passes: wait for it. Anything else will not: the probe fails.
        if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
          logger.error({ err: error, probeId: id, auditId: row.audit_id }, 'Visibility probe could not be recorded yet: tried again in a few seconds');
          continue;
        }
        this.unrecorded.delete(id);
        this.giveUp(row, error);
        continue;
      }
      this.unrecorded.delete(id);
      this.options.onDelivered?.();
      logger.info({ probeId: id, auditId: row.audit_id, status: report.status, score: report.score, reason: report.reason }, 'Visibility probe finished');
    }
    if (this.unrecorded.size > 0) this.tryAgainSoon();
  }

  /** Records what is waiting and looks at the queue again in a few seconds: the database refused the worker. */
  private tryAgainSoon(): void {
    clearTimeout(this.retryTimer);
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.recordFinished();
      this.kick();
    }, REFUSED_RETRY_MS);
    this.retryTimer.unref();
  }
}
