import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
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
export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    dnsTimeout: 10_000,
  } as Parameters<typeof nodemailer.createTransport>[1]);
  const url = new URL(smtpUrl);
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
