import type { BusinessFacts } from '../../server/business/business-facts';
import aiSources from '../../server/ledger/ai-sources.json';
import type { HomePageAnalysis } from '../../server/site-check/analysers/home-page';
import type { LlmsTxtAnalysis } from '../../server/site-check/analysers/llms-txt';
import type { RobotsAnalysis } from '../../server/site-check/analysers/robots';
import type { SiteCheckReport } from '../../server/site-check/check-report';
import { scoreFindings, type MarkdownFacts, type SitemapFacts } from '../../server/site-check/scoring';
import type { AuditInput } from '../../server/reports/audit/compose-audit';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { planQuestions, type BusinessDetails, type PlannedQuestion } from '../../server/visibility-probe/prompts';
import type { AssistantReport, ProbeAnswer, ProbeReport } from '../../server/visibility-probe/probe-report';
import { overallScore, scoreAssistant } from '../../server/visibility-probe/scoring';
import { readAnswer } from '../../server/visibility-probe/who-is-named';
import { probePrompts } from '../../shared/generated/probe-prompts';
import { BUSINESS, type RecordedAnswer } from '../fixtures/visibility-probe-answers';

/**
 * The inputs of a full audit's report, made by hand as the run makes them: a site check scored by
 * the site check's own scoring from the facts its analysers report, and answers read and scored
 * as the probe reads and scores them. No site is fetched and no assistant called.
 */

const SITE = 'https://www.acmeplumbing.co.uk/';

/** What the check reads of a site that passes every check; each test changes what it is about. */
export interface SiteFacts {
  /** The agents (robots.txt tokens) robots.txt disallows; the check judges those of server/ledger/ai-sources.json. */
  blocked?: string[];
  robots?: Partial<RobotsAnalysis>;
  page?: Partial<HomePageAnalysis>;
  llmsTxt?: LlmsTxtAnalysis;
  sitemap?: Partial<SitemapFacts>;
  markdown?: MarkdownFacts;
  /** What its pages state about the business (phones, addresses...); none read by default. */
  business?: BusinessFacts;
}

/** A finished site check of the business's site, scored as the site check scores it. */
export function checkedSite(facts: SiteFacts = {}, checkedAt = '2026-11-20T09:59:00.000Z'): SiteCheckReport {
  const blocked = new Set(facts.blocked ?? []);
  const agents = aiSources.agents.map((agent) => ({ agent: agent.match, allowed: !blocked.has(agent.match) }));
  const robots: RobotsAnalysis = {
    state: 'found',
    detail: `robots.txt lets ${agents.filter((agent) => agent.allowed).length} of ${agents.length} AI agents fetch the page`,
    agents,
    sitemaps: [`${SITE}sitemap.xml`],
    checkerBlocked: false,
    ...facts.robots,
  };
  const page: HomePageAnalysis = {
    status: 200,
    url: SITE,
    https: true,
    contentType: 'text/html; charset=utf-8',
    html: true,
    textWords: 640,
    title: 'Acme Plumbing Ltd | Emergency Plumbers in Leeds',
    metaDescription: 'Gas Safe registered plumbers and heating engineers in Leeds since 1998: boilers, emergencies and landlord certificates.',
    canonical: SITE,
    lang: 'en-GB',
    noindex: null,
    openGraph: { title: true, description: true, image: true },
    jsonLdTypes: ['Plumber', 'WebSite'],
    jsonLdBlocks: 1,
    jsonLdInvalid: 0,
    jsonLdErrors: [],
    markdownLink: `${SITE}index.md`,
    organizationNames: ['Acme Plumbing Ltd'],
    siteName: 'Acme Plumbing',
    copyrightLines: ['© 2026 Acme Plumbing Ltd. All rights reserved.'],
    logoText: 'Acme Plumbing',
    firstHeading: 'Emergency plumbers in Leeds, day and night',
    truncated: false,
    ...facts.page,
  };
  const scored = {
    robots,
    page,
    redirects: [],
    llmsTxt: facts.llmsTxt ?? { present: true, wellFormed: true, detail: 'llms.txt has a title, a summary and 3 sections of links' },
    sitemap: { url: `${SITE}sitemap.xml`, fromRobots: true, urls: 14, parses: true, detail: `${SITE}sitemap.xml lists 14 URLs`, ...facts.sitemap },
    markdown: facts.markdown ?? { via: 'link' as const, url: `${SITE}index.md` },
  };
  const { score, findings } = scoreFindings(scored);
  return { status: 'done', reason: null, url: SITE, host: 'www.acmeplumbing.co.uk', checkedAt, durationMs: 2_400, score, findings, facts: { ...scored, ...(facts.business ? { business: facts.business } : {}) } };
}

/** A recorded answer to `prompt` as the probe keeps it, read for the business as the probe reads it. */
export function answerTo(prompt: string, recorded: RecordedAnswer, askedAt: string, model = 'test-model'): ProbeAnswer {
  return { prompt, askedAt, model, text: recorded.text, sources: recorded.sources, error: null, ...readAnswer(recorded.text, recorded.sources, BUSINESS) };
}

/** A question put whose call failed: no answer. */
export function noAnswerTo(prompt: string, askedAt: string, error = 'timed out after 60 s'): ProbeAnswer {
  return { prompt, askedAt, model: null, text: null, sources: [], error, named: false, position: null, others: [], otherDomains: [], citesOwnSite: false };
}

/** One assistant's part of a probe, scored from its answers as the probe scores it. */
export function part(id: AssistantId, answers: ProbeAnswer[], error: string | null = null): AssistantReport {
  return { id, model: 'test-model', asked: answers.length, error, ...scoreAssistant(answers.filter((answer) => answer.error === null)), answers };
}

/** A probe of the business with these questions and these assistants' parts. */
export function probeOf(prompts: string[], parts: AssistantReport[], ended: Pick<ProbeReport, 'status' | 'reason'> = { status: 'done', reason: null }): ProbeReport {
  return {
    ...ended,
    brand: BUSINESS.brand,
    domain: BUSINESS.domain,
    nameSigns: ['structured data'],
    pageTitle: 'Acme Plumbing Ltd | Emergency Plumbers in Leeds',
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:09:00.000Z',
    prompts,
    score: overallScore(parts.map((assistant) => assistant.score)),
    assistants: parts,
    competitors: [],
    domains: [],
  };
}

/** The time of the n-th question of a run, a few seconds apart. */
export function askedAt(index: number): string {
  return new Date(Date.parse('2026-11-20T10:00:00.000Z') + index * 3_000).toISOString();
}

/** What an assistant gave for one question: an answer, a call that failed, or nothing (the run stopped before it). */
export type Reply = RecordedAnswer | 'no answer' | 'not asked';
export type Replies = Partial<Record<AssistantId, (question: PlannedQuestion, index: number) => Reply>>;

const MODELS: Record<AssistantId, string> = { chatgpt: 'gpt-5-mini-2025-08-07', claude: 'claude-sonnet-4-6', gemini: 'gemini-3-flash-preview', perplexity: 'sonar' };

/**
 * A run for a request with these words: its questions made as the probe makes them (`count` at
 * most), each put to the assistants that have replies, in turn, and the replies read as the
 * probe reads them; with this site check, ended as `ended` says.
 */
export function auditRun(business: BusinessDetails, replies: Replies, check: SiteCheckReport | null = checkedSite(), options: { count?: number; ended?: Pick<ProbeReport, 'status' | 'reason'> } = {}): AuditInput {
  const questions = planQuestions(business, { count: options.count ?? 50, templates: probePrompts.templates, brand: BUSINESS.brand, domain: BUSINESS.domain, personal: ['Jane Okafor', 'jane@acmeplumbing.co.uk'] });
  const assistants = ASSISTANT_IDS.filter((id) => replies[id] !== undefined);
  const parts = assistants.map((id, turn) =>
    part(
      id,
      questions.flatMap((question, index) => {
        const at = askedAt(index * assistants.length + turn);
        const reply = replies[id]?.(question, index) ?? 'not asked';
        if (reply === 'not asked') return [];
        return [reply === 'no answer' ? noAnswerTo(question.question, at) : answerTo(question.question, reply, at, MODELS[id])];
      }),
    ),
  );
  return { business, check, probe: probeOf(questions.map((question) => question.question), parts, options.ended), madeAt: new Date('2026-11-20T10:09:30.000Z') };
}
