import { QueueWorker, type QueueWorkerOptions, type Unrun } from '../queue-worker';
import { SiteCheckStore, storedReport } from '../site-check/check-store';
import { nameFromSiteCheck } from '../business/business-name';
import type { Prober } from './prober';
import { ProbeStore, type ProbeRow } from './probe-store';
import { failedReport, type ProbeReport } from './probe-report';
import type { ProbeInput } from './run-probe';

/** Starts of one probe (restarts in between) after which it is given up. */
const MAX_PROBE_ATTEMPTS = 3;

/** A finished probe, handed to whoever tells the agency. */
export interface FinishedProbe {
  probeId: number;
  auditId: number;
  report: ProbeReport;
}

export interface ProbeWorkerOptions extends QueueWorkerOptions {
  /** Runs each probe apart from the pages (createProber over the configured assistants). */
  prober: Prober;
  /** PROBE_DAILY_CALLS */
  dailyCalls: number;
  /** Tells the agency; runs inside the transaction that records the probe. */
  deliver: (finished: FinishedProbe) => void;
  /** After a delivery has been committed: the mail outbox is nudged. */
  onDelivered?: () => void;
}

/** A probe's outcome: its report, or, for a request erased meanwhile, only why it failed. */
type ProbeOutcome = { report: ProbeReport } | { failed: string };

/**
 * Runs the probes queued in visibility_probes, one at a time (each makes a few calls at once),
 * like the other workers run theirs: rows live in the database, so a pending probe survives a
 * restart. A probe waits for its request's site check, which reads the business's name from its
 * site; the agency's mail and the prospect's thank-you page get the result.
 */
export class ProbeWorker extends QueueWorker<ProbeRow, ProbeOutcome> {
  protected readonly name = 'Probe worker';
  private readonly store: ProbeStore;
  private readonly checks: SiteCheckStore;
  private readonly auditRow;

  constructor(private readonly probes: ProbeWorkerOptions) {
    super(probes);
    this.store = new ProbeStore(probes.db);
    this.checks = new SiteCheckStore(probes.db);
    this.auditRow = probes.db.prepare<[number], Record<string, string>>(`SELECT * FROM audit_submissions WHERE id = ?`);
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
      // The prospect's own words about the business are searches, never its name.
      name: lead.brand
        ? { name: lead.brand, signs: ['given'], title: null }
        : checkReport
          ? nameFromSiteCheck(checkReport, { keywords: lead.target_keywords, products: lead.current_products, customer: lead.ideal_customer, description: lead.business_description })
          : null,
      website: lead.website_url || null,
      // Never sent: the person's own details, wherever they typed them.
      personal: [lead.name ?? '', lead.email ?? ''].filter(Boolean),
    };
  }

  private failed(row: ProbeRow, reason: string): ProbeOutcome {
    const input = this.inputFor(row);
    return input ? { report: failedReport(input, reason, this.options.clock()) } : { failed: 'the request was erased' };
  }

  /** Probes a stop cut short are queued again; one started MAX_PROBE_ATTEMPTS times fails, and the agency is told, as of a finished probe. */
  protected override recover(): Unrun<ProbeRow, ProbeOutcome>[] {
    return this.store.recoverInterrupted(MAX_PROBE_ATTEMPTS).map((row) => ({ row, result: this.failed(row, `the probe was interrupted ${row.attempts} times, so it was given up`) }));
  }

  protected claim(): ProbeRow | null {
    return this.store.claimNext();
  }

  protected async run(row: ProbeRow, signal: AbortSignal): Promise<ProbeOutcome> {
    const input = this.inputFor(row);
    if (!input) return { failed: 'the request was erased' };
    const { clock, dailyCalls, logger } = this.probes;
    try {
      return { report: await this.probes.prober.probe(input, { allowCall: () => this.store.takeCall(clock(), dailyCalls), signal }) };
    } catch (error) {
      if (signal.aborted) throw error;
      logger.error({ err: error, probeId: row.id, auditId: row.audit_id }, 'Visibility probe failed: the agency is told to ask by hand');
      return { report: failedReport(input, error instanceof Error ? error.message : String(error), clock()) };
    }
  }

  /** Records the probe and tells the agency, in one write transaction; then nudges the mail. */
  protected record(row: ProbeRow, outcome: ProbeOutcome): void {
    const { db, clock, deliver, logger } = this.probes;
    if ('failed' in outcome) {
      this.store.fail(row.id, outcome.failed, clock());
      return;
    }
    const { report } = outcome;
    db.transaction(() => {
      this.store.finish(row.id, report, clock());
      deliver({ probeId: row.id, auditId: row.audit_id, report });
    }).immediate();
    this.probes.onDelivered?.();
    logger.info({ probeId: row.id, auditId: row.audit_id, status: report.status, score: report.score, reason: report.reason }, 'Visibility probe finished');
  }

  /**
   * A result refused while another program holds the database's lock is kept and recorded once it
   * lets go, so that the calls it cost are not made again; refused for any other reason (its mail
   * could not be composed, a full disk) the probe fails, and the agency's mail says nothing of it.
   */
  protected override insteadOfRecord(row: ProbeRow, outcome: ProbeOutcome, error: unknown): () => void {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return () => this.record(row, outcome);
    return () => this.store.fail(row.id, 'its result could not be recorded', this.options.clock());
  }
}
