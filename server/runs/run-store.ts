import type { Db } from '../db/database';
import type { RunResult } from '../reports/run-outcome';
import { requeueInterrupted } from '../queue-worker';
import { newCheckToken, tokenHash } from '../site-check/check-store';
import type { SiteCheckReport } from '../site-check/check-report';
import type { AssistantId } from '../visibility-probe/assistant-catalogue';
import type { PlannedQuestion } from '../visibility-probe/prompts';
import { runCalls, type RunShape } from './run-budget';

/**
 * The full runs, an audit request's and a monitored client's alike (runs), each answer as it
 * arrives (run_answers), and the links given out to their reports (run_links, token hashes only):
 * one store, so that what both kinds do (queue, claim, keep, finish, resume, link) is written once.
 */

type RunStatus = 'queued' | 'running' | 'done' | 'stopped' | 'failed';

/** What a run is for: an audit request, or a monitored client. */
export type RunFor = { audit: number } | { client: number };

export interface RunRow {
  id: number;
  audit_id: number | null;
  client_id: number | null;
  status: RunStatus;
  trigger: 'command' | 'auto' | 'schedule';
  /** A client's question series (null for an audit). */
  series: number | null;
  prompts: number;
  calls_planned: number;
  attempts: number;
  progress: string | null;
  reason: string | null;
  visibility_score: number | null;
  readiness_score: number | null;
  summary: string | null;
  /** The report (AuditDocument JSON). */
  document: string | null;
  /** What a client's trend compares (MonitorRunFacts JSON). */
  facts: string | null;
  check_report: string | null;
  /** The questions it asks (PlannedQuestion[] JSON): fixed beforehand for a client, kept once made for an audit. */
  questions: string | null;
  /** A run the day's calls could not hold waits until then. */
  not_before: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  sent_at: string | null;
}

/** How far a run has come, as the commands show it (runs.progress). */
export interface RunProgress {
  step: 'checking the site' | 'asking';
  /** Questions put to each assistant (known once the site has been read). */
  questions: number | null;
  /** Questions answered (or given up) so far, by assistant. */
  answered: Partial<Record<AssistantId, number>>;
}

/** An answer as it is kept: its JSON as the run's process wrote it. */
export interface StoredAnswer {
  assistant: AssistantId;
  question: number;
  answer: string;
}

export type LinkAudience = 'agency' | 'prospect' | 'client';

/** A run queued: what it is for, who queued it, and what it will ask. */
export interface NewRun {
  for: RunFor;
  trigger: RunRow['trigger'];
  /** Questions to each assistant, at most (an audit's are made when it starts). */
  prompts: number;
  /** The assistants it asks and the direct questions it puts to each: with `prompts`, its calls (runCalls). */
  shape: RunShape;
  /** A client's series and its fixed questions. */
  series?: number;
  questions?: readonly PlannedQuestion[];
}

const forColumn = (what: RunFor) => ('audit' in what ? { column: 'audit_id', id: what.audit } : { column: 'client_id', id: what.client });

export class RunStore {
  private readonly statements;

  constructor(private readonly db: Db) {
    const ofFor = (where: string) => ({
      audit: db.prepare<[number], RunRow>(`SELECT * FROM runs WHERE audit_id = ? ${where}`),
      client: db.prepare<[number], RunRow>(`SELECT * FROM runs WHERE client_id = ? ${where}`),
    });
    this.statements = {
      insert: db.prepare(
        `INSERT INTO runs (audit_id, client_id, trigger, series, prompts, calls_planned, questions, created_at)
         VALUES (@audit_id, @client_id, @trigger, @series, @prompts, @calls_planned, @questions, @now)`,
      ),
      byId: db.prepare<[number], RunRow>(`SELECT * FROM runs WHERE id = ?`),
      latest: ofFor('ORDER BY id DESC LIMIT 1'),
      latestFinished: ofFor(`AND status = 'done' ORDER BY id DESC LIMIT 1`),
      pending: ofFor(`AND status IN ('queued', 'running') ORDER BY id LIMIT 1`),
      withReport: ofFor(`AND status IN ('done', 'stopped') AND document IS NOT NULL ORDER BY id`),
      // A paused client's run waits, queued, until it is resumed; one the day cannot hold waits for its day.
      claimable: db.prepare<[string], RunRow>(
        `SELECT * FROM runs WHERE status = 'queued' AND (not_before IS NULL OR not_before <= ?)
           AND (client_id IS NULL OR client_id IN (SELECT id FROM clients WHERE status = 'active'))
         ORDER BY id`,
      ),
      running: db.prepare<[], RunRow>(`SELECT * FROM runs WHERE status = 'running' ORDER BY id LIMIT 1`),
      runningBesides: db.prepare<[number], RunRow>(`SELECT * FROM runs WHERE status = 'running' AND id <> ? ORDER BY id LIMIT 1`),
      answerCount: db.prepare<[number], number>(`SELECT count(*) FROM run_answers WHERE run_id = ?`).pluck(),
      waitUntil: db.prepare(`UPDATE runs SET not_before = ? WHERE id = ?`),
      markRunning: db.prepare(`UPDATE runs SET status = 'running', attempts = attempts + 1, not_before = NULL, started_at = coalesce(started_at, ?) WHERE id = ?`),
      putBack: db.prepare(`UPDATE runs SET status = 'queued', attempts = max(0, attempts - 1) WHERE id = ? AND status = 'running'`),
      interrupted: db.prepare<[], RunRow>(`SELECT * FROM runs WHERE status = 'running'`),
      requeue: db.prepare(`UPDATE runs SET status = 'queued' WHERE id = ?`),
      saveProgress: db.prepare(`UPDATE runs SET progress = ? WHERE id = ?`),
      saveCheck: db.prepare(`UPDATE runs SET check_report = ? WHERE id = ?`),
      saveQuestions: db.prepare(`UPDATE runs SET questions = ? WHERE id = ?`),
      insertAnswer: db.prepare(`INSERT OR REPLACE INTO run_answers (run_id, assistant, question, answer) VALUES (?, ?, ?, ?)`),
      answersOf: db.prepare<[number], StoredAnswer>(`SELECT assistant, question, answer FROM run_answers WHERE run_id = ? ORDER BY question, assistant`),
      markFinished: db.prepare(
        `UPDATE runs SET status = @status, reason = @reason, visibility_score = @visibility_score, readiness_score = @readiness_score, summary = @summary,
           document = @document, facts = @facts, finished_at = @finished_at WHERE id = @id`,
      ),
      continueStopped: db.prepare(`UPDATE runs SET status = 'queued', attempts = 0, not_before = ?, finished_at = NULL WHERE id = ? AND status = 'stopped'`),
      saveRecount: db.prepare(`UPDATE runs SET document = @document, facts = coalesce(@facts, facts), visibility_score = @visibility_score, summary = @summary WHERE id = @id`),
      markSent: db.prepare(`UPDATE runs SET sent_at = ? WHERE id = ? AND sent_at IS NULL`),
      insertRunLink: db.prepare(`INSERT INTO run_links (token_hash, run_id, audience, created_at) VALUES (?, ?, ?, ?)`),
      insertClientLink: db.prepare(`INSERT INTO run_links (token_hash, client_id, audience, created_at) VALUES (?, ?, ?, ?)`),
      // A report opens only once its run has one: a run still going, or failed, answers as unknown.
      documentByHash: db
        .prepare<[string], string>(`SELECT document FROM run_links JOIN runs ON runs.id = run_links.run_id WHERE token_hash = ? AND status IN ('done', 'stopped') AND document IS NOT NULL`)
        .pluck(),
      trendByHash: db.prepare<[string], string>(`SELECT trend FROM run_links JOIN clients ON clients.id = run_links.client_id WHERE token_hash = ? AND trend IS NOT NULL`).pluck(),
      revokeRunLinks: db.prepare(`DELETE FROM run_links WHERE run_id IN (SELECT id FROM runs WHERE audit_id = ?)`),
      revokeClientLinks: db.prepare(`DELETE FROM run_links WHERE client_id = ?`),
    };
  }

  /** Queues a run; returns its id. */
  enqueue(run: NewRun, now: Date): number {
    const { column, id } = forColumn(run.for);
    return Number(
      this.statements.insert.run({
        audit_id: column === 'audit_id' ? id : null,
        client_id: column === 'client_id' ? id : null,
        trigger: run.trigger,
        series: run.series ?? null,
        prompts: run.prompts,
        calls_planned: runCalls(run.prompts, run.shape),
        questions: run.questions ? JSON.stringify(run.questions) : null,
        now: now.toISOString(),
      }).lastInsertRowid,
    );
  }

  get(id: number): RunRow | null {
    return this.statements.byId.get(id) ?? null;
  }

  /** The latest run of a request or a client, whatever its state. */
  latest(what: RunFor): RunRow | null {
    return 'audit' in what ? (this.statements.latest.audit.get(what.audit) ?? null) : (this.statements.latest.client.get(what.client) ?? null);
  }

  /** The latest run that finished with every question asked. */
  latestDone(what: RunFor): RunRow | null {
    return 'audit' in what ? (this.statements.latestFinished.audit.get(what.audit) ?? null) : (this.statements.latestFinished.client.get(what.client) ?? null);
  }

  /** Its run queued or running, if any: never two at once. */
  pending(what: RunFor): RunRow | null {
    return 'audit' in what ? (this.statements.pending.audit.get(what.audit) ?? null) : (this.statements.pending.client.get(what.client) ?? null);
  }

  /** Its runs with a report (done, or stopped part way), the oldest first. */
  withReport(what: RunFor): RunRow[] {
    return 'audit' in what ? this.statements.withReport.audit.all(what.audit) : this.statements.withReport.client.all(what.client);
  }

  /** The run running now besides `id`, if any: one runs at a time. */
  runningBesides(id: number): RunRow | null {
    return this.statements.runningBesides.get(id) ?? null;
  }

  /** Calls the run still needs: its planned calls less the answers it kept. */
  callsLeftFor(run: Pick<RunRow, 'id' | 'calls_planned'>): number {
    return Math.max(0, run.calls_planned - this.statements.answerCount.get(run.id)!);
  }

  /**
   * Takes the oldest queued run that may run now and marks it running, in one write transaction:
   * none while another runs (one at a time, both kinds together). `fits` says whether the day's
   * calls can hold the calls a run still needs; one they cannot waits until `waitUntil` rather than
   * running half, and the next is looked at.
   */
  claimNext(now: Date, fits: (calls: number) => boolean, waitUntil: Date): RunRow | null {
    if (this.statements.running.get() || this.statements.claimable.all(now.toISOString()).length === 0) return null;
    return this.db
      .transaction(() => {
        if (this.statements.running.get()) return null;
        for (const row of this.statements.claimable.all(now.toISOString())) {
          if (!fits(this.callsLeftFor(row))) {
            this.statements.waitUntil.run(waitUntil.toISOString(), row.id);
            continue;
          }
          this.statements.markRunning.run(now.toISOString(), row.id);
          return this.get(row.id);
        }
        return null;
      })
      .immediate();
  }

  /** A run a clean stop ended: queued again, the start not counted (a normal restart is no attempt). */
  putBack(id: number): void {
    this.statements.putBack.run(id);
  }

  /** After a restart: runs that were running are queued again, unless started `maxAttempts` times (returned, to fail). */
  recoverInterrupted(maxAttempts: number): RunRow[] {
    return requeueInterrupted(this.db, { running: this.statements.interrupted, requeue: this.statements.requeue }, maxAttempts);
  }

  progress(id: number, progress: RunProgress): void {
    this.statements.saveProgress.run(JSON.stringify(progress), id);
  }

  keepCheck(id: number, report: SiteCheckReport): void {
    this.statements.saveCheck.run(JSON.stringify(report), id);
  }

  /** The questions an audit's run made (a client's are fixed when it is queued). */
  keepQuestions(id: number, questions: readonly PlannedQuestion[]): void {
    this.statements.saveQuestions.run(JSON.stringify(questions), id);
  }

  /** Keeps answers as they arrive, with the progress they make (null: as it stands), in one write transaction. */
  keepAnswers(id: number, answers: readonly StoredAnswer[], progress: RunProgress | null): void {
    this.db
      .transaction(() => {
        for (const { assistant, question, answer } of answers) this.statements.insertAnswer.run(id, assistant, question, answer);
        if (progress) this.statements.saveProgress.run(JSON.stringify(progress), id);
      })
      .immediate();
  }

  answers(id: number): StoredAnswer[] {
    return this.statements.answersOf.all(id);
  }

  /** Records how a run ended (with a client's facts); call it in the transaction that tells the agency. */
  finish(id: number, result: RunResult, facts: string | null, now: Date): void {
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

  /** A run stopped part way, queued again to ask the rest (not before `notBefore`, when given); false when it was not stopped. */
  continueStopped(id: number, notBefore: Date | null = null): boolean {
    return this.statements.continueStopped.run(notBefore?.toISOString() ?? null, id).changes === 1;
  }

  /** Keeps a run's report (and a client's facts) as counted again under another name: its answers and dates stay as they were. */
  recounted(id: number, recount: { document: string; facts: string | null; visibilityScore: number | null; summary: string }): void {
    this.statements.saveRecount.run({ id, document: recount.document, facts: recount.facts, visibility_score: recount.visibilityScore, summary: recount.summary });
  }

  /** Marks a run's report sent to the prospect; false when it was sent before (sent once, whoever asks). */
  markSent(id: number, now: Date): boolean {
    return this.statements.markSent.run(now.toISOString(), id).changes === 1;
  }

  /** A new link to an audit run's report, or to a client's page, for `audience`: the token, of which only the hash is kept. */
  mintLink(to: { run: number } | { client: number }, audience: LinkAudience, now: Date): string {
    const token = newCheckToken();
    if ('run' in to) this.statements.insertRunLink.run(tokenHash(token), to.run, audience, now.toISOString());
    else this.statements.insertClientLink.run(tokenHash(token), to.client, audience, now.toISOString());
    return token;
  }

  /** The report an audit link opens, or null (unknown, revoked, erased, not finished). */
  reportFor(token: string): string | null {
    return this.statements.documentByHash.get(tokenHash(token)) ?? null;
  }

  /** The trend a client's link opens, or null. */
  trendFor(token: string): string | null {
    return this.statements.trendByHash.get(tokenHash(token)) ?? null;
  }

  /** Ends every link given out to a request's reports, or to a client's page; returns how many. */
  revokeLinks(what: RunFor): number {
    return 'audit' in what ? this.statements.revokeRunLinks.run(what.audit).changes : this.statements.revokeClientLinks.run(what.client).changes;
  }
}
