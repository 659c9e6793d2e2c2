import { probePrompts } from '../../shared/generated/probe-prompts';
import { signsOfStored, type BusinessName } from '../business/business-name';
import type { SiteCheckReport } from '../site-check/check-report';
import type { AssistantId } from '../visibility-probe/assistant-catalogue';
import { assembleReport, recountReport, type ProbeAnswer, type ProbeReport } from '../visibility-probe/probe-report';
import { planQuestions, type BusinessDetails, type PlannedQuestion } from '../visibility-probe/prompts';
import { reportSummary } from '../visibility-probe/report';
import type { AuditDocument } from '../reports/audit/audit-document';
import { composeAudit } from '../reports/audit/compose-audit';

/**
 * A finished run (an audit's or a monitored client's) counted again under another name, when the
 * agency corrects the one its answers were searched for (`--brand`): every kept answer read again,
 * the report composed again from them, its date as it was. No assistant is asked anything.
 */

/** A finished run as it is kept: its answers as they arrived, its report, its site check and how it ended. */
export interface KeptRun {
  answers: readonly { assistant: AssistantId; question: number; answer: string }[];
  document: AuditDocument;
  check: SiteCheckReport | null;
  status: ProbeReport['status'];
  reason: string | null;
}

/**
 * The run's probe as it ended, made again from its kept answers and its report. The direct
 * questions about the business are kept under the numbers after the report's questions.
 */
function keptProbe(run: KeptRun): ProbeReport {
  const split = run.document.questionsPerAssistant;
  const prompts: string[] = [];
  const aboutPrompts: string[] = [];
  const byAssistant = new Map<AssistantId, { answers: ProbeAnswer[]; aboutAnswers: ProbeAnswer[] }>();
  for (const { assistant, question, answer } of [...run.answers].sort((a, b) => a.question - b.question)) {
    const read = JSON.parse(answer) as ProbeAnswer;
    const about = question >= split;
    if (about) aboutPrompts[question - split] = read.prompt;
    else prompts[question] = read.prompt;
    const kept = byAssistant.get(assistant) ?? { answers: [], aboutAnswers: [] };
    (about ? kept.aboutAnswers : kept.answers).push(read);
    byAssistant.set(assistant, kept);
  }
  const { business } = run.document;
  return assembleReport({
    status: run.status,
    reason: run.reason,
    sought: { brand: business.name, domain: business.site, nameSigns: signsOfStored(business), pageTitle: run.check?.facts?.page.title ?? null, ...(business.typedNames ? { typedNames: business.typedNames } : {}) },
    startedAt: run.document.askedFrom,
    finishedAt: run.document.askedTo,
    prompts: Array.from(prompts, (prompt) => prompt ?? ''),
    aboutPrompts: Array.from(aboutPrompts, (prompt) => prompt ?? ''),
    leftOut: [],
    assistants: run.document.visibility.map((part) => ({ id: part.assistant, model: part.models[0] ?? '', error: part.error, ...(byAssistant.get(part.assistant) ?? { answers: [], aboutAnswers: [] }) })),
  });
}

/** What a recount changes: the report, the figures beside it, and the probe they were counted from (a client's trend reads it). */
export interface Recount {
  document: AuditDocument;
  visibilityScore: number | null;
  summary: string;
  probe: ProbeReport;
}

/**
 * The run counted again under `name`. `business` is the words its questions were made of;
 * `planned`, the questions fixed beforehand (a client's), else made again from those words as
 * they were made for the run (under the name it was asked under).
 */
export function recountRun(run: KeptRun, business: BusinessDetails, name: BusinessName, planned?: readonly PlannedQuestion[]): Recount {
  const before = keptProbe(run);
  const probe = recountReport(before, name);
  const asked = planned ?? planQuestions(business, { count: before.prompts.length, templates: probePrompts.templates, brand: before.brand, domain: before.domain, personal: [], alsoNames: before.typedNames ?? [] });
  const document = composeAudit({ business, check: run.check, probe, madeAt: new Date(run.document.madeAt), planned: asked });
  return { document, visibilityScore: probe.score, summary: reportSummary(probe), probe };
}
