/**
 * The findings a full audit's report can hold, and which figures the words of each may show: the
 * code measures and decides which findings a report has; content/audit-report.yaml gives each its
 * words. The build refuses a words file that lacks a finding listed here, words for a finding not
 * listed here, or a figure a finding's sentences cannot be given; the code cannot report a finding
 * that is not listed here.
 *
 * Each finding may have:
 * - `recommendation`: one line in the part of the report for each assistant it concerns;
 * - `action`: one step of the action plan (its title, what to do and why, who, effect, effort).
 * The figures listed are the {placeholders} its sentences may hold; {business} is always one.
 * `section` is the part of the report that shows what the finding rests on.
 *
 * Their order here is the plan's last tie-break: of two actions of the same effect and effort,
 * the one listed first comes first.
 */
export const AUDIT_FINDINGS = {
  // From the answers.
  notNamed: {
    section: 'visibility',
    recommendation: ['assistant', 'answers', 'high'],
    action: ['assistants', 'answers'],
  },
  rivalsForKeywords: {
    section: 'keywords',
    recommendation: ['assistant', 'keywords', 'rivals'],
    action: ['keywords', 'count', 'rivals'],
  },
  citedSites: {
    section: 'competitors',
    recommendation: ['assistant', 'sites'],
    action: ['sites', 'answers'],
  },
  namedNotCited: {
    section: 'visibility',
    recommendation: ['assistant', 'named', 'answers'],
    action: ['assistants', 'named'],
  },
  namedLow: {
    section: 'visibility',
    recommendation: ['assistant', 'position', 'named'],
    action: ['assistants', 'position'],
  },
  // From what the assistants say about the business, checked against its own site.
  saysClosed: { section: 'said', recommendation: ['assistant'], action: ['assistants'] },
  wrongContact: { section: 'said', recommendation: ['assistant', 'facts'], action: ['assistants', 'facts'] },
  othersWebsite: { section: 'said', recommendation: ['assistant', 'sites'], action: ['assistants', 'sites'] },
  claimsContradicted: { section: 'said', recommendation: ['assistant', 'topics'], action: ['assistants', 'topics'] },
  toneNegative: { section: 'said', recommendation: ['assistant', 'negative', 'judged'], action: ['assistants', 'negative', 'judged'] },
  // From the site check (server/site-check/scoring.ts; its AI-crawler finding is read per assistant).
  crawlersBlocked: {
    section: 'readiness',
    recommendation: ['assistant', 'crawlers'],
    action: ['assistants', 'crawlers'],
  },
  robotsUnreachable: {
    section: 'readiness',
    recommendation: ['assistant', 'detail'],
    action: ['detail'],
  },
  pageUnreadable: { section: 'readiness', action: ['detail'] },
  textInHtml: { section: 'readiness', action: ['detail', 'words', 'points', 'maxPoints'] },
  indexable: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  organization: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  llmsTxt: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  https: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  title: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  metaDescription: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  sitemap: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  canonical: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  openGraph: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  markdown: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  language: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
  structuredDataParses: { section: 'readiness', action: ['detail', 'points', 'maxPoints'] },
} as const satisfies Record<string, { section: string; recommendation?: readonly string[]; action?: readonly string[] }>;

export type AuditFindingId = keyof typeof AUDIT_FINDINGS;

/** The figures the report's other sentences may show ({business} in every one). */
export const AUDIT_SENTENCE_FIGURES = {
  /** When no assistant answered. */
  visibilityNone: [],
  /** When too few answers came back for a band to mean anything. */
  visibilityFewAnswers: ['score', 'named', 'answers', 'low', 'high', 'assistants'],
  visibilityBand: ['score', 'named', 'answers', 'low', 'high', 'assistants'],
  readinessNotChecked: ['site'],
  readinessBand: ['score', 'toFix', 'site'],
  incompleteNoAnswers: [],
  incompletePartial: ['answers', 'planned'],
  incompleteFewAnswers: ['answers'],
} as const;

/** Who does an action, and how much effect and effort it has: the words file says, per action. */
export const ACTION_OWNERS = ['business', 'developer', 'agency'] as const;
export const ACTION_LEVELS = ['high', 'medium', 'low'] as const;
