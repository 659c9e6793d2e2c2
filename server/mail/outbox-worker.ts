import { escapeHtml } from '../../shared/escape-html';
import { idleWithin } from '../idle-within';
import { REFUSED_RETRY_MS, type Db } from '../db/database';
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
  /** Notifications sent per UTC day at most; the rest wait in the outbox for the next day. */
  dailyCap?: number;
}

/**
 * A flood of form posts that passes every other check still cannot turn the agency's inbox (or
 * its SMTP provider's quota) into a spam target: past this many mails a day, notifications wait.
 * Leads are still stored at once and the mails go out the next day.
 */
const DAILY_MAIL_CAP = 200;

/** The longest wait between retries of a mail, however many attempts failed. */
const MAX_RETRY_DELAY_MS = 6 * 60 * 60 * 1000;

/** A day on which the cap was reached, told to the agency in the next mail that goes out. */
interface CapNotice {
  day: string;
  dailyCap: number;
}

/** The mail with a first paragraph saying that notifications were held back by the daily cap. */
function withCapNotice(message: MailMessage, notice: CapNotice): MailMessage {
  const text =
    `Note from the website: on ${notice.day} (UTC) the limit of ${notice.dailyCap} notification mails a day was reached, ` +
    'so later notifications waited for the next day. Many requests in a short time may be automated: ' +
    'check the quarantine (npm run export:csv -- --table quarantine) and the outbox.';
  const paragraph = `<p style="padding:12px;border:1px solid #f59e0b;background:#fffbeb;color:#78350f">${escapeHtml(text)}</p>`;
  return {
    ...message,
    text: `${text}\n\n${message.text}`,
    html: message.html.replace(/(<body[^>]*>)/, `$1${paragraph}`),
  };
}

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
  private readonly readNotice;
  private readonly writeNotice;
  private readonly clearNotice;
  private readonly clock: () => Date;
  private readonly dailyCap: number;
  private running: Promise<void> | null = null;
  private rerun = false;
  private timer: NodeJS.Timeout | null = null;
  private wakeAt: Date | null = null;
  /** The last pass ended on the database's refusal: the next one waits REFUSED_RETRY_MS. */
  private refused = false;
  private stopped = false;

  constructor(private readonly options: OutboxWorkerOptions) {
    const { db } = options;
    this.clock = options.clock;
    this.dailyCap = options.dailyCap ?? DAILY_MAIL_CAP;
    this.sentSince = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM mail_outbox WHERE sent_at >= ?`);
    // The next mail to send: each sender's first of the day before anyone's second, and among
    // those the newest first, so that a flood, from one address or from many, before a lead or
    // after it, never holds a lead back. A sender's mails already sent today count towards its
    // place (the daily cap's UTC day), else each mail sent from a flood would make its next one
    // a first again. A lead's notification goes before the findings of a site check or a probe
    // that follow one: findings never take a new lead's place under the daily cap.
    this.due = db.prepare<{ dayStart: string; now: string }, OutboxRow>(
      `SELECT id, kind, source_id, message, attempts FROM (
         SELECT *, row_number() OVER (PARTITION BY email_key(subject_email) ORDER BY id) AS sender_rank
         FROM mail_outbox WHERE sent_at IS NULL OR sent_at >= @dayStart
       ) WHERE sent_at IS NULL AND next_attempt_at <= @now ORDER BY sender_rank, kind IN ('site-check', 'probe'), id DESC LIMIT 1`,
    );
    this.readNotice = db.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = 'mail_cap_notice'`);
    this.writeNotice = db.prepare(`INSERT INTO settings (key, value) VALUES ('mail_cap_notice', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    this.clearNotice = db.prepare(`DELETE FROM settings WHERE key = 'mail_cap_notice' AND value = ?`);
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
      .catch((error: unknown) => {
        this.refused = true;
        this.options.logger.error({ err: error }, 'Mail outbox worker failed');
      })
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

  /**
   * Stops sending: no new mail is started. Resolves true once the send in progress (if any) has
   * finished and been recorded, or false if it is still running after `graceMs`; that mail stays
   * unsent in the outbox and goes out again at the next start, with the same Message-ID.
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wakeAt = null;
    if (!this.running) return true;
    return idleWithin(() => this.idle(), graceMs);
  }

  private retryDelay(attempts: number): number {
    return Math.min(this.options.retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS);
  }

  /**
   * True when today's notifications have reached the cap. The first time in a UTC day it says so
   * at error level, and leaves a notice (in the database, so a restart keeps it) that the next
   * mail to go out carries to the agency.
   */
  private capReached(): boolean {
    const dayStart = startOfUtcDay(this.clock());
    const sentToday = this.sentSince.get(dayStart.toISOString())?.n ?? 0;
    if (sentToday < this.dailyCap) return false;
    const day = dayStart.toISOString().slice(0, 10);
    if (this.pendingNotice()?.day !== day) {
      this.writeNotice.run(JSON.stringify({ day, dailyCap: this.dailyCap } satisfies CapNotice));
      this.options.logger.error({ sentToday, dailyCap: this.dailyCap }, 'Daily mail cap reached: further notifications wait until tomorrow (UTC)');
    }
    return true;
  }

  private pendingNotice(): CapNotice | null {
    const stored = this.readNotice.get()?.value;
    return stored ? (JSON.parse(stored) as CapNotice) : null;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped || this.capReached()) return;
      const now = this.clock();
      const row = this.due.get({ dayStart: startOfUtcDay(now).toISOString(), now: now.toISOString() });
      if (!row) return;
      // A mail goes only when its sending can be recorded: sent while another program holds the
      // database, it could not be marked sent and would go again. Taking the write lock for a
      // moment throws at once while it is held elsewhere, and the pass ends before the send.
      this.options.db.transaction(() => undefined).immediate();
      await this.sendOne(row);
    }
  }

  private async sendOne(row: OutboxRow): Promise<void> {
    const { logger, transport } = this.options;
    try {
      const notice = this.pendingNotice();
      const stored = JSON.parse(row.message) as MailMessage;
      await transport.send(notice ? withCapNotice(stored, notice) : stored);
      this.markSent.run(this.clock().toISOString(), row.id);
      if (notice) this.clearNotice.run(JSON.stringify(notice));
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

  /** Milliseconds until the next pass should look for due mail; null when nothing is pending. */
  private untilNextPass(): number | null {
    const next = this.nextDue.get()?.next;
    if (!next) return null;
    const now = this.clock().getTime();
    // Capped for today: nothing is due before the next UTC day, however overdue the rows are.
    const dueAt = this.capReached() ? startOfUtcDay(this.clock()).getTime() + 86_400_000 : Date.parse(next);
    // At most a minute, so that a clock change or a row added by another process is picked up.
    return Math.min(Math.max(dueAt - now, 0), 60_000);
  }

  /** Wakes up when the earliest pending mail falls due. */
  private schedule(): void {
    // A database closed under a running pass (shutdown, or ops closing it) ends the schedule
    // quietly; the next start picks the pending mails up again.
    if (this.stopped || !this.options.db.open) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wakeAt = null;
    let wait: number | null;
    try {
      wait = this.untilNextPass();
    } catch (error) {
      this.options.logger.error({ err: error }, 'Mail outbox worker failed');
      wait = REFUSED_RETRY_MS;
    }
    // After a pass the database refused, not at once: an overdue mail would be tried in a loop.
    if (wait !== null && this.refused) wait = Math.max(wait, REFUSED_RETRY_MS);
    this.refused = false;
    if (wait === null) return;
    const now = this.clock().getTime();
    this.wakeAt = new Date(now + wait);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wakeAt = null;
      this.kick();
    }, wait);
    this.timer.unref();
  }
}
