import { auditSources } from '../../../shared/generated/audit-sources';
import { ASSISTANTS, type AssistantId } from '../../visibility-probe/assistant-catalogue';
import { nameKey, siteFinder, siteLabel } from '../../business/names';
import type { AssistantReport, ProbeAnswer } from '../../visibility-probe/probe-report';
import { scoreAssistant, wilsonInterval } from '../../visibility-probe/scoring';
import type { AssistantVisibility, CitedSite, KeywordOpportunity, SampleCount, ShareOfVoiceRow, SiteKind } from './audit-document';

/**
 * The full audit's figures, counted from the answers the assistants gave: per assistant, who they
 * name instead, the sites they cite, and how each search the business asked about went. Only
 * answers count (a call that failed is no answer); each business and each site counts once an
 * answer, however often the answer writes it.
 */

/** Competitors beside the business in the share of voice. */
const SHARE_OF_VOICE_COMPETITORS = 5;
/** Sites listed as cited most. */
const CITED_SITES_LISTED = 10;
/** Competitors listed per search. */
const RIVALS_PER_KEYWORD = 3;
/** The shortest part of a name that may match a site's address: shorter ones ("abc") match too much. */
const SHORTEST_NAME_IN_ADDRESS = 4;

/** One answer an assistant gave, with the searches (keywords, products) its question was about. */
export interface GivenAnswer {
  assistant: AssistantId;
  answer: ProbeAnswer;
  /** The searches as the question put them; none for a question about the business's description alone. */
  topics: string[];
  /** The name key (nameKey) of each of `answer.others`: worked out once, as every figure compares businesses by it. */
  otherKeys: string[];
}

/** An assistant's answers, without the calls that failed. */
export function answersGiven(part: AssistantReport): ProbeAnswer[] {
  return part.answers.filter((answer) => answer.error === null);
}

/** One answer as the figures read it, with the searches it was about. */
export function givenAnswer(assistant: AssistantId, answer: ProbeAnswer, topics: string[]): GivenAnswer {
  return { assistant, answer, topics, otherKeys: answer.others.map(nameKey) };
}

/** The businesses these answers name besides the business, each counted once an answer (by nameKey), shown as first written: the most named first. */
export function rivalsNamed(given: readonly GivenAnswer[]): { name: string; key: string; answers: number }[] {
  const rivals = new Map<string, { name: string; key: string; answers: number }>();
  for (const { answer, otherKeys } of given) {
    for (const key of new Set(otherKeys)) {
      const rival = rivals.get(key) ?? { name: answer.others[otherKeys.indexOf(key)] ?? key, key, answers: 0 };
      rival.answers += 1;
      rivals.set(key, rival);
    }
  }
  return [...rivals.values()].sort((a, b) => b.answers - a.answers);
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * A count out of a sample, with the range a sample of its size allows: the 95% Wilson interval
 * in whole answers, rounded outwards ("between 8 and 22 of 50"). The interval's ends come rounded
 * to three places, so an end a hair from a whole answer is that answer.
 */
export function sampleCount(count: number, of: number): SampleCount {
  if (of === 0) return { count, of, low: null, high: null };
  const [low, high] = wilsonInterval(count, of);
  return { count, of, low: Math.min(count, Math.floor(low * of + 1e-6)), high: Math.max(count, Math.ceil(high * of - 1e-6)) };
}

/** One assistant's part: its answers scored as the probe scores them, its counts with their ranges. */
export function assistantVisibility(part: AssistantReport): AssistantVisibility {
  const answers = answersGiven(part);
  const figures = scoreAssistant(answers);
  return {
    assistant: part.id,
    label: ASSISTANTS[part.id].label,
    models: [...new Set(answers.flatMap((answer) => (answer.model === null ? [] : [answer.model])))],
    asked: part.asked,
    answered: figures.answered,
    named: sampleCount(figures.named, figures.answered),
    cited: sampleCount(figures.cited, figures.answered),
    averagePosition: figures.averagePosition,
    shareOfVoice: figures.shareOfVoice,
    score: figures.score,
    error: part.error,
  };
}

/** The business names an answer holds, each once: the business itself (when named) and the others. */
const mentionsIn = (answer: ProbeAnswer) => (answer.named ? 1 : 0) + answer.others.length;

/**
 * The business and the competitors named most, each with the answers naming it and its share of
 * all the names in them (as the probe's score counts share of voice), per assistant and in all.
 */
export function shareOfVoice(given: readonly GivenAnswer[], assistants: readonly AssistantId[], businessName: string): ShareOfVoiceRow[] {
  const mentions = new Map<AssistantId, number>(assistants.map((id) => [id, 0]));
  for (const { assistant, answer } of given) mentions.set(assistant, (mentions.get(assistant) ?? 0) + mentionsIn(answer));
  const allMentions = [...mentions.values()].reduce((sum, count) => sum + count, 0);
  const share = (count: number, of: number) => (of === 0 ? 0 : round3(count / of));
  const row = (name: string, isBusiness: boolean, names: (item: GivenAnswer) => boolean): ShareOfVoiceRow => {
    const perAssistant = assistants.map((id) => {
      const answers = given.filter((item) => item.assistant === id && names(item)).length;
      return { assistant: id, answers, share: share(answers, mentions.get(id) ?? 0) };
    });
    const answers = perAssistant.reduce((sum, part) => sum + part.answers, 0);
    return { name, isBusiness, answers, share: share(answers, allMentions), perAssistant };
  };
  return [row(businessName, true, ({ answer }) => answer.named), ...rivalsNamed(given).slice(0, SHARE_OF_VOICE_COMPETITORS).map(({ name, key }) => row(name, false, ({ otherKeys }) => otherKeys.includes(key)))];
}

/** The listed domains, the longest first: a subdomain listed apart (trustedtraders.which.co.uk) decides before its domain. */
const LISTED_SITES = Object.entries(auditSources.kinds)
  .flatMap(([kind, domains]) => domains.map((domain) => ({ domain, kind: kind as SiteKind })))
  .sort((a, b) => b.domain.length - a.domain.length);

/**
 * Whether a site's address names a business, given as the words of its name (nameKey): its name,
 * or its first words ("flowfix.co.uk" of FlowFix Plumbing & Heating), is the address's word, or
 * the address's word starts with the name ("pipeprosleeds" of Pipe Pros).
 */
function addressNames(label: string, words: readonly string[]): boolean {
  const whole = words.join('');
  if (whole.length >= SHORTEST_NAME_IN_ADDRESS && label.startsWith(whole)) return true;
  return words.some((_word, index) => {
    const start = words.slice(0, index + 1).join('');
    return start.length >= SHORTEST_NAME_IN_ADDRESS && start === label;
  });
}

/** What kind of site a host is. */
export type SiteKinds = (host: string) => SiteKind;

/**
 * What kind of site each host is: the kind content/audit-sources.yaml gives its domain; else a
 * competitor's own, when its address names one of the businesses these answers name; else other.
 * Each host is judged once: a run's answers cite the same few sites again and again, and name
 * up to 50 businesses each.
 */
export function siteKinds(given: readonly GivenAnswer[]): SiteKinds {
  const names = rivalsNamed(given).map(({ key }) => key.split(' '));
  const known = new Map<string, SiteKind>();
  return (host) => {
    let kind = known.get(host);
    if (kind === undefined) {
      const listed = LISTED_SITES.find(({ domain }) => host === domain || host.endsWith(`.${domain}`));
      const label = listed ? '' : siteLabel(host);
      kind = listed ? listed.kind : label !== '' && names.some((words) => addressNames(label, words)) ? 'competitor' : 'other';
      known.set(host, kind);
    }
    return kind;
  };
}

/**
 * The sites the answers cite or write most, all assistants together, with their kind: the
 * business's own site (cited, or written in the text) among them when the answers give it.
 */
export function citedSites(given: readonly GivenAnswer[], ownSite: string | null, kindOf: SiteKinds): CitedSite[] {
  const findOwnSite = ownSite === null ? () => -1 : siteFinder(ownSite);
  const sites = new Map<string, { answers: number; assistants: Set<AssistantId> }>();
  const count = (domain: string, assistant: AssistantId) => {
    const site = sites.get(domain) ?? { answers: 0, assistants: new Set<AssistantId>() };
    site.answers += 1;
    site.assistants.add(assistant);
    sites.set(domain, site);
  };
  for (const { assistant, answer } of given) {
    for (const domain of new Set(answer.otherDomains)) count(domain, assistant);
    if (ownSite !== null && (answer.citesOwnSite || findOwnSite(answer.text ?? '') !== -1)) count(ownSite, assistant);
  }
  return [...sites.entries()]
    .sort(([a, first], [b, second]) => second.answers - first.answers || a.localeCompare(b))
    .slice(0, CITED_SITES_LISTED)
    .map(([domain, site]) => ({
      domain,
      kind: domain === ownSite ? 'own site' : kindOf(domain),
      answers: site.answers,
      assistants: [...site.assistants],
    }));
}

/**
 * Each search the business asked about, as the answers treated it, the most missed first: by how
 * many assistants named rivals and never the business for it, then by how many answers did, then
 * in the order the questions first asked it. A search no answer came back for is left out.
 */
export function keywordOpportunities(given: readonly GivenAnswer[], assistants: readonly AssistantId[]): KeywordOpportunity[] {
  const searches = new Map<string, { keyword: string; order: number; answers: GivenAnswer[] }>();
  for (const item of given) {
    for (const topic of item.topics) {
      const key = topic.toLowerCase();
      const search = searches.get(key) ?? { keyword: topic, order: searches.size, answers: [] };
      search.answers.push(item);
      searches.set(key, search);
    }
  }
  const opportunities = [...searches.values()].map(({ keyword, order, answers }) => {
    const named = answers.filter(({ answer }) => answer.named);
    const rivalsOnly = answers.filter(({ answer }) => !answer.named && answer.others.length > 0);
    // Missing: named rivals for this search and the business in none of its answers to it.
    const assistantsMissing = assistants.filter((id) => rivalsOnly.some((item) => item.assistant === id) && !named.some((item) => item.assistant === id));
    const first = named.filter(({ answer }) => answer.position === 1).length;
    const rivals = rivalsNamed(answers)
      .slice(0, RIVALS_PER_KEYWORD)
      .map(({ name }) => name);
    const opportunity: KeywordOpportunity = {
      keyword,
      answers: answers.length,
      named: named.length,
      rivalsOnly: rivalsOnly.length,
      assistantsMissing,
      rivals,
      // Named in most of its answers, and first of the businesses named in most of those.
      wins: named.length * 2 > answers.length && first * 2 > named.length,
    };
    return { opportunity, order };
  });
  return opportunities
    .sort((a, b) => b.opportunity.assistantsMissing.length - a.opportunity.assistantsMissing.length || b.opportunity.rivalsOnly - a.opportunity.rivalsOnly || a.order - b.order)
    .map(({ opportunity }) => opportunity);
}
