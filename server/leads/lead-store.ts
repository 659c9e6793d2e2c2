import type { FormName } from '../../shared/forms/form-contract';
import type { FormValues } from '../../shared/forms/form-schema';
import { withoutWaitingForLocks, type Db } from '../db/database';
import { emailKey } from '../db/email-key';
import type { MailMessage } from '../mail/mail-message';
import { storedProbeReport } from '../visibility-probe/probe-store';
import type { ProbeReport } from '../visibility-probe/probe-report';

export type LeadKind = 'audit' | 'contact';

/** A stored audit request, as the mails about it need it. */
export interface AuditLead {
  id: number;
  values: FormValues;
  receivedAt: Date;
}

export interface SaveOptions {
  /** When the notification may go out (default: at once); it waits this long for a site check. */
  mailDueAt?: Date;
  /** More to write in the lead's own transaction (queueing its site check), given the lead's id. */
  withLead?: (id: number) => void;
}

/**
 * How long a site check's findings, mailed on their own, wait for the request's visibility probe
 * (which asks the assistants once the check has ended, a minute or two for ten questions each) so
 * that the agency gets both in one mail; past it they go alone and the probe's results follow.
 */
export const FINDINGS_WAIT_FOR_PROBE_MS = 5 * 60 * 1000;

/** How a finished site check reached the agency. */
export type SiteCheckDelivery = 'in the notification' | 'in a mail of its own' | 'lead erased';

/** How a finished visibility probe reached the agency. */
export type ProbeDelivery = SiteCheckDelivery | "with the site check's findings";

const auditColumns = [
  'name', 'email', 'website_url', 'business_description', 'ideal_customer', 'target_keywords',
  'current_products', 'lead_sources', 'seo_experience', 'main_goal',
] as const;

/** Form field name -> column, for the contact form, whose field names are camelCase. */
const contactColumns = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  company: 'company',
  website: 'website',
  industry: 'industry',
  subject: 'subject',
  message: 'message',
} as const;

/**
 * The one place that writes leads (storage stays behind a small module, so a move to
 * PostgreSQL touches one folder). A lead and its notification are one transaction: both are on
 * disk, or neither.
 */
export class LeadStore {
  private readonly insertAudit;
  private readonly insertContact;
  private readonly insertMail;
  private readonly insertHeld;
  private readonly leadsFrom;
  private readonly purgeHeld;
  private readonly auditRow;
  private readonly notificationRow;
  private readonly recompose;
  private readonly waitingFindings;
  private readonly probeRunning;
  private readonly probeEnded;

  constructor(private readonly db: Db) {
    this.insertAudit = db.prepare(
      `INSERT INTO audit_submissions (${auditColumns.join(', ')}, created_at)
       VALUES (${auditColumns.map((column) => `@${column}`).join(', ')}, @created_at)`,
    );
    this.insertContact = db.prepare(
      `INSERT INTO contact_messages (${Object.values(contactColumns).join(', ')}, created_at)
       VALUES (${Object.values(contactColumns).map((column) => `@${column}`).join(', ')}, @created_at)`,
    );
    this.insertMail = db.prepare(
      `INSERT INTO mail_outbox (kind, source_id, subject_email, message_id, message, next_attempt_at, created_at)
       VALUES (@kind, @source_id, @subject_email, @message_id, @message, @due, @now)`,
    );
    this.insertHeld = db.prepare(`INSERT INTO quarantine (form, reason, email, fields, check_token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
    this.leadsFrom = db.prepare<[string, string, string, string], { n: number }>(
      `SELECT (SELECT count(*) FROM audit_submissions WHERE created_at >= ? AND email_key(email) = ?)
            + (SELECT count(*) FROM contact_messages WHERE created_at >= ? AND email_key(email) = ?) AS n`,
    );
    this.purgeHeld = db.prepare(`DELETE FROM quarantine WHERE created_at < ?`);
    this.auditRow = db.prepare<[number], Record<string, string> & { id: number }>(`SELECT * FROM audit_submissions WHERE id = ?`);
    this.notificationRow = db.prepare<[number], { id: number; message: string; sent_at: string | null; attempts: number; next_attempt_at: string }>(
      `SELECT id, message, sent_at, attempts, next_attempt_at FROM mail_outbox WHERE kind = 'audit' AND source_id = ? ORDER BY id LIMIT 1`,
    );
    this.recompose = db.prepare(`UPDATE mail_outbox SET message = ?, next_attempt_at = ? WHERE id = ?`);
    // Only a mail not yet due can be written into: a due one may be on its way this moment.
    this.waitingFindings = db.prepare<[number, string], { id: number; message: string }>(
      `SELECT id, message FROM mail_outbox WHERE kind = 'site-check' AND source_id = ? AND sent_at IS NULL AND attempts = 0 AND next_attempt_at > ? ORDER BY id LIMIT 1`,
    );
    this.probeRunning = db.prepare<[number], number>(`SELECT 1 FROM visibility_probes WHERE audit_id = ? AND status IN ('queued', 'running')`).pluck();
    this.probeEnded = db.prepare<[number], { report: string | null }>(`SELECT report FROM visibility_probes WHERE audit_id = ? AND status NOT IN ('queued', 'running')`);
  }

  /**
   * The report of the request's visibility probe once it has one: a probe recorded as skipped when
   * the request came in has one from the start. Null while it is queued or running, or when there is none.
   */
  endedProbe(auditId: number): ProbeReport | null {
    const row = this.probeEnded.get(auditId);
    return row ? storedProbeReport(row) : null;
  }

  /** Leads (both forms) stored since `since` from this address, however its case or form is written. */
  countLeadsFrom(email: string, since: Date): number {
    const key = emailKey(email);
    const from = since.toISOString();
    return this.leadsFrom.get(from, key, from, key)?.n ?? 0;
  }

  /**
   * Keeps a submission that looks automated (or one too many from an address) where ops can see
   * it, with the reason: not a lead, never mailed, deleted after the retention period.
   * `checkTokenHash`: the hash of the check token its answer carried, which leads to no check.
   * A visitor's write: tried once, failing at once while another program holds the lock
   * (`retryWhileLocked` tries it again).
   */
  hold(form: FormName, reason: string, values: FormValues, now: Date, checkTokenHash: string | null = null): number {
    const fields = JSON.stringify(values);
    return withoutWaitingForLocks(this.db, () => Number(this.insertHeld.run(form, reason, values.email ?? '', fields, checkTokenHash, now.toISOString()).lastInsertRowid));
  }

  /** Deletes held submissions older than `days` days; returns how many. */
  purgeQuarantine(now: Date, days: number): number {
    return this.purgeHeld.run(new Date(now.getTime() - days * 86_400_000).toISOString()).changes;
  }

  /**
   * Stores a lead and the notification that composeMail makes from its id, in one immediate
   * write transaction (every write transaction is `.immediate()`, so it takes the lock at BEGIN
   * instead of failing half-way). A visitor's write: tried once, failing at once while another
   * program holds the lock (`retryWhileLocked` tries it again, off the event loop's way).
   */
  save(kind: LeadKind, values: FormValues, now: Date, composeMail: (id: number) => MailMessage, options: SaveOptions = {}): { id: number; mailId: number } {
    const createdAt = now.toISOString();
    const write = this.db.transaction(() => {
      const row: Record<string, string> = { created_at: createdAt };
      if (kind === 'audit') {
        for (const column of auditColumns) row[column] = values[column] ?? '';
      } else {
        for (const [field, column] of Object.entries(contactColumns)) row[column] = values[field] ?? '';
      }
      const id = Number((kind === 'audit' ? this.insertAudit : this.insertContact).run(row).lastInsertRowid);
      const mail = composeMail(id);
      const mailId = Number(
        this.insertMail.run({
          kind,
          source_id: id,
          subject_email: values.email ?? '',
          message_id: mail.messageId,
          message: JSON.stringify(mail),
          due: options.mailDueAt?.toISOString() ?? createdAt,
          now: createdAt,
        }).lastInsertRowid,
      );
      options.withLead?.(id);
      return { id, mailId };
    });
    return withoutWaitingForLocks(this.db, () => write.immediate());
  }

  /**
   * Puts a finished site check where the agency reads it: into the lead's notification while that
   * mail still waits for it (never tried, not yet due), which then goes at once; otherwise into a
   * mail of its own that names the lead, queued like any other (the daily cap and the per-sender
   * order apply to it). Call it inside the transaction that records the check.
   */
  deliverSiteCheck(
    auditId: number,
    now: Date,
    compose: { notification: (lead: AuditLead, messageId: string) => MailMessage; followUp: (lead: AuditLead) => MailMessage },
  ): SiteCheckDelivery {
    const lead = this.auditLead(auditId, now);
    if (!lead) return 'lead erased';
    if (this.intoWaitingNotification(lead, now, compose.notification)) return 'in the notification';
    // While the request's visibility probe runs, its findings wait a while for the probe's
    // results, to go as one mail; they go alone when the wait is over.
    const waitForProbe = this.probeRunning.get(auditId) !== undefined;
    this.queueFollowUp('site-check', lead, compose.followUp(lead), now, waitForProbe ? new Date(now.getTime() + FINDINGS_WAIT_FOR_PROBE_MS) : now);
    return 'in a mail of its own';
  }

  /**
   * Composes the lead's notification again, with what has finished, while that mail still waits
   * (never tried, not yet due), and makes it due now; false when it has gone or is going.
   */
  private intoWaitingNotification(lead: AuditLead, now: Date, compose: (lead: AuditLead, messageId: string) => MailMessage): boolean {
    const notification = this.notificationRow.get(lead.id);
    const nowIso = now.toISOString();
    if (!notification || notification.sent_at !== null || notification.attempts !== 0 || notification.next_attempt_at <= nowIso) return false;
    const stored = JSON.parse(notification.message) as MailMessage;
    this.recompose.run(JSON.stringify(compose(lead, stored.messageId)), nowIso, notification.id);
    return true;
  }

  /**
   * Queues a mail about an audit request's audit run: its end, to the agency, or its report's
   * link, to the prospect. Null when the request was erased (nothing queued); else the mail's id.
   * Call it inside the transaction that records what it tells.
   */
  queueAuditMail(kind: 'audit-run' | 'audit-report', auditId: number, now: Date, compose: (lead: AuditLead) => MailMessage): number | null {
    const lead = this.auditLead(auditId, now);
    if (!lead) return null;
    return this.queueFollowUp(kind, lead, compose(lead), now);
  }

  /** Queues a mail about a lead, due at `due` (by default now), like any other (the daily cap and the per-sender order apply). */
  private queueFollowUp(kind: 'site-check' | 'probe' | 'audit-run' | 'audit-report', lead: AuditLead, mail: MailMessage, now: Date, due = now): number {
    return Number(this.insertMail.run({ kind, source_id: lead.id, subject_email: lead.values.email ?? '', message_id: mail.messageId, message: JSON.stringify(mail), due: due.toISOString(), now: now.toISOString() }).lastInsertRowid);
  }

  /** The stored audit request, as the mails about it need it; null when it was erased. */
  private auditLead(auditId: number, now: Date): AuditLead | null {
    const row = this.auditRow.get(auditId);
    if (!row) return null;
    return { id: row.id, values: Object.fromEntries(auditColumns.map((column) => [column, row[column] ?? ''])), receivedAt: new Date(row.created_at ?? now) };
  }

  /**
   * Puts a finished visibility probe where the agency reads it: into the lead's notification while
   * that still waits; else into the site check's findings mail while that has not been tried yet
   * (one mail with both, its Message-ID kept); else into a mail of its own that names the lead.
   * Call it inside the transaction that records the probe.
   */
  deliverProbe(
    auditId: number,
    now: Date,
    compose: { notification: (lead: AuditLead, messageId: string) => MailMessage; withFindings: (lead: AuditLead, messageId: string) => MailMessage; followUp: (lead: AuditLead) => MailMessage },
  ): ProbeDelivery {
    const lead = this.auditLead(auditId, now);
    if (!lead) return 'lead erased';
    if (this.intoWaitingNotification(lead, now, compose.notification)) return 'in the notification';
    const findings = this.waitingFindings.get(auditId, now.toISOString());
    if (findings) {
      const stored = JSON.parse(findings.message) as MailMessage;
      this.recompose.run(JSON.stringify(compose.withFindings(lead, stored.messageId)), now.toISOString(), findings.id);
      return "with the site check's findings";
    }
    this.queueFollowUp('probe', lead, compose.followUp(lead), now);
    return 'in a mail of its own';
  }
}
