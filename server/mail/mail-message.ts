import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../shared/escape-html';
import { escapeRegExp } from '../../shared/escape-reg-exp';
import type { Config } from '../config';

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

/** A Message-ID for a mail about `kind` #`id`, fixed when it is composed and kept across retries. */
export function newMessageId(kind: string, id: number, siteUrl: string): string {
  return `<${kind}-${id}.${randomBytes(6).toString('hex')}@${new URL(siteUrl).hostname}>`;
}

/** An ISO 8601 time as a mail says it: "2026-11-29 09:30 UTC". */
export const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/**
 * Paragraphs of plain text as a mail's HTML: every value escaped, and only the site's own
 * addresses (a report's private link) made links. Whatever a stranger typed (a website in the
 * form, a site's name) stays text: a mail of ours must not turn their words into a link.
 */
export function htmlOf(paragraphs: readonly string[], siteUrl: string): string {
  const own = new RegExp(`(${escapeRegExp(escapeHtml(siteUrl))}/[^\\s<"]*)`, 'g');
  const body = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>').replace(own, '<a href="$1">$1</a>')}</p>`).join('');
  return `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">${body}</body></html>`;
}

/** Where the mails about leads and runs come from and go to, and the site their links are on. */
export type MailSettings = Pick<Config, 'mailFrom' | 'mailTo' | 'siteUrl'> & { brand: string };
