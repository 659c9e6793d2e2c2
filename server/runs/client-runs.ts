import type { Db } from '../db/database';
import type { MailSettings } from '../mail/mail-message';
import type { AuditDocument } from '../reports/audit/audit-document';
import { MonitorMail } from '../reports/monitor/monitor-mail';
import type { MonitorRunFacts, TrendDocument, TrendRunInput } from '../reports/monitor/trend-document';
import { clientPageUrl } from '../reports/private-addresses';
import { townOf } from '../business/business-facts';
import { nameFromSiteCheck } from '../business/business-name';
import type { SiteCheckReport } from '../site-check/check-report';
import type { PlannedQuestion } from '../visibility-probe/prompts';
import type { ProbeInput } from '../visibility-probe/run-probe';
import type { RunOutcome } from './ask-run';
import { ClientStore, questionsOf, type ClientRow } from './client-store';
import type { RunShape } from './run-budget';
import type { TrendWork } from './runner';
import type { RunKind } from './run-worker';
import { RunStore, type RunRow } from './run-store';

/**
 * The runs of a series a client's trend is composed from, at most: the latest this many (two
 * years of monthly runs). The trend's lines and table hold one point a run; past this they would
 * say no more, and a run's process would read ever more.
 */
export const TREND_RUNS = 24;

/** A client's finished runs, as its trend reads them: each with its report and facts. */
export function trendRuns(runs: readonly RunRow[]): TrendRunInput[] {
  return runs.flatMap((run) =>
    run.status === 'done' && run.document !== null && run.facts !== null
      ? [{ id: run.id, series: run.series ?? 1, madeAt: run.finished_at ?? run.created_at, document: JSON.parse(run.document) as AuditDocument, facts: JSON.parse(run.facts) as MonitorRunFacts }]
      : [],
  );
}

/** What a client's trend is composed from for a run of `series`: its earlier runs of the series (the latest TREND_RUNS - 1), and how many runs of earlier series there were. */
function trendWork(client: ClientRow, series: number, runId: number, finished: readonly RunRow[]): TrendWork {
  const runs = trendRuns(finished.filter((run) => run.id !== runId));
  const ofSeries = runs.filter((run) => run.series === series);
  return {
    client: { label: client.label, name: client.brand, site: client.site },
    series,
    runId,
    earlier: ofSeries.slice(-(TREND_RUNS - 1)),
    earlierSeriesRuns: runs.length - ofSeries.length,
  };
}

/**
 * The monitored clients' part of the run machine: what a client's run asks (its fixed questions,
 * the same each run, about the business by the name given or read from its site), its trend
 * (composed in the run's process), the schedule that queues a run when a client falls due, and
 * what a run delivers (the trend stored, the agency's mail, and with MONITOR_SEND=1 the client's
 * note once a run is complete).
 */
export class ClientRuns implements RunKind {
  readonly label = 'Monitoring run';
  readonly gone = 'the client was removed';
  private readonly runs: RunStore;
  private readonly clients: ClientStore;
  private readonly mail: MonitorMail;

  constructor(
    db: Db,
    private readonly settings: MailSettings & {
      /** The configured assistants (each run asks each of them every question) and AUDIT_FACT_PROMPTS. */
      shape: RunShape;
      /** MONITOR_INTERVAL_DAYS */
      intervalDays: number;
      /** MONITOR_SEND: a client with a contact address gets a note with its page's link after each complete run. */
      sendToClients: boolean;
    },
  ) {
    this.runs = new RunStore(db);
    this.clients = new ClientStore(db);
    this.mail = new MonitorMail(db, settings);
  }

  owns(run: RunRow): boolean {
    return run.client_id !== null;
  }

  queueDue(now: Date): number[] {
    return this.clients.queueDue(now, this.settings.shape, this.settings.intervalDays);
  }

  work(run: RunRow) {
    const client = run.client_id === null ? null : this.clients.get(run.client_id);
    if (!client) return null;
    const series = run.series ?? client.series;
    return {
      website: client.site,
      input: (check: SiteCheckReport | null): ProbeInput => ({
        business: { targetKeywords: client.keywords, idealCustomer: client.customer, businessDescription: client.description, currentProducts: client.products },
        name: client.brand
          ? { name: client.brand, signs: ['given'], title: null }
          : check
            ? nameFromSiteCheck(check, { keywords: client.keywords, products: client.products, customer: client.customer, description: client.description })
            : null,
        website: client.site,
        town: townOf(check),
        personal: client.email ? [client.email] : [],
      }),
      questions: run.questions ? (JSON.parse(run.questions) as PlannedQuestion[]) : questionsOf(client),
      trend: trendWork(client, series, run.id, this.runs.withReport({ client: client.id })),
    };
  }

  /**
   * Stores the client's trend (composed with the run, once it asked every question), and queues
   * the agency's mail, and the client's note when MONITOR_SEND=1 and the run is complete. False
   * when the client was removed meanwhile.
   */
  deliver(run: RunRow, { result, trend, figures }: RunOutcome, now: Date, goesOnAt: Date | null): boolean {
    const client = run.client_id === null ? null : this.clients.get(run.client_id);
    if (!client) return false;
    if (trend !== null) this.clients.storeTrend(client.id, trend);
    const stored = trend ?? client.trend;
    const document = stored ? (JSON.parse(stored) as TrendDocument) : null;
    const earlier = this.runs.withReport({ client: client.id }).filter((other) => other.id < run.id && other.series === run.series && other.status === 'done').at(-1);
    const { siteUrl } = this.settings;
    const clientLink = this.settings.sendToClients && client.email && result.status === 'done' ? clientPageUrl(siteUrl, this.runs.mintLink({ client: client.id }, 'client', now)) : null;
    this.mail.runEnded(
      {
        client,
        run: { id: run.id, attempts: run.attempts, series: run.series ?? client.series },
        result,
        trend: document,
        before: earlier ? { visibilityScore: earlier.visibility_score, madeAt: earlier.finished_at ?? earlier.created_at } : null,
        goesOnAt,
        alarm: figures?.alarm ?? null,
        agencyLink: clientPageUrl(siteUrl, this.runs.mintLink({ client: client.id }, 'agency', now)),
        clientLink,
      },
      now,
    );
    return true;
  }
}
