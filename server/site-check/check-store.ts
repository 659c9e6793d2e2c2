import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import { hostOf, type SiteCheckReport } from './run-check';
import { reportSummary } from './report';

type CheckRowStatus = 'queued' | 'running' | 'done' | 'refused' | 'failed';

export interface CheckRow {
  id: number;
  audit_id: number;
  url: string;
  host: string;
  status: CheckRowStatus;
  attempts: number;
  reason: string | null;
  score: number | null;
  summary: string | null;
  report: string | null;
  reused_from: number | null;
  created_at: string;
  finished_at: string | null;
}

/** A token for the prospect's thank-you link: 256 random bits, unguessable. */
export function newCheckToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, so a copy of the database opens no result. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The stored report of a finished check (null while it is queued or running). */
export function storedReport(row: Pick<CheckRow, 'report'>): SiteCheckReport | null {
  return row.report ? (JSON.parse(row.report) as SiteCheckReport) : null;
}

/**
 * The site_checks table: one row per audit request that names a website, queued in the request's
 * own transaction, claimed by the worker, finished with its report.
 */
export class SiteCheckStore {
  private readonly insert;
  private readonly nextQueued;
  private readonly markRunning;
  private readonly markFinished;
  private readonly recent;
  private readonly byTokenHash;
  private readonly byAudit;
  private readonly interrupted;
  private readonly requeue;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(`INSERT INTO site_checks (audit_id, url, host, token_hash, created_at) VALUES (?, ?, ?, ?, ?)`);
    // A host already being checked waits: its result is reused rather than fetched twice.
    this.nextQueued = db.prepare<[], CheckRow>(
      `SELECT * FROM site_checks WHERE status = 'queued'
         AND host NOT IN (SELECT host FROM site_checks WHERE status = 'running' AND host <> '')
       ORDER BY id LIMIT 1`,
    );
    this.markRunning = db.prepare(`UPDATE site_checks SET status = 'running', attempts = attempts + 1 WHERE id = ?`);
    this.markFinished = db.prepare(
      `UPDATE site_checks SET status = @status, reason = @reason, score = @score, summary = @summary, report = @report, reused_from = @reused_from, finished_at = @finished_at WHERE id = @id`,
    );
    this.recent = db.prepare<[string, string, number], CheckRow>(
      `SELECT * FROM site_checks WHERE host = ? AND host <> '' AND status IN ('done', 'refused', 'failed') AND finished_at >= ? AND id <> ?
       ORDER BY finished_at DESC LIMIT 1`,
    );
    this.byTokenHash = db.prepare<[string], CheckRow>(`SELECT * FROM site_checks WHERE token_hash = ?`);
    this.byAudit = db.prepare<[number], CheckRow>(`SELECT * FROM site_checks WHERE audit_id = ?`);
    this.interrupted = db.prepare<[], CheckRow>(`SELECT * FROM site_checks WHERE status = 'running'`);
    this.requeue = db.prepare(`UPDATE site_checks SET status = 'queued' WHERE id = ?`);
  }

  /** Queues the check of an audit request's website; call it inside the request's transaction. */
  enqueue(auditId: number, url: string, token: string, now: Date): number {
    return Number(this.insert.run(auditId, url, hostOf(url), tokenHash(token), now.toISOString()).lastInsertRowid);
  }

  /** Takes the next queued check and marks it running, in one write transaction. */
  claimNext(): CheckRow | null {
    return this.db
      .transaction(() => {
        const row = this.nextQueued.get();
        if (!row) return null;
        this.markRunning.run(row.id);
        return { ...row, status: 'running' as const, attempts: row.attempts + 1 };
      })
      .immediate();
  }

  /** A finished check of the same host since `since`, whose result can stand for a new one. */
  recentResult(row: CheckRow, since: Date): CheckRow | null {
    return this.recent.get(row.host, since.toISOString(), row.id) ?? null;
  }

  /** Records a check's report (its own, or another's reused); call it in the transaction that delivers it. */
  finish(id: number, report: SiteCheckReport, now: Date, reusedFrom: number | null = null): void {
    this.markFinished.run({
      id,
      status: report.status,
      reason: report.reason,
      score: report.score,
      summary: reportSummary(report),
      report: JSON.stringify(report),
      reused_from: reusedFrom,
      finished_at: now.toISOString(),
    });
  }

  byToken(token: string): CheckRow | null {
    return this.byTokenHash.get(tokenHash(token)) ?? null;
  }

  forAudit(auditId: number): CheckRow | null {
    return this.byAudit.get(auditId) ?? null;
  }

  /**
   * After a restart: checks that were running when the process stopped are queued again, unless
   * they have been started `maxAttempts` times already; those are returned, for the worker to
   * record as failed (a site that keeps ending the process in the middle of its check is given up).
   */
  recoverInterrupted(maxAttempts: number): CheckRow[] {
    return this.db
      .transaction(() => {
        const givenUp: CheckRow[] = [];
        for (const row of this.interrupted.all()) {
          if (row.attempts < maxAttempts) this.requeue.run(row.id);
          else givenUp.push(row);
        }
        return givenUp;
      })
      .immediate();
  }
}
