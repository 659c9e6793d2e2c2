import type { AssistantId } from '../visibility-probe/assistant-catalogue';
import type { ProbeReport } from '../visibility-probe/probe-report';

/**
 * How a full run (an audit's or a monitored client's) ended, as its report, its mails and the
 * commands tell it: what the run machine (server/runs/) records and the mails are composed from.
 */

/** How a run ended, as it is recorded. */
export interface RunResult {
  status: 'done' | 'stopped' | 'failed';
  reason: string | null;
  visibilityScore: number | null;
  readinessScore: number | null;
  /** One line for the agency, the commands and the CSV export. */
  summary: string;
  /** The report (AuditDocument JSON); null when the run failed without one. */
  document: string | null;
}

/** How a run's probe ended, as the report's figures say it. */
export interface RunFigures {
  status: ProbeReport['status'];
  reason: string | null;
  /** The visibility score, 0-100; null when no assistant answered. */
  score: number | null;
  /** ProbeReport's one line (reportSummary). */
  summary: string;
  /** The business as the answers were searched for: its name (null: none) and its site, where the name was read, and the home page's title. */
  business: string | null;
  site: string | null;
  nameSigns: ProbeReport['nameSigns'];
  pageTitle: string | null;
  typedNames?: string[];
  /** The assistants asked, the questions put to each, and the answers received in all. */
  assistants: AssistantId[];
  questions: number;
  answered: number;
  /** What the agency's mail leads with: an assistant giving a wrong phone number, or saying the business has closed; null or missing: none. */
  alarm?: FactAlarm | null;
}

/** An assistant giving a wrong phone number for the business, or saying it has closed: the first thing the agency is told. */
export interface FactAlarm {
  /** The assistant's name ("ChatGPT"). */
  assistant: string;
  kind: 'phone' | 'closed';
  /** Its words, as it wrote them (Markdown marks taken out). */
  says: string;
  /** The phone number(s) the business's site gives, as written; null for "closed". */
  siteSays: string | null;
}

/** The words an agency's mail subject starts with for an alarm: "wrong phone number from ChatGPT, ". */
export function alarmTag(alarm: FactAlarm | null | undefined): string {
  if (!alarm) return '';
  return alarm.kind === 'closed' ? `${alarm.assistant} says it has closed, ` : `wrong phone number from ${alarm.assistant}, `;
}

/** The line an agency's mail leads with for an alarm. */
export function alarmLine(alarm: FactAlarm, business: string): string {
  return alarm.kind === 'closed'
    ? `${alarm.assistant} tells buyers that ${business} has closed: “${alarm.says}”`
    : `${alarm.assistant} gives a wrong phone number for ${business}: “${alarm.says}” Its website gives ${alarm.siteSays ?? 'another'}.`;
}
