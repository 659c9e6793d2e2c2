import { createHash, randomBytes } from 'node:crypto';
import type { SiteCheckView } from '../../shared/site-check';
import { withoutWaitingForLocks, type Db } from '../db/database';
import { requeueInterrupted } from '../queue-worker';
import { hostOf, urlKeyOf, type SiteCheckReport } from './check-report';
import { reportSummary, reportView } from './report';

type CheckRowStatus = 'queued' | 'running' | 'done' | 'refused' | 'failed' | 'skipped';

export interface CheckRow {
  id: number;
  /** The audit request the check belongs to; null for a check asked for on its own. */
  audit_id: number | null;
  url: string;
  /** The normalised address a recent result is reused by. */
  url_key: string;
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
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The stored report of a finished check (null while it is queued or running). */
export function storedReport(row: Pick<CheckRow, 'report'>): SiteCheckReport | null {
  return row.report ? (JSON.parse(row.report) as SiteCheckReport) : null;
}

/** Checks waiting to run at most; past it, a new one is recorded as skipped. */
export const MAX_QUEUED_CHECKS = 100;

/**
 * The site_checks table: one row per check, queued in the transaction of the request that asks
 * for it, claimed by the worker, finished with its report. The checks of audit requests go
 * before those asked for on their own.
 */
export class SiteCheckStore {
  private readonly insert;
  private readonly insertFinished;
  private readonly queued;
  private readonly nextQueued;
  private readonly markRunning;
  private readonly markFinished;
  private readonly recent;
  private readonly byTokenHash;
  private readonly requestWords;
  private readonly heldByTokenHash;
  private readonly byAudit;
  private readonly interrupted;
  private readonly requeue;
  private readonly giveUp;
  private readonly waitingSince;
  private readonly latestFinished;
  private readonly unlinkOld;
  private readonly deleteOld;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(`INSERT INTO site_checks (audit_id, url, url_key, host, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
    this.insertFinished = db.prepare(
      `INSERT INTO site_checks (audit_id, url, url_key, host, token_hash, status, reason, summary, report, created_at, finished_at)
       VALUES (@audit_id, @url, @url_key, @host, @token_hash, @status, @reason, @summary, @report, @now, @now)`,
    );
    this.queued = db.prepare<[], number>(`SELECT count(*) FROM site_checks WHERE status = 'queued'`).pluck();
    // A host already being checked waits: its result is reused rather than fetched twice.
    this.nextQueued = db.prepare<[], CheckRow>(
      `SELECT * FROM site_checks WHERE status = 'queued'
         AND host NOT IN (SELECT host FROM site_checks WHERE status = 'running' AND host <> '')
       ORDER BY audit_id IS NULL, id LIMIT 1`,
    );
    this.markRunning = db.prepare(`UPDATE site_checks SET status = 'running', attempts = attempts + 1 WHERE id = ?`);
    this.markFinished = db.prepare(
      `UPDATE site_checks SET status = @status, reason = @reason, score = @score, summary = @summary, report = @report, reused_from = @reused_from, finished_at = @finished_at WHERE id = @id`,
    );
    this.recent = db.prepare<[string, string, number], CheckRow>(
      `SELECT * FROM site_checks WHERE url_key = ? AND url_key <> '' AND status IN ('done', 'refused', 'failed') AND finished_at >= ? AND id <> ?
       ORDER BY finished_at DESC LIMIT 1`,
    );
    this.byTokenHash = db.prepare<[string], CheckRow>(`SELECT * FROM site_checks WHERE token_hash = ?`);
    this.requestWords = db.prepare<[number], { keywords: string; products: string; customer: string; description: string }>(
      `SELECT target_keywords AS keywords, current_products AS products, ideal_customer AS customer, business_description AS description FROM audit_submissions WHERE id = ?`,
    );
    this.heldByTokenHash = db
      .prepare<[string], string>(`SELECT coalesce(json_extract(fields, '$.website_url'), json_extract(fields, '$.website')) FROM quarantine WHERE check_token_hash = ?`)
      .pluck();
    this.byAudit = db.prepare<[number], CheckRow>(`SELECT * FROM site_checks WHERE audit_id = ?`);
    this.interrupted = db.prepare<[], CheckRow>(`SELECT * FROM site_checks WHERE status = 'running'`);
    this.requeue = db.prepare(`UPDATE site_checks SET status = 'queued' WHERE id = ?`);
    this.giveUp = db.prepare(`UPDATE site_checks SET status = 'failed', reason = ?, summary = ?, finished_at = ? WHERE id = ? AND status = 'running'`);
    this.waitingSince = db.prepare<[string, number], CheckRow>(`SELECT * FROM site_checks WHERE status = 'queued' AND created_at < ? ORDER BY id LIMIT ?`);
    this.latestFinished = db.prepare<[string, string], CheckRow>(
      `SELECT * FROM site_checks WHERE url_key = ? AND url_key <> '' AND status IN ('done', 'refused', 'failed') AND finished_at >= ? ORDER BY finished_at DESC LIMIT 1`,
    );
    // Copies of a result keep their own report; they only lose the link to the original.
    this.unlinkOld = db.prepare(`UPDATE site_checks SET reused_from = NULL WHERE reused_from IN (SELECT id FROM site_checks WHERE audit_id IS NULL AND created_at < ?)`);
    this.deleteOld = db.prepare(`DELETE FROM site_checks WHERE audit_id IS NULL AND created_at < ?`);
  }

  /**
   * Queues the check of a website; call it inside the transaction of the request that asks for
   * it. A visitor's write: on its own (the public checker's post) it is tried once, failing at once
   * while another program holds the lock (`retryWhileLocked` tries it again).
   */
  enqueue(auditId: number | null, url: string, token: string, now: Date): number {
    return withoutWaitingForLocks(this.db, () => Number(this.insert.run(auditId, url, urlKeyOf(url), hostOf(url), tokenHash(token), now.toISOString()).lastInsertRowid));
  }

  /**
   * A check asked for on its own (the public checker's post) of an address whose check finished
   * since `since`: recorded at once with that result, under this address as typed (nothing of the
   * other request's), so it fetches nothing and waits in no queue. Null when there is no such
   * result (nothing is written). A visitor's write: tried once, like `enqueue`.
   */
  recordReused(url: string, token: string, now: Date, since: Date): number | null {
    const recent = this.latestFinished.get(urlKeyOf(url), since.toISOString());
    const report = recent ? storedReport(recent) : null;
    if (!recent || !report) return null;
    return withoutWaitingForLocks(this.db, () =>
      this.db
        .transaction(() => {
          const id = Number(this.insert.run(null, url, urlKeyOf(url), hostOf(url), tokenHash(token), now.toISOString()).lastInsertRowid);
          this.finish(id, { ...report, url: url.trim() }, now, recent.id);
          return id;
        })
        .immediate(),
    );
  }

  /** Records a check that will not run (`report` says why), in the transaction of the request that asked for it. */
  recordSkipped(auditId: number | null, url: string, token: string, report: SiteCheckReport, now: Date): number {
    return Number(
      this.insertFinished.run({
        audit_id: auditId,
        url,
        url_key: urlKeyOf(url),
        host: hostOf(url),
        token_hash: tokenHash(token),
        status: report.status,
        reason: report.reason,
        summary: reportSummary(report),
        report: JSON.stringify(report),
        now: now.toISOString(),
      }).lastInsertRowid,
    );
  }

  /** Whether the queue holds MAX_QUEUED_CHECKS checks already. */
  queueFull(): boolean {
    return (this.queued.get() ?? 0) >= MAX_QUEUED_CHECKS;
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

  /** Checks queued before `before` and still waiting, `limit` at most: too late to be worth running. */
  waitingSinceBefore(before: Date, limit: number): CheckRow[] {
    return this.waitingSince.all(before.toISOString(), limit);
  }

  /** Deletes the checks asked for on their own (no request owns them) made before `before`; returns how many. */
  purgeAskedAlone(before: Date): number {
    return this.db
      .transaction(() => {
        this.unlinkOld.run(before.toISOString());
        return this.deleteOld.run(before.toISOString()).changes;
      })
      .immediate();
  }

  /** A finished check of the same address since `since`, whose result can stand for a new one. */
  recentResult(row: CheckRow, since: Date): CheckRow | null {
    return this.recent.get(row.url_key, since.toISOString(), row.id) ?? null;
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

  /**
   * A running check whose result could not be recorded: queued again to run once more, or, after
   * `maxAttempts` starts, failed with `reason` (no report). Never left running, which would hold
   * back every later check of its host.
   */
  release(row: Pick<CheckRow, 'id' | 'attempts'>, maxAttempts: number, reason: string, now: Date): void {
    if (row.attempts < maxAttempts) this.requeue.run(row.id);
    else this.giveUp.run(reason, `failed: ${reason}`, now.toISOString(), row.id);
  }

  byToken(token: string): CheckRow | null {
    return this.byTokenHash.get(tokenHash(token)) ?? null;
  }

  /**
   * What the page that holds `token` shows: its check, running or finished; a held submission's
   * token (which leads to no check) as a check still running, so that a sender cannot tell it
   * was held; null for any other token.
   */
  viewByToken(token: string): SiteCheckView | null {
    const hash = tokenHash(token);
    const row = this.byTokenHash.get(hash);
    if (row) {
      const report = storedReport(row);
      // A request's check reads the name as its probe does: the request's own words are searches, never the name.
      const typed = row.audit_id === null ? {} : (this.requestWords.get(row.audit_id) ?? {});
      return report ? reportView(report, typed) : { status: 'pending', host: row.host, url: row.url };
    }
    const heldWebsite = this.heldByTokenHash.get(hash);
    return typeof heldWebsite === 'string' ? { status: 'pending', host: hostOf(heldWebsite), url: heldWebsite } : null;
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
    return requeueInterrupted(this.db, { running: this.interrupted, requeue: this.requeue }, maxAttempts);
  }
}
