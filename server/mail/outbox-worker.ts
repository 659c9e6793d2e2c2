import type { Db } from '../db/database';
import type { Logger } from '../logger';
import type { MailMessage } from './mail-message';
import type { MailTransport } from './mail-transport';

interface OutboxRow {
  id: number;
  kind: string;
  source_id: number;
  message: string;
  attempts: number;
}

export interface OutboxWorkerOptions {
  db: Db;
  transport: MailTransport;
  logger: Logger;
  /** First retry delay; each further failure doubles it (MAIL_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** The clock the app stamps its outbox rows with: due times are compared on one clock. */
  clock: () => Date;
  /** The longest wait between retries, however many attempts failed. */
  maxRetryDelayMs?: number;
  /** Notifications sent per UTC day at most; the rest wait in the outbox for the next day. */
  dailyCap?: number;
}

/**
 * A flood of form posts that passes every other check still cannot turn the agency's inbox (or
 * its SMTP provider's quota) into a spam target: past this many mails a day, notifications wait.
 * Leads are still stored at once and the mails go out the next day.
 */
export const DAILY_MAIL_CAP = 200;

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/**
 * Sends the mails that the lead transactions wrote to mail_outbox. nodemailer never retries by
 * itself, so this does: a failed send is logged ('Email sending failed'), rescheduled with
 * exponential backoff, and kept however often it fails. Rows live in the database, so pending
 * mail survives restarts. One send at a time: a lead is a few a day, and sequential sending
 * means a row is never sent twice by this process.
 */
export class OutboxWorker {
  private readonly due;
  private readonly nextDue;
  private readonly markSent;
  private readonly markFailed;
  private readonly sentSince;
  private readonly clock: () => Date;
  private readonly dailyCap: number;
  private capWarnedFor: string | null = null;
  private readonly maxRetryDelayMs: number;
  private running: Promise<void> | null = null;
  private rerun = false;
  private timer: NodeJS.Timeout | null = null;
  private wakeAt: Date | null = null;
  private stopped = false;

  constructor(private readonly options: OutboxWorkerOptions) {
    const { db } = options;
    this.clock = options.clock;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 6 * 60 * 60 * 1000;
    this.dailyCap = options.dailyCap ?? DAILY_MAIL_CAP;
    this.sentSince = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM mail_outbox WHERE sent_at >= ?`);
    this.due = db.prepare<[string], OutboxRow>(
      `SELECT id, kind, source_id, message, attempts FROM mail_outbox
       WHERE sent_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 20`,
    );
    this.nextDue = db.prepare<[], { next: string | null }>(`SELECT min(next_attempt_at) AS next FROM mail_outbox WHERE sent_at IS NULL`);
    this.markSent = db.prepare(`UPDATE mail_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?`);
    this.markFailed = db.prepare(`UPDATE mail_outbox SET attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?`);
  }

  /** Starts sending what is due (including mail left from before a restart). */
  start(): void {
    this.stopped = false;
    this.kick();
  }

  /** Sends what is due now; called after each new lead, without making the visitor wait. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'Mail outbox worker failed'))
      .finally(() => {
        this.running = null;
        if (this.rerun) {
          this.rerun = false;
          this.kick();
        } else {
          this.schedule();
        }
      });
  }

  /** When the worker next looks for due mail on its own (null: nothing pending, or stopped). */
  get nextWake(): Date | null {
    return this.wakeAt;
  }

  /** Resolves when the current pass is over (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wakeAt = null;
    await this.idle();
  }

  private retryDelay(attempts: number): number {
    return Math.min(this.options.retryBaseMs * 2 ** (attempts - 1), this.maxRetryDelayMs);
  }

  /** True (and logged once a day) when today's notifications have reached the cap. */
  private capReached(): boolean {
    const dayStart = startOfUtcDay(this.clock());
    const sentToday = this.sentSince.get(dayStart.toISOString())?.n ?? 0;
    if (sentToday < this.dailyCap) return false;
    const day = dayStart.toISOString().slice(0, 10);
    if (this.capWarnedFor !== day) {
      this.capWarnedFor = day;
      this.options.logger.warn({ sentToday, dailyCap: this.dailyCap }, 'Daily mail cap reached: further notifications wait until tomorrow (UTC)');
    }
    return true;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped || this.capReached()) return;
      const rows = this.due.all(this.clock().toISOString());
      if (rows.length === 0) return;
      for (const row of rows) {
        if (this.stopped || this.capReached()) return;
        await this.sendOne(row);
      }
    }
  }

  private async sendOne(row: OutboxRow): Promise<void> {
    const { logger, transport } = this.options;
    try {
      const message = JSON.parse(row.message) as MailMessage;
      await transport.send(message);
      this.markSent.run(this.clock().toISOString(), row.id);
      logger.info({ mailId: row.id, kind: row.kind, sourceId: row.source_id, via: transport.description }, 'Email sent');
    } catch (error) {
      const attempts = row.attempts + 1;
      const delay = this.retryDelay(attempts);
      const nextAttemptAt = new Date(this.clock().getTime() + delay).toISOString();
      const reason = error instanceof Error ? error.message : String(error);
      this.markFailed.run(attempts, reason.slice(0, 1000), nextAttemptAt, row.id);
      logger.warn({ mailId: row.id, kind: row.kind, sourceId: row.source_id, attempts, nextAttemptAt, err: reason }, 'Email sending failed');
    }
  }

  /** Wakes up when the earliest pending mail falls due. */
  private schedule(): void {
    // A database closed under a running pass (shutdown, or ops closing it) ends the schedule
    // quietly; the next start picks the pending mails up again.
    if (this.stopped || !this.options.db.open) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wakeAt = null;
    const next = this.nextDue.get()?.next;
    if (!next) return;
    const now = this.clock().getTime();
    // Capped for today: nothing is due before the next UTC day, however overdue the rows are.
    const dueAt = this.capReached() ? startOfUtcDay(this.clock()).getTime() + 86_400_000 : Date.parse(next);
    // At most a minute, so that a clock change or a row added by another process is picked up.
    const wait = Math.min(Math.max(dueAt - now, 0), 60_000);
    this.wakeAt = new Date(now + wait);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wakeAt = null;
      this.kick();
    }, wait);
    this.timer.unref();
  }
}
