import { QueueWorker, type QueueWorkerOptions, type Unrun } from '../../queue-worker';
import type { SiteCheckReport } from '../../site-check/run-check';
import type { SiteChecker } from '../../site-check/site-checker';
import { nameFromSiteCheck } from '../../visibility-probe/business-name';
import { ProbeStore } from '../../visibility-probe/probe-store';
import type { ProbeInput } from '../../visibility-probe/run-probe';
import type { AuditFigures, Auditor } from './auditor';
import type { FinishedAudit } from './audit-mail';
import { AuditRunStore, type AuditProgress, type AuditRunResult, type AuditRunRow, type StoredAnswer } from './audit-store';

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

/** A run's end, and the answers that arrived while the database refused them (kept with the result). */
interface AuditOutcome {
  result: AuditRunResult;
  figures: AuditFigures | null;
  unkept: StoredAnswer[];
}

const failed = (reason: string, unkept: StoredAnswer[] = []): AuditOutcome => ({
  result: { status: 'failed', reason, visibilityScore: null, readinessScore: null, summary: `failed: ${reason}`, document: null },
  figures: null,
  unkept,
});

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
    return this.store.recoverInterrupted(MAX_AUDIT_ATTEMPTS).map((row) => ({ row, result: failed(`the run was interrupted ${row.attempts} times, so it was given up`) }));
  }

  protected claim(): AuditRunRow | null {
    return this.store.claimNext(this.options.clock());
  }

  protected override nextDueIn(): number {
    return AUDIT_POLL_MS;
  }

  protected async run(row: AuditRunRow, signal: AbortSignal): Promise<AuditOutcome> {
    const { logger, clock, dailyCalls } = this.audits;
    const lead = this.auditRow.get(row.audit_id);
    if (!lead) return failed('the request was erased');
    const website = lead.website_url || null;
    const progress: AuditProgress = { step: 'checking the site', questions: null, answered: {} };
    /** Answers not yet written (the database refused them): tried again with the next, and kept with the result. */
    const unkept: StoredAnswer[] = [];
    const keep = (write: () => void) => {
      try {
        write();
        return true;
      } catch (error) {
        logger.warn({ err: error, runId: row.id }, 'Audit run: its progress could not be written now (kept to write later)');
        return false;
      }
    };

    // A run resumed after a restart keeps the site check it made: its questions stay the same.
    let check: SiteCheckReport | null = row.check_report ? (JSON.parse(row.check_report) as SiteCheckReport) : null;
    if (check === null && website !== null) {
      keep(() => this.store.progress(row.id, progress));
      const fresh = await this.audits.checker.check(website, { signal });
      keep(() => this.store.keepCheck(row.id, fresh));
      check = fresh;
    }
    const input: ProbeInput = {
      business: {
        targetKeywords: lead.target_keywords ?? '',
        idealCustomer: lead.ideal_customer ?? '',
        businessDescription: lead.business_description ?? '',
        currentProducts: lead.current_products ?? '',
      },
      name: check ? nameFromSiteCheck(check) : null,
      website,
      // Never sent: the person's own details, wherever they typed them.
      personal: [lead.name ?? '', lead.email ?? ''].filter(Boolean),
    };
    const previous = this.store.answers(row.id);
    for (const { assistant } of previous) progress.answered[assistant] = (progress.answered[assistant] ?? 0) + 1;
    if (previous.length > 0) logger.info({ runId: row.id, auditId: row.audit_id, answersKept: previous.length }, 'Audit run resumed: the questions already answered are not asked again');
    progress.step = 'asking';
    try {
      const { document, figures } = await this.audits.auditor.audit(
        { input, check: check?.status === 'done' ? check : null, previous },
        {
          allowCall: () => this.probes.takeCall(clock(), dailyCalls),
          onQuestions: (count) => {
            progress.questions = count;
            keep(() => this.store.progress(row.id, progress));
          },
          onAnswer: (answer) => {
            unkept.push(answer);
            progress.answered[answer.assistant] = (progress.answered[answer.assistant] ?? 0) + 1;
            if (keep(() => this.store.keepAnswers(row.id, unkept, progress))) unkept.length = 0;
          },
          signal,
        },
      );
      const readinessScore = check?.status === 'done' ? check.score : null;
      // Questions made but none asked (the day's calls had run out) is a run stopped before its
      // first question, which can go on later; skipped before any question was made, it failed.
      const asking = progress.questions !== null;
      const status = figures.status === 'done' ? 'done' : figures.status === 'stopped' || (figures.status === 'skipped' && asking) ? 'stopped' : 'failed';
      const result: AuditRunResult =
        status === 'failed'
          ? { status, reason: figures.reason ?? 'nothing was asked', visibilityScore: null, readinessScore, summary: `failed: ${figures.reason ?? 'nothing was asked'}`, document: null }
          : { status, reason: figures.reason, visibilityScore: figures.score, readinessScore, summary: figures.summary, document };
      return { result, figures, unkept };
    } catch (error) {
      if (signal.aborted) throw error;
      logger.error({ err: error, runId: row.id, auditId: row.audit_id }, 'Audit run failed');
      return failed(error instanceof Error ? error.message : String(error), unkept);
    }
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
    return () => this.store.finish(row.id, failed('its result could not be recorded').result, this.options.clock());
  }
}
