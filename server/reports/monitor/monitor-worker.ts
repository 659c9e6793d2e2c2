import { QueueWorker, type QueueWorkerOptions, type Unrun } from '../../queue-worker';
import type { SiteChecker } from '../../site-check/site-checker';
import { nameFromSiteCheck } from '../../business/business-name';
import { ProbeStore } from '../../visibility-probe/probe-store';
import { askRun, failedRun, type RunKeeping, type RunOutcome } from '../audit/ask-run';
import type { Auditor } from '../audit/auditor';
import { ClientStore, questionsOf, type ClientRunRow } from './client-store';
import { composeTrend } from './compose-trend';
import { clientPageAddress, type MonitorMail } from './monitor-mail';

/** Starts of one run (restarts in between) after which it is given up. */
const MAX_CLIENT_RUN_ATTEMPTS = 3;

/**
 * How often the worker looks for clients falling due and runs queued by `npm run clients -- run`
 * (another process): two queries of an index each, and a due client's run starts within this.
 */
const MONITOR_POLL_MS = 2_000;

export interface MonitorWorkerOptions extends QueueWorkerOptions {
  /** Checks the client's site afresh for each run (createSiteChecker). */
  checker: SiteChecker;
  /** Asks the questions and composes the run's report, apart from the pages (createAuditor). */
  auditor: Auditor;
  /** PROBE_DAILY_CALLS: the day's calls, shared with the audits, the leads' probes and `npm run probe`. */
  dailyCalls: number;
  /** The configured assistants: each run asks each of them every question. */
  assistants: number;
  /** MONITOR_INTERVAL_DAYS */
  intervalDays: number;
  /** MONITOR_SEND: a client with a contact address gets a note with its page's link after each run. */
  sendToClients: boolean;
  siteUrl: string;
  mail: MonitorMail;
  /** After a run's mails have been committed: the mail outbox is nudged. */
  onDelivered?: () => void;
}

/**
 * Runs the monitored clients: each active client every MONITOR_INTERVAL_DAYS (the schedule queues
 * its run when it falls due, on the clock the worker is given), and the runs `npm run clients --
 * run` queues. A run is a full audit run of the client's fixed questions (the audit's steps and
 * process), one at a time and never beside an audit run; one the day's calls cannot hold waits for
 * the next UTC day. When it ends, the client's trend is composed from its runs and stored, and
 * the agency is told, in one write transaction.
 */
export class MonitorWorker extends QueueWorker<ClientRunRow, RunOutcome> {
  protected readonly name = 'Monitor worker';
  private readonly store: ClientStore;
  private readonly probes: ProbeStore;

  constructor(private readonly monitor: MonitorWorkerOptions) {
    super(monitor);
    this.store = new ClientStore(monitor.db);
    this.probes = new ProbeStore(monitor.db);
  }

  protected override recover(): Unrun<ClientRunRow, RunOutcome>[] {
    return this.store.recoverInterrupted(MAX_CLIENT_RUN_ATTEMPTS).map((row) => ({ row, result: failedRun(`the run was interrupted ${row.attempts} times, so it was given up`) }));
  }

  /** Queues the runs of the clients now due, then takes the next run the day's calls can hold. */
  protected claim(): ClientRunRow | null {
    const { clock, assistants, intervalDays, dailyCalls, logger } = this.monitor;
    const now = clock();
    const queued = this.store.queueDue(now, assistants, intervalDays);
    if (queued.length > 0) logger.info({ runIds: queued }, 'Monitoring runs queued: their clients were due');
    return this.store.claimNext(now, Math.max(0, dailyCalls - this.probes.callsOn(now)));
  }

  protected override nextDueIn(): number {
    return MONITOR_POLL_MS;
  }

  protected async run(row: ClientRunRow, signal: AbortSignal): Promise<RunOutcome> {
    const { clock, dailyCalls } = this.monitor;
    const client = this.store.get(row.client_id);
    if (!client) return failedRun('the client was removed');
    // A client removed while its run goes on: the run ends at its next answer, and nothing is kept.
    const removed = new AbortController();
    const keeping: RunKeeping = {
      progress: (progress) => this.store.progress(row.id, progress),
      keepCheck: (report) => this.store.keepCheck(row.id, report),
      keepAnswers: (answers, progress) => {
        if (this.store.run(row.id) === null) removed.abort(new Error('the client was removed'));
        else this.store.keepAnswers(row.id, answers, progress);
      },
      answers: () => this.store.answers(row.id),
    };
    try {
      return await askRun(
        { ...this.monitor, allowCall: () => this.probes.takeCall(clock(), dailyCalls) },
        keeping,
        {
          keptCheck: row.check_report,
          website: client.site,
          input: (check) => ({
            business: { targetKeywords: client.keywords, idealCustomer: client.customer, businessDescription: client.description, currentProducts: client.products },
            name: client.brand
              ? { name: client.brand, signs: ['given'], title: null }
              : check
                ? nameFromSiteCheck(check, { keywords: client.keywords, products: client.products, customer: client.customer, description: client.description })
                : null,
            website: client.site,
            personal: client.email ? [client.email] : [],
          }),
          questions: questionsOf(client),
          about: { runId: row.id, clientId: client.id },
          label: 'Monitoring run',
        },
        AbortSignal.any([signal, removed.signal]),
      );
    } catch (error) {
      if (removed.signal.aborted && !signal.aborted) return failedRun('the client was removed');
      throw error;
    }
  }

  /**
   * Records the run with its facts, composes the client's trend from its runs and stores it, and
   * queues the agency's mail (and the client's note), in one write transaction; then nudges the
   * mail. A client removed meanwhile has nothing left to record.
   */
  protected record(row: ClientRunRow, { result, facts, unkept }: RunOutcome): void {
    const { db, clock, logger, mail, siteUrl, sendToClients } = this.monitor;
    const recorded = db
      .transaction(() => {
        const client = this.store.get(row.client_id);
        if (!client || this.store.run(row.id) === null) return false;
        const now = clock();
        if (unkept.length > 0) this.store.keepAnswers(row.id, unkept, null);
        this.store.finish(row.id, result, result.document === null ? null : facts, now);
        const runs = this.store.trendRuns(client.id);
        const latestName = runs.at(-1)?.document.business.name ?? null;
        const trend = runs.length === 0 ? null : composeTrend({ client: { label: client.label, name: client.brand ?? latestName, site: client.site }, runs });
        if (trend) this.store.storeTrend(client.id, trend);
        const earlier = this.store.earlierRun(row);
        const clientLink = sendToClients && client.email && result.status !== 'failed' ? clientPageAddress(siteUrl, this.store.mintLink(client.id, 'client', now)) : null;
        mail.runEnded(
          {
            client,
            run: row,
            result,
            trend,
            before: earlier ? { visibilityScore: earlier.visibility_score, madeAt: earlier.finished_at ?? earlier.created_at } : null,
            agencyLink: clientPageAddress(siteUrl, this.store.mintLink(client.id, 'agency', now)),
            clientLink,
          },
          now,
        );
        return true;
      })
      .immediate();
    if (recorded) this.monitor.onDelivered?.();
    logger.info({ runId: row.id, clientId: row.client_id, status: result.status, visibilityScore: result.visibilityScore, reason: result.reason, recorded }, recorded ? 'Monitoring run finished' : 'Monitoring run ended: its client was removed, nothing kept');
  }

  /** Refused while another program holds the lock: recorded once it lets go (its calls are paid for); else the run fails. */
  protected override insteadOfRecord(row: ClientRunRow, outcome: RunOutcome, error: unknown): () => void {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return () => this.record(row, outcome);
    return () => this.store.finish(row.id, failedRun('its result could not be recorded').result, null, this.options.clock());
  }
}
