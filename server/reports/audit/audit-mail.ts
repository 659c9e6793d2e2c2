import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../../../shared/escape-html';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { LeadStore, type AuditLead } from '../../leads/lead-store';
import type { MailMessage } from '../../mail/mail-message';
import { ASSISTANTS } from '../../visibility-probe/assistant-catalogue';
import { lookedFor } from '../../visibility-probe/report';
import type { AuditFigures } from './auditor';
import { AuditRunStore, type AuditRunResult, type AuditRunRow } from './audit-store';

/** Where a report's link leads: the report's page, whose token opens this one report only. */
export function reportAddress(siteUrl: string, token: string): string {
  return `${siteUrl}/audit/${token}`;
}

/** What the agency is told of a run a restart cut short (started `attempts` times). */
export function resumedLine(attempts: number): string {
  const times = attempts - 1 === 1 ? 'once' : `${attempts - 1} times`;
  return `Cut short by a restart ${times}, and resumed with the answers it had kept: no question answered before was asked again.`;
}

/** The command that corrects the name the answers are searched for, as the agency types it. */
const brandCommand = (auditId: number) => `npm run audit -- --id ${auditId} --brand "NAME"`;

/** The command that mails the prospect their report, as the agency types it. */
export const sendCommand = (auditId: number) => `npm run audit -- --id ${auditId} --send`;

export type MailSettings = Pick<Config, 'mailFrom' | 'mailTo' | 'siteUrl'> & { brand: string };

export const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;
const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`);
export const newMessageId = (kind: string, id: number, siteUrl: string) => `<${kind}-${id}.${randomBytes(6).toString('hex')}@${new URL(siteUrl).hostname}>`;

/** The business as the mails name it: its name as its site gives it, else its site, else the request's number. */
function businessOf(lead: AuditLead, figures: AuditFigures | null): string {
  return figures?.business ?? figures?.site ?? (lead.values.website_url || `audit request #${lead.id}`);
}

export function htmlOf(paragraphs: string[]): string {
  const body = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>').replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</p>`).join('');
  return `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">${body}</body></html>`;
}

export interface FinishedAudit {
  /** Its attempts: a run started more than once was cut short by a restart and resumed. */
  run: Pick<AuditRunRow, 'id' | 'audit_id' | 'attempts'>;
  result: AuditRunResult;
  /** The figures its process reported; null when it ended without a report. */
  figures: AuditFigures | null;
}

/**
 * The agency's mail when a run ends: the business, both scores, how many answers and whether the
 * run is complete, the report's private address (a link minted for the agency), and the command
 * that sends it to the prospect; or, for a run that failed, why, and how to run it again.
 */
function composeRunMail(lead: AuditLead, finished: FinishedAudit, link: string | null, sentToProspect: boolean, settings: MailSettings): MailMessage {
  const { run, result, figures } = finished;
  const business = businessOf(lead, figures);
  const person = lead.values.name || lead.values.email || '';
  const request = `audit request #${lead.id} from ${person} (received ${utc(lead.receivedAt.toISOString())})`;
  const score = (value: number | null) => (value === null ? 'none' : `${value}/100`);
  const asked = figures ? `${figures.questions} question${figures.questions === 1 ? '' : 's'} to each of ${list(figures.assistants.map((id) => ASSISTANTS[id].label))}` : '';
  const paragraphs =
    result.status === 'failed'
      ? [
          `The AI visibility audit (run #${run.id}) of ${business}, ${request}, failed: ${result.reason ?? 'no reason given'}.`,
          `There is no report to review. To run it again: npm run audit -- --id ${lead.id}`,
        ]
      : [
          `The AI visibility audit (run #${run.id}) of ${business}, ${request}, has ${result.status === 'done' ? 'finished' : 'stopped part way'}.`,
          [
            `Visibility score: ${score(result.visibilityScore)}. Readiness score: ${score(result.readinessScore)}.`,
            figures ? `Answers: ${figures.answered} of ${figures.questions * figures.assistants.length} (${asked}).` : '',
            result.status === 'done' ? 'Complete.' : `Incomplete: ${result.reason ?? ''}. To ask the rest: npm run audit -- --id ${lead.id}`,
            run.attempts > 1 ? resumedLine(run.attempts) : '',
            result.summary,
          ]
            .filter(Boolean)
            .join('\n'),
          // A name read wrong counts answers that do not name the business: said, with the correction.
          ...(figures ? [`${lookedFor({ brand: figures.business, domain: figures.site, pageTitle: figures.pageTitle, nameSigns: figures.nameSigns, typedNames: figures.typedNames }) ?? ''}\nA wrong name? ${brandCommand(lead.id)} counts the answers again under the right one, asking nothing.`] : []),
          `The report, for the agency (private: anyone with this link can read it):\n${link ?? ''}`,
          sentToProspect
            ? `It has been sent to ${lead.values.email ?? ''} with a link of their own (AUDIT_AUTO_SEND=1).`
            : `Nothing has been sent to the prospect. Once you have reviewed it, send them their own link:\n${sendCommand(lead.id)}`,
        ];
  const status = result.status === 'done' ? `visibility ${score(result.visibilityScore)}, readiness ${score(result.readinessScore)}` : result.status;
  return {
    from: settings.mailFrom,
    to: settings.mailTo,
    replyTo: { name: lead.values.name ?? '', address: lead.values.email ?? '' },
    subject: `AI visibility audit for audit request #${lead.id}: ${business}, ${status}`.replace(/\s+/g, ' '),
    text: paragraphs.join('\n\n'),
    html: htmlOf(paragraphs),
    messageId: newMessageId('audit-run', run.id, settings.siteUrl),
  };
}

/** The prospect's mail: a short note with their report's link (minted for them), from MAIL_FROM, replies to the agency's inbox. */
function composeReportMail(lead: AuditLead, business: string, link: string, runId: number, settings: MailSettings): MailMessage {
  const hello = lead.values.name ? `Hello ${lead.values.name},` : 'Hello,';
  const paragraphs = [
    hello,
    `Your free AI visibility audit of ${business} is ready:\n${link}`,
    'It shows how often ChatGPT, Claude, Gemini and Perplexity recommend you when asked what your buyers ask, who they name instead, the sites they rely on, and a plan of what to do first. Answers vary from day to day: the report says when they were asked.',
    'The link is yours alone: anyone who has it can read the report, so share it with care. Reply to this e-mail with any question.',
    settings.brand,
  ];
  return {
    from: settings.mailFrom,
    to: lead.values.email ?? '',
    replyTo: { name: settings.brand, address: settings.mailTo },
    subject: `Your AI visibility audit: ${business}`,
    text: paragraphs.join('\n\n'),
    html: htmlOf(paragraphs),
    messageId: newMessageId('audit-report', runId, settings.siteUrl),
  };
}

/**
 * The mails of the audit runs, queued in the outbox beside the request like every mail about a
 * lead (erased with it): the agency's when a run ends, the prospect's when its report is sent.
 */
export class AuditMail {
  private readonly leads: LeadStore;
  private readonly runs: AuditRunStore;

  constructor(
    private readonly db: Db,
    private readonly settings: MailSettings,
  ) {
    this.leads = new LeadStore(db);
    this.runs = new AuditRunStore(db);
  }

  /**
   * Tells the agency that a run ended, with a link minted for it; with `autoSend` (AUDIT_AUTO_SEND=1)
   * a complete run's report goes to the prospect too. Call it inside the transaction that records
   * the run. False when the request was erased meanwhile (nothing is queued).
   */
  runEnded(finished: FinishedAudit, now: Date, autoSend: boolean): boolean {
    const { run, result, figures } = finished;
    // Erased while it ran: the run went with its request, and nothing is left to tell.
    if (!this.runs.get(run.id)) return false;
    const link = result.document === null ? null : reportAddress(this.settings.siteUrl, this.runs.mintLink(run.id, 'agency', now));
    const sent = autoSend && result.status === 'done' && this.queueReportMail(run, figures?.business ?? figures?.site ?? null, now) !== null;
    return this.leads.queueAuditMail('audit-run', run.audit_id, now, (lead) => composeRunMail(lead, finished, link, sent, this.settings)) !== null;
  }

  /**
   * Mails a finished run's report to the prospect (the address on their request): a link minted
   * for them, the mail queued in the outbox and the run marked sent, in one write transaction.
   * Null when it was sent before, or the request was erased: nothing is queued twice.
   */
  sendToProspect(run: Pick<AuditRunRow, 'id' | 'audit_id'>, business: string | null, now: Date): { mailId: number } | null {
    return this.db.transaction(() => this.queueReportMail(run, business, now)).immediate();
  }

  private queueReportMail(run: Pick<AuditRunRow, 'id' | 'audit_id'>, business: string | null, now: Date): { mailId: number } | null {
    if (!this.runs.markSentToProspect(run.id, now)) return null;
    const link = reportAddress(this.settings.siteUrl, this.runs.mintLink(run.id, 'prospect', now));
    const mailId = this.leads.queueAuditMail('audit-report', run.audit_id, now, (lead) =>
      composeReportMail(lead, business ?? (lead.values.website_url || 'your business'), link, run.id, this.settings),
    );
    if (mailId === null) throw new Error('the request was erased');
    return { mailId };
  }
}
