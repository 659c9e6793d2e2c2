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
}
