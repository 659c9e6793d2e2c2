import { QueueWorker, type QueueWorkerOptions, type Unrun } from '../../queue-worker';
import type { SiteChecker } from '../../site-check/site-checker';
import { nameFromSiteCheck } from '../../business/business-name';
import { ProbeStore } from '../../visibility-probe/probe-store';
import { askRun, failedRun, type RunKeeping, type RunOutcome } from './ask-run';
import type { Auditor } from './auditor';
import type { FinishedAudit } from './audit-mail';
import { AuditRunStore, type AuditRunRow } from './audit-store';

/** Starts of one run (restarts in between) after which it is given up. */
const MAX_AUDIT_ATTEMPTS = 3;

/**
 * How often the worker looks for runs queued by `npm run audit`, another process: a query of one
 * index, and a run starts within this of being queued.
 */
const AUDIT_POLL_MS = 2_000;

export interface AuditWorkerOptions extends QueueWorkerOptions {
  /** Checks the business's site afresh for each run (createSiteChecker). */
  checker: SiteChecker;
  /** Asks the questions and composes the report, apart from the pages (createAuditor). */
  auditor: Auditor;
  /** PROBE_DAILY_CALLS: the day's calls, shared with the leads' probes and `npm run probe`. */
  dailyCalls: number;
  /** Tells the agency (and, with AUDIT_AUTO_SEND=1, the prospect); runs inside the transaction that records the run. */
  deliver: (finished: FinishedAudit) => void;
  /** After a delivery has been committed: the mail outbox is nudged. */
  onDelivered?: () => void;
}

type AuditOutcome = RunOutcome;

/**
 * Runs the audit runs queued in audit_runs, one at a time (each makes a few calls at once), on the
 * worker shape of the other queues. A run checks the business's site afresh, reads its name from
 * it, then asks every configured assistant AUDIT_PROMPTS questions in a process of its own, each
 * call counted in the day's PROBE_DAILY_CALLS, each answer kept as it arrives: a run cut by a
 * restart resumes with them and asks only the rest. Its report is composed in that process; the
 * agency's mail gets the link.
 */
export class AuditWorker extends QueueWorker<AuditRunRow, AuditOutcome> {
  protected readonly name = 'Audit worker';
  private readonly store: AuditRunStore;
  private readonly probes: ProbeStore;
  private readonly auditRow;

  constructor(private readonly audits: AuditWorkerOptions) {
    super(audits);
    this.store = new AuditRunStore(audits.db);
    this.probes = new ProbeStore(audits.db);
    this.auditRow = audits.db.prepare<[number], Record<string, string>>(`SELECT * FROM audit_submissions WHERE id = ?`);
  }

  /** Runs a stop cut short are queued again, to resume; one started MAX_AUDIT_ATTEMPTS times fails, and the agency is told. */
  protected override recover(): Unrun<AuditRunRow, AuditOutcome>[] {
    return this.store.recoverInterrupted(MAX_AUDIT_ATTEMPTS).map((row) => ({ row, result: failedRun(`the run was interrupted ${row.attempts} times, so it was given up`) }));
  }

  protected claim(): AuditRunRow | null {
    return this.store.claimNext(this.options.clock());
  }

  protected override nextDueIn(): number {
    return AUDIT_POLL_MS;
  }

  protected async run(row: AuditRunRow, signal: AbortSignal): Promise<AuditOutcome> {
    const { clock, dailyCalls } = this.audits;
    const lead = this.auditRow.get(row.audit_id);
    if (!lead) return failedRun('the request was erased');
    const keeping: RunKeeping = {
      progress: (progress) => this.store.progress(row.id, progress),
      keepCheck: (report) => this.store.keepCheck(row.id, report),
      keepAnswers: (answers, progress) => this.store.keepAnswers(row.id, answers, progress),
      answers: () => this.store.answers(row.id),
    };
    const website = lead.website_url || null;
    return askRun(
      { ...this.audits, allowCall: () => this.probes.takeCall(clock(), dailyCalls) },
      keeping,
      {
        keptCheck: row.check_report,
        website,
        input: (check) => ({
          business: {
            targetKeywords: lead.target_keywords ?? '',
            idealCustomer: lead.ideal_customer ?? '',
            businessDescription: lead.business_description ?? '',
            currentProducts: lead.current_products ?? '',
          },
          // The agency's correction, when it made one (npm run audit -- --brand); else read from the site.
          name: lead.brand
            ? { name: lead.brand, signs: ['given'], title: null }
            : check
              ? nameFromSiteCheck(check, { keywords: lead.target_keywords, products: lead.current_products, customer: lead.ideal_customer, description: lead.business_description })
              : null,
          website,
          // Never sent: the person's own details, wherever they typed them.
          personal: [lead.name ?? '', lead.email ?? ''].filter(Boolean),
        }),
        about: { runId: row.id, auditId: row.audit_id },
        label: 'Audit run',
      },
      signal,
    );
  }

  /** Records the run, with any answer not yet written, and tells the agency, in one write transaction; then nudges the mail. */
  protected record(row: AuditRunRow, { result, figures, unkept }: AuditOutcome): void {
    const { db, clock, deliver, logger } = this.audits;
    db.transaction(() => {
      if (unkept.length > 0) this.store.keepAnswers(row.id, unkept, null);
      this.store.finish(row.id, result, clock());
      deliver({ run: row, result, figures });
    }).immediate();
    this.audits.onDelivered?.();
    logger.info({ runId: row.id, auditId: row.audit_id, status: result.status, visibilityScore: result.visibilityScore, readinessScore: result.readinessScore, reason: result.reason }, 'Audit run finished');
  }

  /**
   * A result refused while another program holds the database's lock is kept and recorded once it
   * lets go: its calls are paid for. Refused for any other reason, the run fails (its answers stay
   * kept, and a new run of the request resumes nothing: it starts afresh).
   */
  protected override insteadOfRecord(row: AuditRunRow, outcome: AuditOutcome, error: unknown): () => void {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return () => this.record(row, outcome);
    return () => this.store.finish(row.id, failedRun('its result could not be recorded').result, this.options.clock());
  }
}
