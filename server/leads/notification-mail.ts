import { randomBytes } from 'node:crypto';
import type { FieldSpec, FormValues } from '../../shared/forms/form-schema';
import { escapeHtml } from '../../shared/escape-html';
import type { MailMessage } from '../mail/mail-message';

export interface NotificationInput {
  kind: 'audit' | 'contact';
  id: number;
  fields: readonly FieldSpec[];
  values: FormValues;
  receivedAt: Date;
  from: string;
  to: string;
  siteUrl: string;
  brand: string;
}

/** The value as a person reads it: a choice's label instead of its code, a dash for nothing. */
function display(field: FieldSpec, value: string): string {
  if (value === '') return '-';
  return field.options?.find((option) => option.value === value)?.label ?? value;
}

/**
 * The agency's notification of a new lead: every field in a readable text and HTML body,
 * Reply-To the prospect (so "Reply" answers them), and a Message-ID fixed at creation.
 * Every value is escaped in the HTML; nodemailer encodes the headers.
 */
export function composeNotification(input: NotificationInput): MailMessage {
  const { values } = input;
  const personName =
    input.kind === 'audit' ? values.name ?? '' : [values.firstName, values.lastName].filter(Boolean).join(' ');
  const email = values.email ?? '';
  const subject =
    input.kind === 'audit'
      ? `New AI visibility audit request: ${personName || email}${values.website_url ? ` (${values.website_url})` : ''}`
      : `New contact message: ${personName || email}${values.subject ? ` (${display(input.fields.find((f) => f.name === 'subject')!, values.subject)})` : ''}`;
  const heading = input.kind === 'audit' ? 'A new free AI visibility audit request' : 'A new message from the contact form';
  const received = input.receivedAt.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  const reference = `${input.kind === 'audit' ? 'Audit request' : 'Contact message'} #${input.id}`;

  const textLines = [
    `${heading}.`,
    '',
    ...input.fields.flatMap((field) => {
      const value = display(field, values[field.name] ?? '');
      return value.includes('\n') ? [`${field.label}:`, ...value.split('\n').map((line) => `  ${line}`), ''] : [`${field.label}: ${value}`];
    }),
    '',
    `${reference}, received ${received}.`,
    `Reply to this e-mail to answer ${personName || email} directly.`,
  ];
  const rows = input.fields
    .map((field) => {
      const value = escapeHtml(display(field, values[field.name] ?? '')).replace(/\n/g, '<br>');
      return `<tr><th align="left" valign="top" style="padding:6px 12px 6px 0;color:#475569;font-weight:600;white-space:nowrap">${escapeHtml(field.label)}</th><td style="padding:6px 0">${value}</td></tr>`;
    })
    .join('');
  const html = [
    '<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">',
    `<h1 style="font-size:18px">${escapeHtml(heading)}</h1>`,
    `<table role="presentation" cellspacing="0" cellpadding="0">${rows}</table>`,
    `<p style="color:#475569;font-size:13px">${escapeHtml(reference)}, received ${escapeHtml(received)}. Reply to this e-mail to answer ${escapeHtml(personName || email)} directly.</p>`,
    `<p style="color:#475569;font-size:13px">${escapeHtml(input.brand)} website</p>`,
    '</body></html>',
  ].join('');
  const host = new URL(input.siteUrl).hostname;
  return {
    from: input.from,
    to: input.to,
    replyTo: { name: personName, address: email },
    subject,
    text: textLines.join('\n'),
    html,
    messageId: `<${input.kind}-${input.id}.${randomBytes(6).toString('hex')}@${host}>`,
  };
}
