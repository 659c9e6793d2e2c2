import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { BusinessFacts, SiteFact } from '../../server/business/business-facts';
import { hostOf } from '../../server/business/names';
import { checkFacts, type FactCheck, type FactKind } from '../../server/answer-check/fact-check';
import { emailValue, phoneValue, postcodeValue } from '../../server/answer-check/written-facts';

/**
 * The labelled set of AI assistants' answers about invented UK small firms
 * (test/fixtures/answers-about-business/answers.yaml), run through the facts check; shared by its
 * test and by scripts/fact-corpus.ts, which prints the score docs/answer-facts.md states.
 */

export const ASSISTANTS = ['chatgpt', 'claude', 'gemini', 'perplexity'] as const;
export const FACT_KINDS: readonly FactKind[] = ['phone', 'email', 'postcode', 'website', 'closed'];

interface CorpusFacts {
  phones: string[];
  emails: string[];
  addresses: string[];
  postcodes: string[];
  towns: string[];
  openingHours: string[];
  services: string[];
}

export interface CorpusBusiness {
  id: string;
  name: string;
  site: string;
  facts: CorpusFacts;
  siteText: string;
}

export interface LabelledFact {
  kind: FactKind;
  said: string;
}

export interface CorpusAnswer {
  id: string;
  business: string;
  assistant: (typeof ASSISTANTS)[number];
  question: string;
  about: boolean;
  text: string;
  sources?: { url: string; title: string | null }[];
  wrong: LabelledFact[];
  tone?: 'positive' | 'neutral' | 'mixed' | 'negative';
  claims: { about: 'service' | 'place' | 'status' | 'price'; claim: string; verdict: 'supported' | 'contradicted' | 'not on site' }[];
}

interface Corpus {
  businesses: CorpusBusiness[];
  answers: CorpusAnswer[];
}

const CORPUS = path.resolve(__dirname, '..', 'fixtures', 'answers-about-business', 'answers.yaml');

export function factCorpus(): Corpus {
  return parse(readFileSync(CORPUS, 'utf8')) as Corpus;
}

/** The site's facts as the site check would keep them, each read from the home page's text. */
export function businessFacts(business: CorpusBusiness): BusinessFacts {
  const facts = (values: string[]): SiteFact[] => values.map((value) => ({ value, source: { page: 'home page', from: 'text' } }));
  return {
    phones: facts(business.facts.phones),
    emails: facts(business.facts.emails),
    addresses: facts(business.facts.addresses),
    postcodes: facts(business.facts.postcodes),
    towns: facts(business.facts.towns),
    openingHours: facts(business.facts.openingHours),
    services: facts(business.facts.services),
    contactPage: null,
    text: business.siteText,
  };
}

/** What the facts check finds in one answer of the set. */
export function checkCorpusAnswer(answer: CorpusAnswer, business: CorpusBusiness): FactCheck {
  return checkFacts({ text: answer.text, sources: answer.sources ?? [] }, { brand: business.name, domain: business.site, facts: businessFacts(business) }, { aboutTheBusiness: answer.about });
}

/** A fact as a reader compares it: a number as a number, an address by its host, a closure by its kind alone. */
export function comparedFact(fact: LabelledFact): string {
  const compared = { phone: phoneValue, email: emailValue, postcode: postcodeValue, website: hostOf, closed: () => 'closed' }[fact.kind](fact.said);
  return `${fact.kind} ${compared ?? fact.said}`;
}

export interface FactMiss {
  id: string;
  /** missed: a labelled wrong fact the check did not find; wrongly found: a finding no label has. */
  miss: 'missed' | 'wrongly found';
  kind: FactKind;
  said: string;
  quote: string | null;
}

export interface AnswerResult {
  answer: CorpusAnswer;
  check: FactCheck;
  /** Labelled wrong facts found, and findings no label has, and labels not found. */
  found: number;
  misses: FactMiss[];
}

export function scoreFactCorpus() {
  const corpus = factCorpus();
  const businesses = new Map(corpus.businesses.map((business) => [business.id, business]));
  const results: AnswerResult[] = [];
  for (const answer of corpus.answers) {
    const business = businesses.get(answer.business);
    if (!business) throw new Error(`${answer.id}: no business ${answer.business}`);
    const check = checkCorpusAnswer(answer, business);
    const labelled = new Set(answer.wrong.map(comparedFact));
    const foundKeys = new Set(check.wrong.map(comparedFact));
    const misses: FactMiss[] = [
      ...answer.wrong.filter((fact) => !foundKeys.has(comparedFact(fact))).map((fact) => ({ id: answer.id, miss: 'missed' as const, kind: fact.kind, said: fact.said, quote: null })),
      ...check.wrong.filter((finding) => !labelled.has(comparedFact(finding))).map((finding) => ({ id: answer.id, miss: 'wrongly found' as const, kind: finding.kind, said: finding.said, quote: finding.quote })),
    ];
    results.push({ answer, check, found: check.wrong.filter((finding) => labelled.has(comparedFact(finding))).length, misses });
  }
  const labelled = results.reduce((sum, result) => sum + result.answer.wrong.length, 0);
  const truePositives = results.reduce((sum, result) => sum + result.found, 0);
  const findings = results.reduce((sum, result) => sum + result.check.wrong.length, 0);
  return {
    answers: results.length,
    results,
    labelled,
    findings,
    truePositives,
    /** Of the findings, the share a careful reader labelled wrong (1 with none). */
    precision: findings === 0 ? 1 : truePositives / findings,
    /** Of the labelled wrong facts, the share found (1 with none). */
    recall: labelled === 0 ? 1 : truePositives / labelled,
    misses: results.flatMap((result) => result.misses),
  };
}
