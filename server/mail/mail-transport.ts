import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { keepPrivate } from '../private-files';
import type { MailMessage } from './mail-message';

/** Sends one message; rejects when it was not accepted. */
export interface MailTransport {
  readonly description: string;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

function toNodemailer(message: MailMessage) {
  return {
    from: message.from,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
  };
}

/**
 * SMTP through nodemailer. Every phase has a timeout, so a server that accepts the connection and
 * then never answers fails the attempt instead of holding the worker forever.
 */
export interface SmtpTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
}

const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 20_000 };

export function smtpTransport(smtpUrl: string, timeouts: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): MailTransport {
  // nodemailer builds its options from the URL alone (a second argument would be message
  // defaults, and an options object with `url` drops its other keys), but it reads options from
  // the query string. The timeouts go there; one that SMTP_URL already sets wins.
  const url = new URL(smtpUrl);
  const withTimeouts = new URL(smtpUrl);
  const defaults = { connectionTimeout: timeouts.connectionMs, greetingTimeout: timeouts.greetingMs, socketTimeout: timeouts.socketMs, dnsTimeout: timeouts.connectionMs };
  for (const [name, value] of Object.entries(defaults)) {
    if (!withTimeouts.searchParams.has(name)) withTimeouts.searchParams.set(name, String(value));
  }
  const transporter = nodemailer.createTransport(withTimeouts.toString());
  return {
    description: `SMTP ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
    async send(message) {
      await transporter.sendMail(toNodemailer(message));
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * Without SMTP_URL: each mail becomes an .eml file (open it in any mail client). Written to a
 * temporary name and renamed, so a reader never sees half a file.
 */
export function emlFileTransport(directory: string): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `.eml files in ${directory}`,
    async send(message) {
      const info = await builder.sendMail(toNodemailer(message));
      mkdirSync(directory, { recursive: true });
      // A lead's mail holds personal data: the folder its owner's only, like the database's.
      keepPrivate(directory);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.messageId.replace(/[^\w.-]/g, '_')}.eml`;
      const temporary = path.join(directory, `.${name}.tmp`);
      writeFileSync(temporary, info.message as Buffer);
      renameSync(temporary, path.join(directory, name));
    },
    close() {
      builder.close();
    },
  };
}
