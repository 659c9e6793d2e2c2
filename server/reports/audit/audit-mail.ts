import type { AuditLead } from '../../leads/lead-store';
import { htmlOf, newMessageId, utc, type MailMessage, type MailSettings } from '../../mail/mail-message';
import { ASSISTANTS } from '../../visibility-probe/assistant-catalogue';
import { lookedFor } from '../../visibility-probe/report';
import { alarmLine, alarmTag, type RunFigures, type RunResult } from '../run-outcome';

/** What the agency is told of a run a restart cut short (started `attempts` times). */
export function resumedLine(attempts: number): string {
  const times = attempts - 1 === 1 ? 'once' : `${attempts - 1} times`;
  return `Cut short by a restart ${times}, and resumed with the answers it had kept: no question answered before was asked again.`;
}

/** The command that mails the prospect their report, as the agency types it. */
export const sendCommand = (auditId: number) => `npm run audit -- --id ${auditId} --send`;

/** The command that corrects the name the answers are searched for, as the agency types it. */
const brandCommand = (auditId: number) => `npm run audit -- --id ${auditId} --brand "NAME"`;

const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`);

/** The business as the mails name it: its name as its site gives it, else its site, else the request's number. */
function businessOf(lead: AuditLead, figures: RunFigures | null): string {
  return figures?.business ?? figures?.site ?? (lead.values.website_url || `audit request #${lead.id}`);
}

/** An audit run's end, as the agency's mail tells it. */
export interface EndedAuditRun {
  /** Its attempts: a run started more than once was cut short by a restart and resumed. */
  run: { id: number; attempts: number };
  result: RunResult;
  /** The figures its process reported; null when it ended without a report. */
  figures: RunFigures | null;
  /** A run stopped part way by the day's calls goes on by itself then; null otherwise. */
  goesOnAt: Date | null;
}

/**
 * The agency's mail when a run ends: the business, both scores, how many answers and whether the
 * run is complete, the name searched for, the report's private address (a link minted for the
 * agency), and the command that sends it; or, for a run that failed, why, and how to run it again.
 */
export function composeRunMail(lead: AuditLead, ended: EndedAuditRun, link: string | null, sentToProspect: boolean, settings: MailSettings): MailMessage {
  const { run, result, figures } = ended;
  const business = businessOf(lead, figures);
  const person = lead.values.name || lead.values.email || '';
  const request = `audit request #${lead.id} from ${person} (received ${utc(lead.receivedAt.toISOString())})`;
  const score = (value: number | null) => (value === null ? 'none' : `${value}/100`);
  const asked = figures ? `${figures.questions} question${figures.questions === 1 ? '' : 's'} to each of ${list(figures.assistants.map((id) => ASSISTANTS[id].label))}` : '';
  const incomplete = ended.goesOnAt
    ? `Incomplete: ${result.reason ?? ''}. It goes on by itself after ${utc(ended.goesOnAt.toISOString())}, asking only the rest.`
    : `Incomplete: ${result.reason ?? ''}. To ask the rest: npm run audit -- --id ${lead.id}`;
  const paragraphs =
    result.status === 'failed'
      ? [
          `The AI visibility audit (run #${run.id}) of ${business}, ${request}, failed: ${result.reason ?? 'no reason given'}.`,
          `There is no report to review. To run it again: npm run audit -- --id ${lead.id}`,
        ]
      : [
          // What costs the business customers today comes before every figure.
          ...(figures?.alarm ? [alarmLine(figures.alarm, business)] : []),
          `The AI visibility audit (run #${run.id}) of ${business}, ${request}, has ${result.status === 'done' ? 'finished' : 'stopped part way'}.`,
          [
            `Visibility score: ${score(result.visibilityScore)}. Readiness score: ${score(result.readinessScore)}.`,
            figures ? `Answers: ${figures.answered} of ${figures.questions * figures.assistants.length} (${asked}).` : '',
            result.status === 'done' ? 'Complete.' : incomplete,
            run.attempts > 1 ? resumedLine(run.attempts) : '',
            result.summary,
          ]
            .filter(Boolean)
            .join('\n'),
          // A name read wrong counts answers that do not name the business: said, with the correction.
          ...(figures
            ? [`${lookedFor({ brand: figures.business, domain: figures.site, pageTitle: figures.pageTitle, nameSigns: figures.nameSigns, typedNames: figures.typedNames }) ?? ''}\nA wrong name? ${brandCommand(lead.id)} counts the answers again under the right one, asking nothing.`]
            : []),
          `The report, for the agency (private: anyone with this link can read it):\n${link ?? ''}`,
          sentToProspect
            ? `It has been sent to ${lead.values.email ?? ''} with a link of their own (AUDIT_AUTO_SEND=1).`
            : `Nothing has been sent to the prospect. Once you have reviewed it, send them their own link:\n${sendCommand(lead.id)}`,
        ];
  const status = `${alarmTag(figures?.alarm)}${result.status === 'done' ? `visibility ${score(result.visibilityScore)}, readiness ${score(result.readinessScore)}` : result.status}`;
  return {
    from: settings.mailFrom,
    to: settings.mailTo,
    replyTo: { name: lead.values.name ?? '', address: lead.values.email ?? '' },
    subject: `AI visibility audit for audit request #${lead.id}: ${business}, ${status}`.replace(/\s+/g, ' '),
    text: paragraphs.join('\n\n'),
    html: htmlOf(paragraphs, settings.siteUrl),
    messageId: newMessageId('audit-run', run.id, settings.siteUrl),
  };
}

/** The prospect's mail: a short note with their report's link (minted for them), from MAIL_FROM, replies to the agency's inbox. */
export function composeReportMail(lead: AuditLead, business: string, link: string, runId: number, settings: MailSettings): MailMessage {
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
    html: htmlOf(paragraphs, settings.siteUrl),
    messageId: newMessageId('audit-report', runId, settings.siteUrl),
  };
}
