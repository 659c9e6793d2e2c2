import { escapeHtml } from '../../shared/escape-html';
import { emptyWal, REFUSED_RETRY_MS } from '../db/database';
import { QueueWorker, type QueueWorkerOptions } from '../queue-worker';
import type { MailMessage } from './mail-message';
import type { MailTransport } from './mail-transport';

interface OutboxRow {
  id: number;
  kind: string;
  source_id: number;
  message: string;
  attempts: number;
}

export interface OutboxWorkerOptions extends QueueWorkerOptions {
  transport: MailTransport;
  /** First retry delay; each further failure doubles it (MAIL_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Notifications sent per UTC day at most; the rest wait in the outbox for the next day. */
  dailyCap?: number;
  /**
   * How often the outbox looks for mail another process queued (`npm run audit -- --send`) while
   * it has none of its own to wait for; unset: it waits to be kicked.
   */
  pollMs?: number;
  /**
   * What a sent mail keeps (its stored JSON, as it will be kept): a secret it carried (a report's
   * private link) is its reader's alone, so once sent the copy loses it, in the file's bytes too.
   */
  keptOnceSent?: (stored: string) => string;
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

/** How a send went: recorded as sent, or as failed with the next try's time. */
type SendOutcome = { sent: true; notice: CapNotice | null } | { sent: false; reason: string };

/**
 * Sends the mails that the lead transactions wrote to mail_outbox. nodemailer never retries by
 * itself, so this does: a failed send is logged ('Email sending failed'), rescheduled with
 * exponential backoff, and kept however often it fails. Rows live in the database, so pending
 * mail survives restarts. One send at a time: a lead is a few a day, and sequential sending
 * means a row is never sent twice by this process.
 */
export class OutboxWorker extends QueueWorker<OutboxRow, SendOutcome> {
  protected readonly name = 'Mail outbox worker';
  private readonly due;
  private readonly nextDue;
  private readonly markSent;
  private readonly markFailed;
  private readonly sentSince;
  private readonly readNotice;
  private readonly writeNotice;
  private readonly clearNotice;
  private readonly transport: MailTransport;
  private readonly retryBaseMs: number;
  private readonly dailyCap: number;
  private readonly pollMs: number | undefined;
  private readonly keptOnceSent: ((stored: string) => string) | undefined;

  constructor(options: OutboxWorkerOptions) {
    super(options);
    const { db } = options;
    this.transport = options.transport;
    this.retryBaseMs = options.retryBaseMs;
    this.dailyCap = options.dailyCap ?? DAILY_MAIL_CAP;
    this.pollMs = options.pollMs;
    this.keptOnceSent = options.keptOnceSent;
    this.sentSince = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM mail_outbox WHERE sent_at >= ?`);
    // The next mail to send: each sender's first of the day before anyone's second, and among
    // those the newest first, so that a flood, from one address or from many, before a lead or
    // after it, never holds a lead back. A sender's mails already sent today count towards its
    // place (the daily cap's UTC day), else each mail sent from a flood would make its next one
    // a first again. A lead's notification goes before the findings of a site check or a probe
    // that follow one, and before an audit run's mails and a monitored client's: those never take a new lead's place
    // under the daily cap.
    this.due = db.prepare<{ dayStart: string; now: string }, OutboxRow>(
      `SELECT id, kind, source_id, message, attempts FROM (
         SELECT *, row_number() OVER (PARTITION BY email_key(subject_email) ORDER BY id) AS sender_rank
         FROM mail_outbox WHERE sent_at IS NULL OR sent_at >= @dayStart
       ) WHERE sent_at IS NULL AND next_attempt_at <= @now ORDER BY sender_rank, kind IN ('site-check', 'probe', 'audit-run', 'audit-report', 'monitor-run', 'monitor-note'), id DESC LIMIT 1`,
    );
    this.readNotice = db.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = 'mail_cap_notice'`);
    this.writeNotice = db.prepare(`INSERT INTO settings (key, value) VALUES ('mail_cap_notice', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    this.clearNotice = db.prepare(`DELETE FROM settings WHERE key = 'mail_cap_notice' AND value = ?`);
    this.nextDue = db.prepare<[], { next: string | null }>(`SELECT min(next_attempt_at) AS next FROM mail_outbox WHERE sent_at IS NULL`);
    this.markSent = db.prepare(`UPDATE mail_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL, message = ? WHERE id = ?`);
    this.markFailed = db.prepare(`UPDATE mail_outbox SET attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?`);
  }

  private retryDelay(attempts: number): number {
    return Math.min(this.retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS);
  }

  /**
   * True when today's notifications have reached the cap. The first time in a UTC day it says so
   * at error level, and leaves a notice (in the database, so a restart keeps it) that the next
   * mail to go out carries to the agency.
   */
  private capReached(): boolean {
    const dayStart = startOfUtcDay(this.options.clock());
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

  protected claim(): OutboxRow | null {
    if (this.capReached()) return null;
    const now = this.options.clock();
    const row = this.due.get({ dayStart: startOfUtcDay(now).toISOString(), now: now.toISOString() });
    if (!row) return null;
    // A mail goes only when its sending can be recorded: sent while another program holds the
    // database, it could not be marked sent and would go again. Taking the write lock for a
    // moment throws at once while it is held elsewhere, and the pass ends before the send.
    this.options.db.transaction(() => undefined).immediate();
    return row;
  }

  protected async run(row: OutboxRow): Promise<SendOutcome> {
    try {
      const notice = this.pendingNotice();
      const stored = JSON.parse(row.message) as MailMessage;
      await this.transport.send(notice ? withCapNotice(stored, notice) : stored);
      return { sent: true, notice };
    } catch (error) {
      return { sent: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  protected record(row: OutboxRow, outcome: SendOutcome): void {
    const { logger, clock } = this.options;
    const about = { mailId: row.id, kind: row.kind, sourceId: row.source_id };
    if (outcome.sent) {
      const kept = this.keptOnceSent?.(row.message) ?? row.message;
      this.markSent.run(clock().toISOString(), kept, row.id);
      if (outcome.notice) this.clearNotice.run(JSON.stringify(outcome.notice));
      logger.info({ ...about, via: this.transport.description }, 'Email sent');
      if (kept !== row.message) this.forgetEarlierCopies();
      return;
    }
    const attempts = row.attempts + 1;
    const nextAttemptAt = new Date(clock().getTime() + this.retryDelay(attempts)).toISOString();
    this.markFailed.run(attempts, outcome.reason.slice(0, 1000), nextAttemptAt, row.id);
    logger.warn({ ...about, attempts, nextAttemptAt, err: outcome.reason }, 'Email sending failed');
  }

  /**
   * The WAL still holds the page as it was before the secret was taken out: emptied now, or, while
   * a reader keeps it, once more after REFUSED_RETRY_MS (and at the next mail that needs it).
   */
  private forgetEarlierCopies(): void {
    const { db, logger } = this.options;
    if (!db.open || emptyWal(db)) return;
    const again = setTimeout(() => {
      if (db.open && !emptyWal(db)) logger.warn('The WAL could not be emptied after a sent mail lost its link: it is at the next one');
    }, REFUSED_RETRY_MS);
    again.unref();
  }

  /** A mail whose sending could not be recorded is not kept as sent: it is still due, and goes again (same Message-ID). */
  protected override insteadOfRecord(): null {
    return null;
  }

  protected override nextDueIn(): number | null {
    const next = this.nextDue.get()?.next;
    if (!next) return this.pollMs ?? null;
    const now = this.options.clock().getTime();
    // Capped for today: nothing is due before the next UTC day, however overdue the rows are.
    const dueAt = this.capReached() ? startOfUtcDay(this.options.clock()).getTime() + 86_400_000 : Date.parse(next);
    // At most a minute, so that a clock change or a row added by another process is picked up.
    return Math.min(Math.max(dueAt - now, 0), this.pollMs ?? 60_000);
  }
}
