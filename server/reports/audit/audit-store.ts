import type { Db } from '../../db/database';
import { requeueInterrupted } from '../../queue-worker';
import { newCheckToken, tokenHash } from '../../site-check/check-store';
import type { SiteCheckReport } from '../../site-check/check-report';
import type { AssistantId } from '../../visibility-probe/assistant-catalogue';
import type { AuditDocument } from './audit-document';

type AuditRunStatus = 'queued' | 'running' | 'done' | 'stopped' | 'failed';

export interface AuditRunRow {
  id: number;
  audit_id: number;
  status: AuditRunStatus;
  trigger: 'command' | 'auto';
  prompts: number;
  calls_planned: number;
  attempts: number;
  progress: string | null;
  reason: string | null;
  visibility_score: number | null;
  readiness_score: number | null;
  summary: string | null;
  document: string | null;
  check_report: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  sent_at: string | null;
}

/** How far a run has come, as the command shows it (audit_runs.progress). */
export interface AuditProgress {
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

/** How a run ended, as it is recorded. */
export interface AuditRunResult {
  status: 'done' | 'stopped' | 'failed';
  reason: string | null;
  visibilityScore: number | null;
  readinessScore: number | null;
  /** One line for the agency and the CSV export. */
  summary: string;
  /** The report (AuditDocument JSON); null when the run failed without one. */
  document: string | null;
}

export type LinkAudience = 'agency' | 'prospect';

/**
 * The audit runs of audit requests (audit_runs), each answer as it arrived (audit_answers), and the
 * links to their reports (audit_links, token hashes only). Runs are queued by `npm run audit` or,
 * with AUDIT_AUTO=1, after a lead's probe; the server's audit worker runs them one at a time.
 */
export class AuditRunStore {
  private readonly insert;
  private readonly nextQueued;
  private readonly markRunning;
  private readonly byId;
  private readonly latestOf;
  private readonly latestDoneOf;
  private readonly runningOther;
  private readonly interrupted;
  private readonly requeue;
  private readonly saveProgress;
  private readonly saveCheck;
  private readonly insertAnswer;
  private readonly answersOfRun;
  private readonly markFinished;
  private readonly finishedOfRequest;
  private readonly saveRecount;
  private readonly insertLink;
  private readonly documentByHash;
  private readonly markSent;
  private readonly continueRun;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(`INSERT INTO audit_runs (audit_id, trigger, prompts, calls_planned, created_at) VALUES (?, ?, ?, ?, ?)`);
    // One background run at a time, across audits and monitoring: none is claimed while a client's run runs.
    this.nextQueued = db.prepare<[], AuditRunRow>(
      `SELECT * FROM audit_runs WHERE status = 'queued' AND NOT EXISTS (SELECT 1 FROM client_runs WHERE status = 'running') ORDER BY id LIMIT 1`,
    );
    this.markRunning = db.prepare(`UPDATE audit_runs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, ?) WHERE id = ?`);
    this.byId = db.prepare<[number], AuditRunRow>(`SELECT * FROM audit_runs WHERE id = ?`);
    this.latestOf = db.prepare<[number], AuditRunRow>(`SELECT * FROM audit_runs WHERE audit_id = ? ORDER BY id DESC LIMIT 1`);
    this.latestDoneOf = db.prepare<[number], AuditRunRow>(`SELECT * FROM audit_runs WHERE audit_id = ? AND status = 'done' ORDER BY id DESC LIMIT 1`);
    this.runningOther = db.prepare<[number], AuditRunRow>(`SELECT * FROM audit_runs WHERE status = 'running' AND id <> ? ORDER BY id LIMIT 1`);
    this.interrupted = db.prepare<[], AuditRunRow>(`SELECT * FROM audit_runs WHERE status = 'running'`);
    this.requeue = db.prepare(`UPDATE audit_runs SET status = 'queued' WHERE id = ?`);
    this.saveProgress = db.prepare(`UPDATE audit_runs SET progress = ? WHERE id = ?`);
    this.saveCheck = db.prepare(`UPDATE audit_runs SET check_report = ? WHERE id = ?`);
    this.insertAnswer = db.prepare(`INSERT OR REPLACE INTO audit_answers (run_id, assistant, question, answer) VALUES (?, ?, ?, ?)`);
    this.answersOfRun = db.prepare<[number], StoredAnswer>(`SELECT assistant, question, answer FROM audit_answers WHERE run_id = ? ORDER BY question, assistant`);
    this.markFinished = db.prepare(
      `UPDATE audit_runs SET status = @status, reason = @reason, visibility_score = @visibility_score, readiness_score = @readiness_score, summary = @summary, document = @document, finished_at = @finished_at WHERE id = @id`,
    );
    this.finishedOfRequest = db.prepare<[number], AuditRunRow>(`SELECT * FROM audit_runs WHERE audit_id = ? AND status IN ('done', 'stopped') AND document IS NOT NULL ORDER BY id`);
    this.saveRecount = db.prepare(`UPDATE audit_runs SET document = @document, visibility_score = @visibility_score, summary = @summary WHERE id = @id`);
    this.insertLink = db.prepare(`INSERT INTO audit_links (token_hash, run_id, audience, created_at) VALUES (?, ?, ?, ?)`);
    // A report opens only once its run has one: a run still going, or failed, answers as unknown.
    this.documentByHash = db
      .prepare<[string], string>(`SELECT document FROM audit_links JOIN audit_runs ON audit_runs.id = audit_links.run_id WHERE token_hash = ? AND status IN ('done', 'stopped') AND document IS NOT NULL`)
      .pluck();
    this.markSent = db.prepare(`UPDATE audit_runs SET sent_at = ? WHERE id = ? AND sent_at IS NULL`);
    this.continueRun = db.prepare(`UPDATE audit_runs SET status = 'queued', attempts = 0, reason = NULL, finished_at = NULL WHERE id = ? AND status = 'stopped'`);
  }

  /** Queues a run of an audit request: `questions` to each of `assistants` assistants. */
  enqueue(auditId: number, trigger: AuditRunRow['trigger'], questions: number, assistants: number, now: Date): number {
    return Number(this.insert.run(auditId, trigger, questions, questions * assistants, now.toISOString()).lastInsertRowid);
  }

  /** A run stopped part way (the day's calls ran out) queued again: it asks only the questions it has no answer to. */
  continueStopped(id: number): boolean {
    return this.continueRun.run(id).changes === 1;
  }

  /** Takes the next queued run and marks it running, in one write transaction. */
  claimNext(now: Date): AuditRunRow | null {
    return this.db
      .transaction(() => {
        const row = this.nextQueued.get();
        if (!row) return null;
        this.markRunning.run(now.toISOString(), row.id);
        return { ...row, status: 'running' as const, attempts: row.attempts + 1, started_at: row.started_at ?? now.toISOString() };
      })
      .immediate();
  }

  get(id: number): AuditRunRow | null {
    return this.byId.get(id) ?? null;
  }

  /** The request's latest run, whatever its state. */
  latest(auditId: number): AuditRunRow | null {
    return this.latestOf.get(auditId) ?? null;
  }

  /** The request's latest run that finished with every answer. */
  latestDone(auditId: number): AuditRunRow | null {
    return this.latestDoneOf.get(auditId) ?? null;
  }

  /** Another run the server is running now (one runs at a time). */
  runningBesides(id: number): AuditRunRow | null {
    return this.runningOther.get(id) ?? null;
  }

  progress(id: number, progress: AuditProgress): void {
    this.saveProgress.run(JSON.stringify(progress), id);
  }

  /** Keeps the run's own site check, so that a run resumed after a restart asks the same questions. */
  keepCheck(id: number, report: SiteCheckReport): void {
    this.saveCheck.run(JSON.stringify(report), id);
  }

  /** Keeps answers as they arrive, with the progress they make (null: as it stands), in one write transaction. */
  keepAnswers(id: number, answers: readonly StoredAnswer[], progress: AuditProgress | null): void {
    this.db
      .transaction(() => {
        for (const { assistant, question, answer } of answers) this.insertAnswer.run(id, assistant, question, answer);
        if (progress) this.saveProgress.run(JSON.stringify(progress), id);
      })
      .immediate();
  }

  answers(id: number): StoredAnswer[] {
    return this.answersOfRun.all(id);
  }

  /** Records how a run ended; call it in the transaction that tells the agency. */
  finish(id: number, result: AuditRunResult, now: Date): void {
    this.markFinished.run({
      id,
      status: result.status,
      reason: result.reason,
      visibility_score: result.visibilityScore,
      readiness_score: result.readinessScore,
      summary: result.summary,
      document: result.document,
      finished_at: now.toISOString(),
    });
  }

  /** The runs of a request that have a report, the oldest first. */
  finishedOf(auditId: number): AuditRunRow[] {
    return this.finishedOfRequest.all(auditId);
  }

  /** Keeps a run's report as counted again under another name (the run's answers and dates stay as they were). */
  recounted(id: number, recount: { document: string; visibilityScore: number | null; summary: string }): void {
    this.saveRecount.run({ id, document: recount.document, visibility_score: recount.visibilityScore, summary: recount.summary });
  }

  /** A new link to a run's report for `audience`: the token, of which only the hash is kept. */
  mintLink(runId: number, audience: LinkAudience, now: Date): string {
    const token = newCheckToken();
    this.insertLink.run(tokenHash(token), runId, audience, now.toISOString());
    return token;
  }

  /** The report a link opens; null for any token that opens none (unknown, erased, a run not finished). */
  reportFor(token: string): AuditDocument | null {
    const document = this.documentByHash.get(tokenHash(token));
    return typeof document === 'string' ? (JSON.parse(document) as AuditDocument) : null;
  }

  /** Marks the run's report as sent to the prospect; false when it was already. */
  markSentToProspect(id: number, now: Date): boolean {
    return this.markSent.run(now.toISOString(), id).changes === 1;
  }

  /**
   * After a restart: runs that were running are queued again (they resume with the answers they
   * kept), unless they have been started `maxAttempts` times already; those are returned, for the
   * worker to record as failed.
   */
  recoverInterrupted(maxAttempts: number): AuditRunRow[] {
    return requeueInterrupted(this.db, { running: this.interrupted, requeue: this.requeue }, maxAttempts);
  }
}
