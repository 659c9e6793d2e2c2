import type { Db } from '../db/database';
import { requeueInterrupted } from '../queue-worker';
import { probeKeyword, prospectView } from './probe-view';
import type { ProbeReport } from './probe-report';
import { reportSummary } from './report';

type ProbeRowStatus = 'queued' | 'running' | 'done' | 'stopped' | 'skipped' | 'failed';

export interface ProbeRow {
  id: number;
  audit_id: number;
  status: ProbeRowStatus;
  attempts: number;
  reason: string | null;
  score: number | null;
  summary: string | null;
  report: string | null;
  /** What the prospect's page shows of it (ProbeView, JSON), stored with the report. */
  view: string | null;
  created_at: string;
  finished_at: string | null;
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** The stored report of a finished probe (null while it is queued or running, or when it failed without one). */
export function storedProbeReport(row: { report: string | null }): ProbeReport | null {
  return row.report ? (JSON.parse(row.report) as ProbeReport) : null;
}

/**
 * The visibility_probes table (one probe per audit request, queued in the request's transaction,
 * claimed by the worker once the request's site check has ended) and probe_calls, the calls made
 * to the assistants each UTC day.
 */
export class ProbeStore {
  private readonly insert;
  private readonly insertSkipped;
  private readonly nextQueued;
  private readonly markRunning;
  private readonly markFinished;
  private readonly keywordsOf;
  private readonly requestKeywords;
  private readonly byAudit;
  private readonly interrupted;
  private readonly requeue;
  private readonly giveUp;
  private readonly callsOnDay;
  private readonly countCall;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(`INSERT INTO visibility_probes (audit_id, created_at) VALUES (?, ?)`);
    this.insertSkipped = db.prepare(
      `INSERT INTO visibility_probes (audit_id, status, reason, summary, report, view, created_at, finished_at) VALUES (@audit_id, @status, @reason, @summary, @report, @view, @now, @now)`,
    );
    // The probe looks for the business by the name its site gives: it waits for the request's site check.
    this.nextQueued = db.prepare<[], ProbeRow>(
      `SELECT * FROM visibility_probes AS probe WHERE status = 'queued'
         AND NOT EXISTS (SELECT 1 FROM site_checks WHERE site_checks.audit_id = probe.audit_id AND site_checks.status IN ('queued', 'running'))
       ORDER BY id LIMIT 1`,
    );
    this.markRunning = db.prepare(`UPDATE visibility_probes SET status = 'running', attempts = attempts + 1 WHERE id = ?`);
    this.markFinished = db.prepare(
      `UPDATE visibility_probes SET status = @status, reason = @reason, score = @score, summary = @summary, report = @report, view = @view, finished_at = @finished_at WHERE id = @id`,
    );
    this.requestKeywords = db.prepare<[number], string>(`SELECT target_keywords FROM audit_submissions WHERE id = ?`).pluck();
    this.keywordsOf = db
      .prepare<[number], string>(`SELECT target_keywords FROM audit_submissions JOIN visibility_probes ON visibility_probes.audit_id = audit_submissions.id WHERE visibility_probes.id = ?`)
      .pluck();
    this.byAudit = db.prepare<[number], ProbeRow>(`SELECT * FROM visibility_probes WHERE audit_id = ?`);
    this.interrupted = db.prepare<[], ProbeRow>(`SELECT * FROM visibility_probes WHERE status = 'running'`);
    this.requeue = db.prepare(`UPDATE visibility_probes SET status = 'queued' WHERE id = ?`);
    this.giveUp = db.prepare(`UPDATE visibility_probes SET status = 'failed', reason = ?, summary = ?, finished_at = ? WHERE id = ?`);
    this.callsOnDay = db.prepare<[string], number>(`SELECT calls FROM probe_calls WHERE day = ?`).pluck();
    this.countCall = db.prepare(`INSERT INTO probe_calls (day, calls) VALUES (?, 1) ON CONFLICT (day) DO UPDATE SET calls = calls + 1`);
  }

  /** Queues the probe of an audit request; call it inside the request's transaction. */
  enqueue(auditId: number, now: Date): number {
    return Number(this.insert.run(auditId, now.toISOString()).lastInsertRowid);
  }

  /** Records the probe of an audit request as not run (`report` says why); call it inside the request's transaction. Nothing is queued. */
  recordSkipped(auditId: number, report: ProbeReport, now: Date): number {
    return Number(
      this.insertSkipped.run({
        audit_id: auditId,
        status: report.status,
        reason: report.reason,
        summary: reportSummary(report),
        report: JSON.stringify(report),
        view: JSON.stringify(prospectView(report, probeKeyword(this.requestKeywords.get(auditId) ?? ''))),
        now: now.toISOString(),
      }).lastInsertRowid,
    );
  }

  /** Takes the next queued probe whose request's site check has ended, and marks it running. */
  claimNext(): ProbeRow | null {
    return this.db
      .transaction(() => {
        const row = this.nextQueued.get();
        if (!row) return null;
        this.markRunning.run(row.id);
        return { ...row, status: 'running' as const, attempts: row.attempts + 1 };
      })
      .immediate();
  }

  /** Records a probe's report, and what the prospect's page shows of it; call it in the transaction that delivers it. */
  finish(id: number, report: ProbeReport, now: Date): void {
    const view = prospectView(report, probeKeyword(this.keywordsOf.get(id) ?? ''));
    this.markFinished.run({
      id,
      status: report.status,
      reason: report.reason,
      score: report.score,
      summary: reportSummary(report),
      report: JSON.stringify(report),
      view: JSON.stringify(view),
      finished_at: now.toISOString(),
    });
  }

  /** A probe given up with `reason` (no report). */
  fail(id: number, reason: string, now: Date): void {
    this.giveUp.run(reason, `failed: ${reason}`, now.toISOString(), id);
  }

  forAudit(auditId: number): ProbeRow | null {
    return this.byAudit.get(auditId) ?? null;
  }

  /** Calls counted in `now`'s UTC day so far, against PROBE_DAILY_CALLS. */
  callsOn(now: Date): number {
    return this.callsOnDay.get(utcDay(now)) ?? 0;
  }

  /**
   * Counts one call to an assistant against today's (UTC) `perDay`, in one write transaction:
   * true when it may be made, false when the day's calls are used up.
   */
  takeCall(now: Date, perDay: number): boolean {
    return this.db
      .transaction(() => {
        if (this.callsOn(now) >= perDay) return false;
        this.countCall.run(utcDay(now));
        return true;
      })
      .immediate();
  }

  /**
   * After a restart: probes that were running are queued again, unless they have been started
   * `maxAttempts` times already; those are returned, for the worker to record as failed.
   */
  recoverInterrupted(maxAttempts: number): ProbeRow[] {
    return requeueInterrupted(this.db, { running: this.interrupted, requeue: this.requeue }, maxAttempts);
  }
}
