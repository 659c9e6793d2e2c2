import { probePrompts } from '../../../shared/generated/probe-prompts';
import type { Db } from '../../db/database';
import { requeueInterrupted } from '../../queue-worker';
import { newCheckToken, tokenHash } from '../../site-check/check-store';
import type { SiteCheckReport } from '../../site-check/check-report';
import { siteOf } from '../../business/names';
import { planQuestions, type PlannedQuestion } from '../../visibility-probe/prompts';
import type { AuditDocument } from '../audit/audit-document';
import type { AuditProgress, AuditRunResult, StoredAnswer } from '../audit/audit-store';
import type { MonitorRunFacts, TrendDocument, TrendRunInput } from './trend-document';

const DAY_MS = 86_400_000;

/** A monitored client as stored: the words its questions were made of, and the questions fixed from them. */
export interface ClientRow {
  id: number;
  label: string;
  site: string;
  keywords: string;
  customer: string;
  products: string;
  description: string;
  brand: string | null;
  email: string | null;
  status: 'active' | 'paused';
  series: number;
  /** PlannedQuestion[] JSON. */
  questions: string;
  from_audit_id: number | null;
  created_at: string;
  next_run_at: string;
  /** TrendDocument JSON; null until a run has ended. */
  trend: string | null;
}

export interface ClientRunRow {
  id: number;
  client_id: number;
  status: 'queued' | 'running' | 'done' | 'stopped' | 'failed';
  trigger: 'schedule' | 'command';
  series: number;
  prompts: number;
  calls_planned: number;
  attempts: number;
  progress: string | null;
  reason: string | null;
  visibility_score: number | null;
  readiness_score: number | null;
  summary: string | null;
  document: string | null;
  facts: string | null;
  check_report: string | null;
  not_before: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** What a client is added with: its words as given, and the questions fixed from them. */
export interface NewClient {
  label: string;
  site: string;
  keywords: string;
  customer: string;
  products: string;
  description: string;
  brand: string | null;
  email: string | null;
  fromAuditId: number | null;
  questions: PlannedQuestion[];
}

/** A client as `npm run clients -- list` shows it: its latest run beside it. */
export interface ClientListing extends ClientRow {
  last_run_at: string | null;
  last_status: ClientRunRow['status'] | null;
  last_score: number | null;
  runs: number;
}

export type ClientLinkAudience = 'agency' | 'client';

/** The first instant of the UTC day after `now`: when the day's calls start again. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export const questionsOf = (client: Pick<ClientRow, 'questions'>) => JSON.parse(client.questions) as PlannedQuestion[];

/**
 * The monitored clients (clients), their runs (client_runs), each answer as it arrives
 * (client_answers) and the links to their pages (client_links, token hashes only). Runs are queued
 * by the schedule or `npm run clients -- run`; the server's monitor worker runs them one at a
 * time, and never while an audit run is running.
 */
export class ClientStore {
  private readonly statements;

  constructor(private readonly db: Db) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO clients (label, site, keywords, customer, products, description, brand, email, questions, from_audit_id, created_at, next_run_at)
         VALUES (@label, @site, @keywords, @customer, @products, @description, @brand, @email, @questions, @fromAuditId, @now, @now)`,
      ),
      byId: db.prepare<[number], ClientRow>(`SELECT * FROM clients WHERE id = ?`),
      list: db.prepare<[], ClientListing>(
        `SELECT clients.*, last.finished_at AS last_run_at, last.status AS last_status, last.visibility_score AS last_score,
                (SELECT count(*) FROM client_runs WHERE client_id = clients.id) AS runs
         FROM clients LEFT JOIN client_runs AS last ON last.id = (
           SELECT id FROM client_runs WHERE client_id = clients.id AND status IN ('done', 'stopped', 'failed') ORDER BY id DESC LIMIT 1)
         ORDER BY clients.id`,
      ),
      setStatus: db.prepare(`UPDATE clients SET status = ? WHERE id = ?`),
      remove: db.prepare(`DELETE FROM clients WHERE id = ?`),
      newSeries: db.prepare(`UPDATE clients SET keywords = @keywords, products = @products, questions = @questions, series = series + 1 WHERE id = @id`),
      queuedToSeries: db.prepare(
        `UPDATE client_runs SET series = (SELECT series FROM clients WHERE id = @id), prompts = @prompts, calls_planned = @prompts * (calls_planned / prompts) WHERE client_id = @id AND status = 'queued'`,
      ),
      due: db.prepare<[string], ClientRow>(`SELECT * FROM clients WHERE status = 'active' AND next_run_at <= ? ORDER BY next_run_at, id`),
      pendingOf: db.prepare<[number], ClientRunRow>(`SELECT * FROM client_runs WHERE client_id = ? AND status IN ('queued', 'running') ORDER BY id LIMIT 1`),
      insertRun: db.prepare(`INSERT INTO client_runs (client_id, trigger, series, prompts, calls_planned, created_at) VALUES (?, ?, ?, ?, ?, ?)`),
      setNextRun: db.prepare(`UPDATE clients SET next_run_at = ? WHERE id = ?`),
      // One background run at a time, across audits and monitoring: none is claimed while an audit run runs.
      claimable: db.prepare<[string], ClientRunRow>(
        `SELECT * FROM client_runs WHERE status = 'queued' AND (not_before IS NULL OR not_before <= ?)
           AND client_id IN (SELECT id FROM clients WHERE status = 'active')
           AND NOT EXISTS (SELECT 1 FROM client_runs WHERE status = 'running')
           AND NOT EXISTS (SELECT 1 FROM audit_runs WHERE status = 'running')
         ORDER BY id`,
      ),
      answerCount: db.prepare<[number], number>(`SELECT count(*) FROM client_answers WHERE run_id = ?`).pluck(),
      waitUntil: db.prepare(`UPDATE client_runs SET not_before = ? WHERE id = ?`),
      markRunning: db.prepare(`UPDATE client_runs SET status = 'running', attempts = attempts + 1, not_before = NULL, started_at = coalesce(started_at, ?) WHERE id = ?`),
      runById: db.prepare<[number], ClientRunRow>(`SELECT * FROM client_runs WHERE id = ?`),
      latestRunOf: db.prepare<[number], ClientRunRow>(`SELECT * FROM client_runs WHERE client_id = ? ORDER BY id DESC LIMIT 1`),
      runningOther: db.prepare<[number], { id: number; what: string }>(
        `SELECT id, 'client run' AS what FROM client_runs WHERE status = 'running' AND id <> ?
         UNION ALL SELECT id, 'audit run' AS what FROM audit_runs WHERE status = 'running' LIMIT 1`,
      ),
      interrupted: db.prepare<[], ClientRunRow>(`SELECT * FROM client_runs WHERE status = 'running'`),
      requeue: db.prepare(`UPDATE client_runs SET status = 'queued' WHERE id = ?`),
      saveProgress: db.prepare(`UPDATE client_runs SET progress = ? WHERE id = ?`),
      saveCheck: db.prepare(`UPDATE client_runs SET check_report = ? WHERE id = ?`),
      insertAnswer: db.prepare(`INSERT OR REPLACE INTO client_answers (run_id, assistant, question, answer) VALUES (?, ?, ?, ?)`),
      answersOfRun: db.prepare<[number], StoredAnswer>(`SELECT assistant, question, answer FROM client_answers WHERE run_id = ? ORDER BY question, assistant`),
      markFinished: db.prepare(
        `UPDATE client_runs SET status = @status, reason = @reason, visibility_score = @visibility_score, readiness_score = @readiness_score, summary = @summary,
           document = @document, facts = @facts, finished_at = @finished_at WHERE id = @id`,
      ),
      finishedOf: db.prepare<[number], ClientRunRow>(
        `SELECT * FROM client_runs WHERE client_id = ? AND status IN ('done', 'stopped') AND document IS NOT NULL AND facts IS NOT NULL ORDER BY id`,
      ),
      earlierOf: db.prepare<[number, number, number], ClientRunRow>(
        `SELECT * FROM client_runs WHERE client_id = ? AND series = ? AND id < ? AND status IN ('done', 'stopped') ORDER BY id DESC LIMIT 1`,
      ),
      removeMails: db.prepare(`DELETE FROM mail_outbox WHERE kind IN ('monitor-run', 'monitor-note') AND source_id = ?`),
      saveTrend: db.prepare(`UPDATE clients SET trend = ? WHERE id = ?`),
      setBrand: db.prepare(`UPDATE clients SET brand = ? WHERE id = ?`),
      saveRecount: db.prepare(`UPDATE client_runs SET document = @document, facts = @facts, visibility_score = @visibility_score, summary = @summary WHERE id = @id`),
      insertLink: db.prepare(`INSERT INTO client_links (token_hash, client_id, audience, created_at) VALUES (?, ?, ?, ?)`),
      trendByHash: db.prepare<[string], string>(`SELECT trend FROM client_links JOIN clients ON clients.id = client_links.client_id WHERE token_hash = ? AND trend IS NOT NULL`).pluck(),
    };
  }

  /** Adds a client, due for its first run at once (the series' first point); returns its id. */
  add(client: NewClient, now: Date): number {
    const { questions, ...rest } = client;
    return Number(this.statements.insert.run({ ...rest, questions: JSON.stringify(questions), now: now.toISOString() }).lastInsertRowid);
  }

  get(id: number): ClientRow | null {
    return this.statements.byId.get(id) ?? null;
  }

  list(): ClientListing[] {
    return this.statements.list.all();
  }

  setStatus(id: number, status: ClientRow['status']): void {
    this.statements.setStatus.run(status, id);
  }

  /** Everything about the client: its runs, their answers and its links go with it (ON DELETE CASCADE), and its mails. */
  remove(id: number): boolean {
    return this.db
      .transaction(() => {
        this.statements.removeMails.run(id);
        return this.statements.remove.run(id).changes === 1;
      })
      .immediate();
  }

  /** New words, new fixed questions: a new series begins, which the trend does not compare with the runs before. */
  startSeries(id: number, words: { keywords: string; products: string }, questions: PlannedQuestion[]): number {
    return this.db
      .transaction(() => {
        this.statements.newSeries.run({ id, ...words, questions: JSON.stringify(questions) });
        // A run still queued asks the new questions: it is the new series' first.
        this.statements.queuedToSeries.run({ id, prompts: questions.length });
        return this.get(id)?.series ?? 0;
      })
      .immediate();
  }

  /** Queues a run of the client's current questions, and sets its next scheduled run `intervalDays` from now; returns the run's id. */
  enqueue(client: ClientRow, trigger: ClientRunRow['trigger'], assistants: number, intervalDays: number, now: Date): number {
    const prompts = questionsOf(client).length;
    const id = Number(this.statements.insertRun.run(client.id, trigger, client.series, prompts, prompts * assistants, now.toISOString()).lastInsertRowid);
    this.statements.setNextRun.run(new Date(now.getTime() + intervalDays * DAY_MS).toISOString(), client.id);
    return id;
  }

  /** The client's run queued or running, if any. */
  pending(clientId: number): ClientRunRow | null {
    return this.statements.pendingOf.get(clientId) ?? null;
  }

  /**
   * The schedule: each active client due by `now` gets one run queued, and its next run is set an
   * interval from now (not from when it was due): a run missed while the server was down is run
   * once, soon after start, and the schedule goes on from there. A client with a run still pending
   * is not queued twice. Returns the runs queued.
   */
  queueDue(now: Date, assistants: number, intervalDays: number): number[] {
    // Read first: the write lock is taken only when a client is due (the worker asks every few seconds).
    if (this.statements.due.all(now.toISOString()).length === 0) return [];
    return this.db
      .transaction(() =>
        this.statements.due.all(now.toISOString()).flatMap((client) => {
          if (this.pending(client.id)) {
            this.statements.setNextRun.run(new Date(now.getTime() + intervalDays * DAY_MS).toISOString(), client.id);
            return [];
          }
          return [this.enqueue(client, 'schedule', assistants, intervalDays, now)];
        }),
      )
      .immediate();
  }

  /**
   * Takes the next queued run the day's calls can hold and marks it running, in one write
   * transaction; a run they cannot hold (`callsLeft`) waits for the next UTC day rather than
   * running half. A paused client's run waits queued until it is resumed. Null while an audit
   * run or another client's run runs.
   */
  claimNext(now: Date, callsLeft: number): ClientRunRow | null {
    if (this.statements.claimable.all(now.toISOString()).length === 0) return null;
    return this.db
      .transaction(() => {
        for (const row of this.statements.claimable.all(now.toISOString())) {
          const calls = row.calls_planned - this.statements.answerCount.get(row.id)!;
          if (calls > callsLeft) {
            this.statements.waitUntil.run(nextUtcDay(now).toISOString(), row.id);
            continue;
          }
          this.statements.markRunning.run(now.toISOString(), row.id);
          return { ...row, status: 'running' as const, attempts: row.attempts + 1, not_before: null, started_at: row.started_at ?? now.toISOString() };
        }
        return null;
      })
      .immediate();
  }

  run(id: number): ClientRunRow | null {
    return this.statements.runById.get(id) ?? null;
  }

  latestRun(clientId: number): ClientRunRow | null {
    return this.statements.latestRunOf.get(clientId) ?? null;
  }

  /** Another background run the server is running now (one runs at a time, audits included). */
  runningBesides(id: number): { id: number; what: string } | null {
    return this.statements.runningOther.get(id) ?? null;
  }

  progress(id: number, progress: AuditProgress): void {
    this.statements.saveProgress.run(JSON.stringify(progress), id);
  }

  keepCheck(id: number, report: SiteCheckReport): void {
    this.statements.saveCheck.run(JSON.stringify(report), id);
  }

  /** Keeps answers as they arrive, with the progress they make (null: as it stands), in one write transaction. */
  keepAnswers(id: number, answers: readonly StoredAnswer[], progress: AuditProgress | null): void {
    this.db
      .transaction(() => {
        for (const { assistant, question, answer } of answers) this.statements.insertAnswer.run(id, assistant, question, answer);
        if (progress) this.statements.saveProgress.run(JSON.stringify(progress), id);
      })
      .immediate();
  }

  answers(id: number): StoredAnswer[] {
    return this.statements.answersOfRun.all(id);
  }

  /** Records how a run ended, with the facts the trend needs; call it in the transaction that tells the agency. */
  finish(id: number, result: AuditRunResult, facts: string | null, now: Date): void {
    this.statements.markFinished.run({
      id,
      status: result.status,
      reason: result.reason,
      visibility_score: result.visibilityScore,
      readiness_score: result.readinessScore,
      summary: result.summary,
      document: result.document,
      facts,
      finished_at: now.toISOString(),
    });
  }

  /** The client's runs with a report, the oldest first, as they are kept. */
  finishedRuns(clientId: number): ClientRunRow[] {
    return this.statements.finishedOf.all(clientId);
  }

  /** The business's name the client's answers are searched for from now on (null: read from its site at each run). */
  setBrand(id: number, brand: string | null): void {
    this.statements.setBrand.run(brand, id);
  }

  /** Keeps a run's report and facts as counted again under another name (its answers and dates stay as they were). */
  recounted(id: number, recount: { document: string; facts: string; visibilityScore: number | null; summary: string }): void {
    this.statements.saveRecount.run({ id, document: recount.document, facts: recount.facts, visibility_score: recount.visibilityScore, summary: recount.summary });
  }

  /** The client's runs with a report, as the trend is composed from them. */
  trendRuns(clientId: number): TrendRunInput[] {
    return this.statements.finishedOf.all(clientId).map((row) => ({
      id: row.id,
      series: row.series,
      madeAt: row.finished_at ?? row.created_at,
      document: JSON.parse(row.document ?? 'null') as AuditDocument,
      facts: JSON.parse(row.facts ?? 'null') as MonitorRunFacts,
    }));
  }

  /** The run with a report before `run` in its series (what its scores are compared with). */
  earlierRun(run: Pick<ClientRunRow, 'id' | 'client_id' | 'series'>): ClientRunRow | null {
    return this.statements.earlierOf.get(run.client_id, run.series, run.id) ?? null;
  }

  storeTrend(clientId: number, trend: TrendDocument): void {
    this.statements.saveTrend.run(JSON.stringify(trend), clientId);
  }

  /** A new link to the client's page for `audience`: the token, of which only the hash is kept. */
  mintLink(clientId: number, audience: ClientLinkAudience, now: Date): string {
    const token = newCheckToken();
    this.statements.insertLink.run(tokenHash(token), clientId, audience, now.toISOString());
    return token;
  }

  /** The page a link opens; null for any token that opens none (unknown, removed, no run finished yet). */
  trendFor(token: string): TrendDocument | null {
    const trend = this.statements.trendByHash.get(tokenHash(token));
    return typeof trend === 'string' ? (JSON.parse(trend) as TrendDocument) : null;
  }

  /** After a restart: runs that were running are queued again to resume, unless started `maxAttempts` times (returned, to fail). */
  recoverInterrupted(maxAttempts: number): ClientRunRow[] {
    return requeueInterrupted(this.db, { running: this.statements.interrupted, requeue: this.statements.requeue }, maxAttempts);
  }
}

/**
 * A client's fixed questions: the audit's templates filled with the client's words, as a lead's
 * probe makes them (the same templates and form words), `count` of them at most. The business's
 * own name and site are left out of every question; so are a contact's name and address.
 */
export function planClientQuestions(
  words: Pick<ClientRow, 'keywords' | 'customer' | 'products' | 'description' | 'brand' | 'site'>,
  count: number,
  personal: readonly string[],
): PlannedQuestion[] {
  return planQuestions(
    { targetKeywords: words.keywords, idealCustomer: words.customer, currentProducts: words.products, businessDescription: words.description },
    { count, templates: probePrompts.templates, brand: words.brand, domain: siteOf(words.site), personal },
  );
}
