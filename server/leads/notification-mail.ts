import type { FieldSpec, FormValues } from '../../shared/forms/form-schema';
import { escapeHtml } from '../../shared/escape-html';
import { newMessageId, type MailMessage } from '../mail/mail-message';
import { reportHtml, reportSummary, reportText } from '../site-check/report';
import type { SiteCheckReport } from '../site-check/check-report';
import * as probeReport from '../visibility-probe/report';
import type { ProbeReport } from '../visibility-probe/probe-report';

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
  /**
   * The instant check of the website an audit request names: its report, or 'pending' while it
   * runs (its findings then follow in a mail of their own). Absent: no website, no check.
   */
  siteCheck?: SiteCheckReport | 'pending';
  /**
   * The AI visibility probe of an audit request: its report, 'pending' while it runs (its results
   * then follow in a mail of their own), or 'not configured' while no assistant's key is set.
   */
  probe?: ProbeReport | 'pending' | 'not configured';
  /** Keeps the Message-ID of a notification composed again with its check's findings. */
  messageId?: string;
}

/** The notification's words about the visibility probe, as text lines and as HTML. */
function probeSection(probe: NotificationInput['probe']): { text: string[]; html: string } {
  if (probe === undefined) return { text: [], html: '' };
  if (probe === 'not configured' || probe === 'pending') {
    const line = probe === 'not configured' ? 'AI visibility probe: not configured' : 'AI visibility probe: asking the assistants now; the results follow in a separate mail.';
    return { text: ['', line], html: `<p style="color:#475569">${escapeHtml(line)}</p>` };
  }
  return { text: ['', probeReport.reportText(probe)], html: probeReport.reportHtml(probe) };
}

/** The notification's words about the site check, as text lines and as HTML. */
function siteCheckSection(input: NotificationInput): { text: string[]; html: string } {
  const check = input.siteCheck;
  if (check === undefined) return { text: [], html: '' };
  if (check === 'pending') {
    const line = `The instant AI-readiness check of ${input.values.website_url ?? 'the website'} is still running: its findings follow in a separate mail.`;
    return { text: ['', line], html: `<p style="color:#475569">${escapeHtml(line)}</p>` };
  }
  return { text: ['', reportText(check)], html: reportHtml(check) };
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

  const check = siteCheckSection(input);
  const probe = probeSection(input.probe);
  const textLines = [
    `${heading}.`,
    '',
    ...input.fields.flatMap((field) => {
      const value = display(field, values[field.name] ?? '');
      return value.includes('\n') ? [`${field.label}:`, ...value.split('\n').map((line) => `  ${line}`), ''] : [`${field.label}: ${value}`];
    }),
    ...check.text,
    ...probe.text,
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
    check.html,
    probe.html,
    `<p style="color:#475569;font-size:13px">${escapeHtml(reference)}, received ${escapeHtml(received)}. Reply to this e-mail to answer ${escapeHtml(personName || email)} directly.</p>`,
    `<p style="color:#475569;font-size:13px">${escapeHtml(input.brand)} website</p>`,
    '</body></html>',
  ].join('');
  const score = input.siteCheck && input.siteCheck !== 'pending' && input.siteCheck.status === 'done' ? ` [site ${input.siteCheck.score}/100]` : '';
  return {
    from: input.from,
    to: input.to,
    replyTo: { name: personName, address: email },
    subject: `${subject}${score}`,
    text: textLines.join('\n'),
    html,
    messageId: input.messageId ?? newMessageId(input.kind, input.id, input.siteUrl),
  };
}

export interface FollowUpMailInput {
  auditId: number;
  /** The audit request's values (name, email, website_url). */
  values: FormValues;
  receivedAt: Date;
  /** What has finished since the notification went out: the site check, the probe, or both. */
  siteCheck?: SiteCheckReport;
  probe?: ProbeReport;
  from: string;
  to: string;
  siteUrl: string;
  /** Keeps the Message-ID of a mail composed again with more in it. */
  messageId?: string;
}

/**
 * What finished after the lead's notification went out (the site check's findings, the probe's
 * results, or both when they are ready together): a mail of its own that names the lead,
 * Reply-To the prospect like the notification.
 */
export function composeFollowUpMail(input: FollowUpMailInput): MailMessage {
  const { values, siteCheck, probe } = input;
  const personName = values.name ?? '';
  const email = values.email ?? '';
  const received = input.receivedAt.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  const request = `audit request #${input.auditId} from ${personName || email} (received ${received})`;
  const intro = [
    siteCheck ? `The instant AI-readiness check of ${values.website_url || 'the website'}, named in ${request}, has finished: ${reportSummary(siteCheck)}.` : null,
    probe ? `The AI visibility probe of ${siteCheck ? 'the same request' : request} has finished: ${probeReport.reportSummary(probe)}.` : null,
  ].filter((line): line is string => line !== null);
  const checkSubject = siteCheck ? `${siteCheck.host || values.website_url || ''} ${siteCheck.status === 'done' ? `${siteCheck.score}/100` : siteCheck.status}` : '';
  const probeSubject = probe ? `AI visibility ${probe.score === null ? probe.status : `${probe.score}/100`}` : '';
  const what = siteCheck && probe ? 'AI-readiness check and visibility probe' : siteCheck ? 'AI-readiness check' : 'AI visibility probe';
  return {
    from: input.from,
    to: input.to,
    replyTo: { name: personName, address: email },
    subject: `${what} for audit request #${input.auditId}: ${[checkSubject, probeSubject].filter(Boolean).join(', ')}`.replace(/\s+/g, ' ').trim(),
    text: [...intro, '', ...(siteCheck ? [reportText(siteCheck), ''] : []), ...(probe ? [probeReport.reportText(probe), ''] : []), `Reply to this e-mail to answer ${personName || email} directly.`].join('\n'),
    html: [
      '<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">',
      ...intro.map((line) => `<p>${escapeHtml(line)}</p>`),
      siteCheck ? reportHtml(siteCheck) : '',
      probe ? probeReport.reportHtml(probe) : '',
      `<p style="color:#475569;font-size:13px">Reply to this e-mail to answer ${escapeHtml(personName || email)} directly.</p>`,
      '</body></html>',
    ].join(''),
    messageId: input.messageId ?? newMessageId(siteCheck ? 'site-check' : 'probe', input.auditId, input.siteUrl),
  };
}
