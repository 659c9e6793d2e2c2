import type { AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import type { AssistantReport, ProbeAnswer, ProbeReport } from '../../server/visibility-probe/probe-report';
import { scoreAssistant } from '../../server/visibility-probe/scoring';
import { readAnswer, type BusinessIdentity } from '../../server/visibility-probe/who-is-named';

/**
 * Finished visibility probes made by hand, to store with ProbeStore.finish and see how a page
 * shows them: each answer read and scored as the probe reads and scores it, no assistant called.
 */

/** An answer as the probe keeps it, read for `business` as the probe reads it. */
export function probeAnswer(business: BusinessIdentity, prompt: string, text: string): ProbeAnswer {
  return { prompt, askedAt: '2026-11-20T10:00:00.000Z', model: 'test-model', text, sources: [], error: null, ...readAnswer(text, [], business) };
}

/** One assistant's part: its answers, and why it stopped early (`error`, "key rejected"). */
export function assistantPart(id: AssistantId, answers: ProbeAnswer[], error: string | null = null): AssistantReport {
  return { id, model: 'test-model', asked: answers.length, error, ...scoreAssistant(answers), answers };
}

/** A probe done with these parts. */
export function doneReport(business: BusinessIdentity, assistants: AssistantReport[]): ProbeReport {
  return {
    status: 'done',
    reason: null,
    brand: business.brand,
    domain: business.domain,
    nameSigns: business.brand === null ? [] : ['structured data'],
    pageTitle: null,
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:02:00.000Z',
    prompts: [],
    score: null,
    assistants,
    competitors: [],
    domains: [],
  };
}
