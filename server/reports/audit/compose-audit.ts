import { AUDIT_FINDINGS, type AuditFindingId } from '../../../shared/audit-findings';
import type { AuditActionWords } from '../../../shared/content-schema';
import { fillCopy, listOfNames } from '../../../shared/copy-template';
import { auditReport } from '../../../shared/generated/audit-report';
import { probePrompts } from '../../../shared/generated/probe-prompts';
import type { SiteCheckReport } from '../../site-check/check-report';
import { planQuestions, type BusinessDetails, type PlannedQuestion } from '../../visibility-probe/prompts';
import type { ProbeReport } from '../../visibility-probe/probe-report';
import { overallScore } from '../../visibility-probe/scoring';
import type { AssistantRecommendations, AuditAction, AuditDocument, AuditSummary, Level, ReadinessFinding } from './audit-document';
import { answersGiven, assistantVisibility, citedSites, givenAnswer, keywordOpportunities, sampleCount, shareOfVoice, siteKinds, type GivenAnswer } from './audit-figures';
import { crawlerVerdicts, findFindings, type Finding } from './findings';
import { whatTheySay } from './what-they-say';

/**
 * The full audit's report of one request, composed once when its run ends: the figures counted
 * from the run's answers and site check, the findings they show, and for each finding the
 * agency's words (content/audit-report.yaml) with the figures put in. Pure: no network, no
 * database, no clock but `madeAt`.
 */
export interface AuditInput {
  /** The request's words about the business: which search each question was about. */
  business: BusinessDetails;
  /** The run's own site check; null: the site could not be checked. */
  check: SiteCheckReport | null;
  /** The run's probe, every answer in it. */
  probe: ProbeReport;
  /** When the run ended. */
  madeAt: Date;
  /** The questions as they were fixed beforehand, with the search each was made of (a monitored client's); by default made again from `business`. */
  planned?: readonly PlannedQuestion[];
}

/**
 * Fewer answers than this, all assistants together, and a score band would say more than the
 * sample shows: the summary gives the counts and their range alone, and says the run is small.
 */
const FEW_ANSWERS = 20;

const EFFECT_FIRST: Record<Level, number> = { high: 0, medium: 1, low: 2 };
const EFFORT_FIRST: Record<Level, number> = { low: 0, medium: 1, high: 2 };
const FINDING_ORDER: readonly string[] = Object.keys(AUDIT_FINDINGS);

function wordsOf(id: AuditFindingId): { recommendation?: string; action?: AuditActionWords } {
  return auditReport.findings[id];
}

/** The findings, the one whose action has the most effect for the least effort first; then in the findings table's order. */
function byPlanOrder(findings: readonly Finding[]): Finding[] {
  const rank = (finding: Finding) => {
    const action = wordsOf(finding.id).action;
    return action === undefined ? [3, 3] : [EFFECT_FIRST[action.effect], EFFORT_FIRST[action.effort]];
  };
  return [...findings].sort((a, b) => {
    const [effectA = 0, effortA = 0] = rank(a);
    const [effectB = 0, effortB = 0] = rank(b);
    return effectA - effectB || effortA - effortB || FINDING_ORDER.indexOf(a.id) - FINDING_ORDER.indexOf(b.id);
  });
}

/** A figure as a sentence shows it: "1,250", "3.5". */
const shown = (value: string | number) => (typeof value === 'number' ? value.toLocaleString('en-GB') : value);

/** "action-text-in-html": the anchor of a finding's action on the page. */
const actionId = (id: AuditFindingId) => `action-${id.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** The sentence of the band a score falls in: the last band starting at or below it. */
function bandSentence(bands: readonly { from: number; sentence: string }[], score: number): string {
  return bands.filter((band) => band.from <= score).at(-1)?.sentence ?? bands[0]?.sentence ?? '';
}

/**
 * Which searches each question was about, found by making the questions again from the same
 * words: the same templates, name and site give the same questions in the same order. A
 * question made without a word of the person's name (which the run withheld and this cannot)
 * is not found, and its answers count for no search.
 */
function searchesOf(business: BusinessDetails, probe: ProbeReport, fixed?: readonly PlannedQuestion[]): (question: string) => string[] {
  const planned = fixed ?? planQuestions(business, { count: probe.prompts.length, templates: probePrompts.templates, brand: probe.brand, domain: probe.domain, personal: [], alsoNames: probe.typedNames ?? [] });
  const searches = new Map(planned.map((question) => [question.question, [question.keyword, question.product].filter((search): search is string => search !== null)]));
  return (question) => searches.get(question) ?? [];
}

export function composeAudit({ business, check, probe, madeAt, planned: fixedQuestions }: AuditInput): AuditDocument {
  const businessName = probe.brand ?? probe.domain ?? auditReport.unnamedBusiness;
  const site = probe.domain ?? (check?.host || null) ?? businessName;
  const fill = (sentence: string, figures: Record<string, string | number> = {}) =>
    fillCopy(sentence, Object.fromEntries(Object.entries({ business: businessName, ...figures }).map(([name, value]) => [name, shown(value)])));

  const searches = searchesOf(business, probe, fixedQuestions);
  const asked = probe.assistants.map((part) => part.id);
  const given: GivenAnswer[] = probe.assistants.flatMap((part) => answersGiven(part).map((answer) => givenAnswer(part.id, answer, searches(answer.prompt))));
  const visibility = probe.assistants.map(assistantVisibility);
  const kindOf = siteKinds(given);
  const keywords = keywordOpportunities(given, asked);
  const said = whatTheySay(probe, check?.status === 'done' ? (check.facts?.business ?? null) : null);
  const findings = byPlanOrder(findFindings({ check, visibility, keywords, given, kindOf, said }));

  const actions = findings.flatMap((finding): AuditAction[] => {
    const words = wordsOf(finding.id).action;
    if (words === undefined || finding.action === null) return [];
    const figures = finding.action;
    return [
      {
        id: actionId(finding.id),
        finding: finding.id,
        section: AUDIT_FINDINGS[finding.id].section,
        title: fill(words.title, figures),
        what: fill(words.what, figures),
        why: fill(words.why, figures),
        who: words.who,
        effect: words.effect,
        effort: words.effort,
      },
    ];
  });

  const recommendations = probe.assistants.map(
    (part, index): AssistantRecommendations => ({
      assistant: part.id,
      label: visibility[index]?.label ?? part.id,
      crawlers: crawlerVerdicts(check, part.id),
      items: findings.flatMap((finding) => {
        const line = wordsOf(finding.id).recommendation;
        const figures = finding.perAssistant.get(part.id);
        return line === undefined || figures === undefined ? [] : [{ finding: finding.id, text: fill(line, figures) }];
      }),
    }),
  );

  const answered = visibility.reduce((total, part) => total + part.answered, 0);
  const named = sampleCount(
    visibility.reduce((total, part) => total + part.named.count, 0),
    answered,
  );
  const visibilityScore = overallScore(visibility.map((part) => part.score));
  const visibilityFigures = { score: visibilityScore ?? 0, named: named.count, answers: answered, low: named.low ?? 0, high: named.high ?? 0, assistants: listOfNames(visibility.filter((part) => part.answered > 0).map((part) => part.label)) };
  const { scores } = auditReport;
  const checked = check?.status === 'done' && check.score !== null ? check : null;
  const summary: AuditSummary = {
    visibilityScore,
    visibilitySentence:
      visibilityScore === null || answered === 0
        ? fill(scores.visibility.none)
        : answered < FEW_ANSWERS
          ? fill(scores.visibility.fewAnswers, visibilityFigures)
          : fill(bandSentence(scores.visibility.bands, visibilityScore), visibilityFigures),
    readinessScore: checked?.score ?? null,
    readinessSentence:
      checked === null
        ? fill(scores.readiness.notChecked, { site })
        : fill(bandSentence(scores.readiness.bands, checked.score ?? 0), { score: checked.score ?? 0, toFix: checked.findings.filter((finding) => finding.verdict !== 'pass').length, site }),
    topActions: actions.slice(0, 3).map((action) => action.id),
  };

  const planned = probe.prompts.length * probe.assistants.length;
  const incomplete =
    answered === 0
      ? fill(auditReport.incomplete.noAnswers)
      : answered < planned
        ? fill(auditReport.incomplete.partial, { answers: answered, planned })
        : answered < FEW_ANSWERS
          ? fill(auditReport.incomplete.fewAnswers, { answers: answered })
          : null;

  const askedAt = probe.assistants.flatMap((part) => [...part.answers, ...(part.aboutAnswers ?? [])].map((answer) => answer.askedAt)).sort();
  const readiness: ReadinessFinding[] = (checked?.findings ?? []).map(({ id, title, verdict, points, maxPoints, detail }) => ({ id, title, verdict, points, maxPoints, detail }));

  return {
    version: 1,
    business: { name: probe.brand, site: probe.domain, nameSigns: probe.nameSigns, ...(probe.typedNames ? { typedNames: probe.typedNames } : {}) },
    madeAt: madeAt.toISOString(),
    askedFrom: askedAt[0] ?? probe.startedAt,
    askedTo: askedAt.at(-1) ?? probe.finishedAt,
    questionsPerAssistant: probe.prompts.length,
    incomplete,
    summary,
    visibility,
    ...(said ? { said } : {}),
    competitors: { shareOfVoice: shareOfVoice(given, asked, businessName), citedSites: citedSites(given, probe.domain, kindOf) },
    keywords,
    recommendations,
    actions,
    readiness,
  };
}
