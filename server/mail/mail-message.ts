/** A mail as the outbox stores it (JSON in mail_outbox.message) and a transport sends it. */
export interface MailMessage {
  from: string;
  to: string;
  replyTo?: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  /** Stable across retries, so that a receiving system can tell a repeat from a new lead. */
  messageId: string;
}
