import type { FormValues } from '../../shared/forms/form-schema';
import type { Db } from '../db/database';
import type { MailMessage } from '../mail/mail-message';

export type LeadKind = 'audit' | 'contact';

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
       VALUES (@kind, @source_id, @subject_email, @message_id, @message, @now, @now)`,
    );
  }

  /**
   * Stores a lead and the notification that composeMail makes from its id, in one immediate
   * write transaction (every write transaction is `.immediate()`, so it waits for the lock at
   * BEGIN, within the busy timeout, instead of failing half-way).
   */
  save(kind: LeadKind, values: FormValues, now: Date, composeMail: (id: number) => MailMessage): { id: number; mailId: number } {
    const createdAt = now.toISOString();
    return this.db
      .transaction(() => {
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
            now: createdAt,
          }).lastInsertRowid,
        );
        return { id, mailId };
      })
      .immediate();
  }
}
