import { AUDIT_FINDINGS, type AuditFindingId } from '../../../shared/audit-findings';
import { listOfNames } from '../../../shared/copy-template';
import { auditSources } from '../../../shared/generated/audit-sources';
import { pageUnreadable } from '../../site-check/scoring';
import type { SiteCheckReport } from '../../site-check/check-report';
import { ASSISTANTS, type AssistantId } from '../../visibility-probe/assistant-catalogue';
import { tally } from '../../visibility-probe/probe-report';
import type { AssistantVisibility, KeywordOpportunity, WhatTheySay, WrongFact, WrongFactKind } from './audit-document';
import { topicsOf } from './what-they-say';
import { rivalsNamed, type GivenAnswer, type SiteKinds } from './audit-figures';

/**
 * What the measurements found that the business can act on: each finding with the figures its
 * words show, for the action plan and for each assistant it concerns. Nothing is found that was
 * not measured: a site that could not be checked has no readiness findings, an assistant that
 * gave no answer has no visibility findings.
 */

type Figures = Record<string, string | number>;
type FiguresOf<Id extends AuditFindingId, Part extends 'action' | 'recommendation'> = (typeof AUDIT_FINDINGS)[Id] extends { [P in Part]: readonly (infer Name extends string)[] }
  ? Record<Name, string | number>
  : never;

export interface Finding {
  id: AuditFindingId;
  /** The figures of the action it calls for; null when its words have no action. */
  action: Figures | null;
  /** The figures of its line for each assistant it concerns (asked ones only). */
  perAssistant: Map<AssistantId, Figures>;
}

/** A finding, its figures checked against what its words may show. */
function found<Id extends AuditFindingId>(id: Id, action: FiguresOf<Id, 'action'> | null, perAssistant: [AssistantId, FiguresOf<Id, 'recommendation'>][] = []): Finding {
  return { id, action, perAssistant: new Map(perAssistant) };
}

/** Where an assistant names the business, this far down its list on average, or further: named low. */
const LOW_PLACE = 3;
/** Searches and rivals written out in one sentence. */
const LISTED_IN_A_SENTENCE = 3;
/** Sites written out in the plan's action. */
const SITES_IN_THE_ACTION = 5;

/** "‘boiler repair’, ‘bathroom fitting’ and ‘gas safety certificate’". */
const quotedList = (words: readonly string[]) => listOfNames(words.map((word) => `‘${word}’`));
const labelOf = (id: AssistantId) => ASSISTANTS[id].label;
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: readonly number[]) => Math.round((sum(values) / values.length) * 10) / 10;

/** The visibility findings: per assistant, never named, named but never cited, named low in its lists. */
function visibilityFindings(visibility: readonly AssistantVisibility[], given: readonly GivenAnswer[]): Finding[] {
  const findings: Finding[] = [];
  const notNamed = visibility.filter((part) => part.answered > 0 && part.named.count === 0);
  if (notNamed.length > 0) {
    findings.push(
      found(
        'notNamed',
        { assistants: listOfNames(notNamed.map((part) => part.label)), answers: sum(notNamed.map((part) => part.answered)) },
        notNamed.map((part) => [part.assistant, { assistant: part.label, answers: part.answered, high: part.named.high ?? 0 }]),
      ),
    );
  }
  const notCited = visibility.filter((part) => part.named.count > 0 && part.cited.count === 0);
  if (notCited.length > 0) {
    findings.push(
      found(
        'namedNotCited',
        { assistants: listOfNames(notCited.map((part) => part.label)), named: sum(notCited.map((part) => part.named.count)) },
        notCited.map((part) => [part.assistant, { assistant: part.label, named: part.named.count, answers: part.answered }]),
      ),
    );
  }
  const low = visibility.filter((part) => part.averagePosition !== null && part.averagePosition >= LOW_PLACE);
  if (low.length > 0) {
    const places = given.flatMap(({ assistant, answer }) => (low.some((part) => part.assistant === assistant) && answer.position !== null ? [answer.position] : []));
    findings.push(
      found(
        'namedLow',
        { assistants: listOfNames(low.map((part) => part.label)), position: mean(places) },
        low.map((part) => [part.assistant, { assistant: part.label, position: part.averagePosition ?? 0, named: part.named.count }]),
      ),
    );
  }
  return findings;
}

/** The rivals named most in these answers. */
const rivalsIn = (answers: readonly GivenAnswer[]) =>
  rivalsNamed(answers)
    .slice(0, LISTED_IN_A_SENTENCE)
    .map(({ name }) => name);

/** Searches where assistants named rivals and never the business, the most missed first. */
function keywordFindings(keywords: readonly KeywordOpportunity[], given: readonly GivenAnswer[], asked: readonly AssistantId[]): Finding[] {
  const missed = keywords.filter((keyword) => keyword.assistantsMissing.length > 0);
  if (missed.length === 0) return [];
  const rivalsFor = (searches: readonly KeywordOpportunity[], assistant: AssistantId | null) => {
    const words = new Set(searches.map((search) => search.keyword.toLowerCase()));
    return rivalsIn(given.filter((item) => !item.answer.named && (assistant === null || item.assistant === assistant) && item.topics.some((topic) => words.has(topic.toLowerCase()))));
  };
  const perAssistant = asked.flatMap((assistant): [AssistantId, { assistant: string; keywords: string; rivals: string }][] => {
    const its = missed.filter((keyword) => keyword.assistantsMissing.includes(assistant)).slice(0, LISTED_IN_A_SENTENCE);
    return its.length === 0 ? [] : [[assistant, { assistant: labelOf(assistant), keywords: quotedList(its.map((keyword) => keyword.keyword)), rivals: listOfNames(rivalsFor(its, assistant)) }]];
  });
  const shown = missed.slice(0, LISTED_IN_A_SENTENCE);
  return [found('rivalsForKeywords', { keywords: quotedList(shown.map((keyword) => keyword.keyword)), count: missed.length, rivals: listOfNames(rivalsFor(missed, null)) }, perAssistant)];
}

/**
 * The sites cited in answers that left the business out, the most cited first: where assistants
 * find the businesses they name instead. Competitors' own sites are not places to be listed.
 */
function citedSiteFindings(given: readonly GivenAnswer[], asked: readonly AssistantId[], kindOf: SiteKinds): Finding[] {
  const without = given.filter(({ answer }) => !answer.named);
  const placesIn = (answers: readonly GivenAnswer[], most: number) =>
    tally(
      answers.map(({ answer }) => answer.otherDomains.filter((domain) => kindOf(domain) !== 'competitor')),
      (domain) => domain,
    )
      .slice(0, most)
      .map(({ value }) => value);
  const sites = placesIn(without, SITES_IN_THE_ACTION);
  if (sites.length === 0) return [];
  const citing = without.filter(({ answer }) => answer.otherDomains.some((domain) => sites.includes(domain))).length;
  const perAssistant = asked.flatMap((assistant): [AssistantId, { assistant: string; sites: string }][] => {
    const its = placesIn(
      without.filter((item) => item.assistant === assistant),
      LISTED_IN_A_SENTENCE,
    );
    return its.length === 0 ? [] : [[assistant, { assistant: labelOf(assistant), sites: listOfNames(its) }]];
  });
  return [found('citedSites', { sites: listOfNames(sites), answers: citing }, perAssistant)];
}

/** Which of the assistants' crawlers robots.txt blocks, by assistant (content/audit-sources.yaml), of those the check judged. */
export function crawlerVerdicts(check: SiteCheckReport | null, assistant: AssistantId): { agent: string; allowed: boolean }[] {
  const judged = check?.status === 'done' ? (check.facts?.robots.agents ?? []) : [];
  return auditSources.crawlers[assistant].flatMap((token) => judged.filter((verdict) => verdict.agent.toLowerCase() === token.toLowerCase()).slice(0, 1));
}

/** The site check's findings that have an action: robots.txt read per assistant, the page's and the site's. */
function readinessFindings(check: SiteCheckReport | null, asked: readonly AssistantId[]): Finding[] {
  const facts = check?.status === 'done' ? check.facts : null;
  if (check === null || facts === null) return [];
  const findings: Finding[] = [];
  const all = Object.keys(auditSources.crawlers) as AssistantId[];
  if (facts.robots.state === 'found') {
    const blocked = all.map((assistant) => ({ assistant, crawlers: crawlerVerdicts(check, assistant).filter((verdict) => !verdict.allowed).map((verdict) => verdict.agent) })).filter((part) => part.crawlers.length > 0);
    if (blocked.length > 0) {
      findings.push(
        found(
          'crawlersBlocked',
          { assistants: listOfNames(blocked.map((part) => labelOf(part.assistant))), crawlers: listOfNames(blocked.flatMap((part) => part.crawlers)) },
          blocked.filter((part) => asked.includes(part.assistant)).map((part) => [part.assistant, { assistant: labelOf(part.assistant), crawlers: listOfNames(part.crawlers) }]),
        ),
      );
    }
  } else if (facts.robots.state === 'unreachable') {
    findings.push(found('robotsUnreachable', { detail: facts.robots.detail }, asked.map((assistant) => [assistant, { assistant: labelOf(assistant), detail: facts.robots.detail }])));
  }
  // A page that is no HTML document fails every check of the page for that one reason: one finding, not nine.
  const unreadable = pageUnreadable(facts.page);
  if (unreadable !== null) findings.push(found('pageUnreadable', { detail: unreadable }));
  for (const result of check.findings) {
    if (result.verdict === 'pass') continue;
    const scored = { detail: result.detail, points: result.points, maxPoints: result.maxPoints };
    switch (result.id) {
      case 'aiCrawlers':
        // Read above, per assistant: blocking other agents (a training crawler) is the site's choice.
        break;
      case 'textInHtml':
        if (unreadable === null) findings.push(found(result.id, { ...scored, words: facts.page.textWords }));
        break;
      case 'structuredDataParses':
        // No JSON-LD at all is the Organization finding's; this one is for blocks that do not parse.
        if (unreadable === null && facts.page.jsonLdBlocks > 0) findings.push(found(result.id, scored));
        break;
      case 'indexable':
      case 'organization':
      case 'title':
      case 'metaDescription':
      case 'canonical':
      case 'openGraph':
      case 'language':
        if (unreadable === null) findings.push(found(result.id, scored));
        break;
      case 'llmsTxt':
      case 'https':
      case 'sitemap':
      case 'markdown':
        findings.push(found(result.id, scored));
        break;
      default: {
        // Every check of the site's scoring is read above: a new one fails the typecheck here
        // until it is given its words (shared/audit-findings.ts, content/audit-report.yaml).
        const unread: never = result.id;
        void unread;
      }
    }
  }
  return findings;
}

/** The contact facts whose being wrong stops a buyer reaching the business. */
const CONTACT_KINDS: readonly WrongFactKind[] = ['phone', 'email', 'postcode'];
/** The claims the judge found the site contradicts that the plan acts on (a status claim of closing is its own finding). */
const CLAIM_KINDS: readonly WrongFactKind[] = ['place', 'service', 'price', 'status'];

/** "the phone number and the postcode": the topics of wrong facts, each once. */
const topicList = (wrong: readonly WrongFact[]) => listOfNames(topicsOf(wrong.map((fact) => fact.kind)));

/**
 * What the assistants say about the business that it can act on: an assistant saying it has
 * closed, giving a wrong phone number, e-mail address or postcode, sending people to another
 * website, claiming what its site contradicts, or speaking of it negatively.
 */
function saidFindings(said: WhatTheySay | null): Finding[] {
  if (said === null) return [];
  const findings: Finding[] = [];
  /** The assistants that state wrong facts of these kinds, each with its own; null when none does. */
  const wrongOf = (kinds: readonly WrongFactKind[]) => {
    const parts = said.assistants.map((part) => ({ part, facts: part.wrong.filter((fact) => kinds.includes(fact.kind)) })).filter(({ facts }) => facts.length > 0);
    return parts.length === 0 ? null : { assistants: listOfNames(parts.map(({ part }) => part.label)), facts: parts.flatMap(({ facts }) => facts), parts };
  };
  const closed = wrongOf(['closed']);
  if (closed) findings.push(found('saysClosed', { assistants: closed.assistants }, closed.parts.map(({ part }) => [part.assistant, { assistant: part.label }])));
  const contact = wrongOf(CONTACT_KINDS);
  if (contact) {
    findings.push(found('wrongContact', { assistants: contact.assistants, facts: topicList(contact.facts) }, contact.parts.map(({ part, facts }) => [part.assistant, { assistant: part.label, facts: topicList(facts) }])));
  }
  const elsewhere = wrongOf(['website']);
  if (elsewhere) {
    const sites = (wrong: readonly WrongFact[]) => listOfNames([...new Set(wrong.map((fact) => fact.whose ?? fact.said ?? ''))].filter(Boolean).slice(0, LISTED_IN_A_SENTENCE));
    findings.push(found('othersWebsite', { assistants: elsewhere.assistants, sites: sites(elsewhere.facts) }, elsewhere.parts.map(({ part, facts }) => [part.assistant, { assistant: part.label, sites: sites(facts) }])));
  }
  const claims = wrongOf(CLAIM_KINDS);
  if (claims) {
    findings.push(found('claimsContradicted', { assistants: claims.assistants, topics: topicList(claims.facts) }, claims.parts.map(({ part, facts }) => [part.assistant, { assistant: part.label, topics: topicList(facts) }])));
  }
  const negative = said.assistants.map((part) => ({ part, negative: part.tone.negative + part.tone.mixed })).filter(({ negative: count }) => count > 0);
  if (negative.length > 0) {
    findings.push(
      found(
        'toneNegative',
        { assistants: listOfNames(negative.map(({ part }) => part.label)), negative: sum(negative.map(({ negative: count }) => count)), judged: sum(negative.map(({ part }) => part.judged)) },
        negative.map(({ part, negative: count }) => [part.assistant, { assistant: part.label, negative: count, judged: part.judged }]),
      ),
    );
  }
  return findings;
}

/** Everything the report's measurements found, in no order (the plan orders the actions). */
export function findFindings(input: {
  check: SiteCheckReport | null;
  visibility: readonly AssistantVisibility[];
  keywords: readonly KeywordOpportunity[];
  given: readonly GivenAnswer[];
  kindOf: SiteKinds;
  said: WhatTheySay | null;
}): Finding[] {
  const asked = input.visibility.map((part) => part.assistant);
  return [
    ...saidFindings(input.said),
    ...visibilityFindings(input.visibility, input.given),
    ...keywordFindings(input.keywords, input.given, asked),
    ...citedSiteFindings(input.given, asked, input.kindOf),
    ...readinessFindings(input.check, asked),
  ];
}
