import type { SiteCheckReport } from '../../site-check/run-check';
import { ASSISTANTS } from '../../visibility-probe/assistant-catalogue';
import type { BusinessDetails } from '../../visibility-probe/prompts';
import type { ProbeReport } from '../../visibility-probe/run-probe';
import type { AuditDocument, SampleCount } from './audit-document';

/**
 * Stand-in for the report's composition, with its signature: the business, the visibility figures
 * of each assistant and the two scores; no findings, actions or words yet. The composition proper
 * (content/audit-report.yaml's words, the competitors, keywords and plan) replaces this file.
 */
export interface AuditInput {
  /** The request's words about the business. */
  business: BusinessDetails;
  /** The run's own site check; null when the site could not be checked. */
  check: SiteCheckReport | null;
  /** The run's answers, every one. */
  probe: ProbeReport;
  madeAt: Date;
}

const sample = (count: number, of: number, range: [number, number] | null): SampleCount => ({
  count,
  of,
  low: range && of > 0 ? Math.floor(range[0] * of) : null,
  high: range && of > 0 ? Math.ceil(range[1] * of) : null,
});

export function composeAudit({ check, probe, madeAt }: AuditInput): AuditDocument {
  const asked = probe.assistants.flatMap((assistant) => assistant.answers.map((answer) => answer.askedAt)).sort();
  return {
    version: 1,
    business: { name: probe.brand, site: probe.domain, nameSource: probe.nameSource },
    madeAt: madeAt.toISOString(),
    askedFrom: asked[0] ?? probe.startedAt,
    askedTo: asked.at(-1) ?? probe.finishedAt,
    questionsPerAssistant: probe.prompts.length,
    incomplete: probe.status === 'done' ? null : probe.reason,
    summary: {
      visibilityScore: probe.score,
      visibilitySentence: '',
      readinessScore: check?.status === 'done' ? check.score : null,
      readinessSentence: '',
      topActions: [],
    },
    visibility: probe.assistants.map((assistant) => ({
      assistant: assistant.id,
      label: ASSISTANTS[assistant.id].label,
      models: [...new Set(assistant.answers.flatMap((answer) => (answer.model ? [answer.model] : [])))],
      asked: assistant.asked,
      answered: assistant.answered,
      named: sample(assistant.named, assistant.answered, assistant.visibilityRange),
      cited: sample(assistant.cited, assistant.answered, null),
      averagePosition: assistant.averagePosition,
      shareOfVoice: assistant.shareOfVoice,
      score: assistant.score,
      error: assistant.error,
    })),
    competitors: { shareOfVoice: [], citedSites: [] },
    keywords: [],
    recommendations: [],
    actions: [],
    readiness: [],
  };
}
