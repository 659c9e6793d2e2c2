import { auditReport } from '../../../shared/generated/audit-report';
import { checkFacts } from '../../answer-check/fact-check';
import { TONES, type Tone } from '../../answer-check/verdicts';
import type { BusinessFacts } from '../../business/business-facts';
import { findName, nameKey } from '../../business/names';
import { ASSISTANTS } from '../../visibility-probe/assistant-catalogue';
import type { AssistantReport, ProbeAnswer, ProbeReport } from '../../visibility-probe/probe-report';
import type { FactAlarm } from '../run-outcome';
import type { AssistantSays, WhatTheySay, WrongFact, WrongFactKind } from './audit-document';

/**
 * What the assistants tell a buyer about the business, for the report's section and its findings:
 * per assistant, its answers to the direct questions about the business and its other answers
 * that name it; the contact facts in them compared exactly with what the business's own site
 * states (checkFacts), and the judge's verdicts on the sample it read (kept on each answer, their
 * quotes already checked). Pure: the answers and the facts in, plain data out.
 */

/** The order a table lists wrong facts in: what stops a buyer reaching the business first. */
const KIND_ORDER: readonly WrongFactKind[] = ['closed', 'phone', 'email', 'website', 'postcode', 'status', 'place', 'service', 'price'];

/** A sentence kept as a description: long enough to say something, short enough to quote. */
const DESCRIPTION_LIMITS = { shortest: 20, longest: 300 };

/** Markdown's marks around a sentence an answer wrote (emphasis, headings, a list's bullet or number, links' brackets), for showing it. */
function plainSentence(sentence: string): string {
  return sentence
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/[*_`#]+/g, '')
    .replace(/^\s*(?:[-+•]|\d{1,2}[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The sentences of an answer, each as written: split at a full stop, question or exclamation mark before a space, and at line ends. */
function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
}

/** A sentence giving a way to reach the business (a number, an e-mail or a web address): contact details, not a description. */
const CONTACT_DETAILS = /\d[\d ()-]{5,}\d|@|https?:\/\/|www\.|\.co\.uk\b|\.com\b/i;

/**
 * How an assistant describes the business: the first sentence of these answers (its direct ones
 * first) that names it and gives no contact detail, as it wrote it but for Markdown's marks.
 */
function describingSentence(answers: readonly ProbeAnswer[], brand: string | null): string | null {
  if (brand === null) return null;
  const key = nameKey(brand);
  for (const answer of answers) {
    for (const sentence of sentencesOf(answer.text ?? '')) {
      // A sentence longer than a quote is left whole, never cut: it is not quoted at all.
      if (sentence.length > DESCRIPTION_LIMITS.longest * 2) continue;
      const plain = plainSentence(sentence);
      if (plain.length >= DESCRIPTION_LIMITS.shortest && plain.length <= DESCRIPTION_LIMITS.longest && findName(plain, key) !== -1 && !CONTACT_DETAILS.test(plain)) return plain;
    }
  }
  return null;
}

const answered = (answer: ProbeAnswer) => answer.error === null && answer.text !== null;

/** The answers of one assistant that speak of the business: its direct answers first, then the others that name it. */
function answersAbout(part: AssistantReport): { answer: ProbeAnswer; about: boolean }[] {
  return [...(part.aboutAnswers ?? []).filter(answered).map((answer) => ({ answer, about: true })), ...part.answers.filter((answer) => answered(answer) && answer.named).map((answer) => ({ answer, about: false }))];
}

function assistantSays(part: AssistantReport, brand: string | null, domain: string | null, facts: BusinessFacts | null): { says: AssistantSays; dropped: number; judge: string | null } {
  const about = answersAbout(part);
  const tone = Object.fromEntries(TONES.map((value) => [value, 0])) as Record<Tone, number>;
  // One row per fact, however many answers gave it: a contact fact keyed by what was said, a claim by its sentence.
  const wrong = new Map<string, WrongFact>();
  /** The sentences already shown as a wrong contact fact: not shown again as a claim. */
  const quoted = new Set<string>();
  const sentenceKey = (sentence: string) => plainSentence(sentence).toLowerCase();
  let judged = 0;
  let dropped = 0;
  let judge: string | null = null;
  for (const { answer, about: direct } of about) {
    if (facts !== null) {
      for (const finding of checkFacts({ text: answer.text ?? '', sources: answer.sources }, { brand, domain, facts }, { aboutTheBusiness: direct }).wrong) {
        const key = `${finding.kind} ${finding.said.toLowerCase()}`;
        if (!wrong.has(key)) wrong.set(key, { kind: finding.kind, said: finding.kind === 'closed' ? null : finding.said, says: finding.quote, siteSays: finding.siteSays, whose: finding.whose, by: 'compared' });
        quoted.add(sentenceKey(finding.quote));
      }
    }
    const judgement = answer.judgement;
    if (judgement === undefined || 'error' in judgement) continue;
    judged += 1;
    dropped += judgement.dropped;
    judge ??= judgement.model;
    if (judgement.tone !== null) tone[judgement.tone.value] += 1;
    for (const claim of judgement.claims) {
      if (claim.verdict !== 'contradicted') continue;
      const key = `${claim.about} ${sentenceKey(claim.quote)}`;
      if (quoted.has(sentenceKey(claim.quote)) || wrong.has(key)) continue;
      wrong.set(key, { kind: claim.about, said: null, says: claim.quote, siteSays: claim.siteQuote, whose: null, by: 'judge' });
    }
  }
  const describes = describingSentence(
    about.map(({ answer }) => answer),
    brand,
  );
  const ordered = [...wrong.values()].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return {
    says: { assistant: part.id, label: ASSISTANTS[part.id].label, describes, answers: about.length, judged, tone, wrong: ordered },
    dropped,
    judge,
  };
}

/** Where the site's facts were read, as the report says it. */
function factsSource(facts: BusinessFacts): string {
  return facts.contactPage === null ? 'home page' : 'home page and contact page';
}

/**
 * The section's data: null for a run that asked no direct question and judged no answer (a report
 * made before either, or with AUDIT_FACT_PROMPTS=0 and no judge), which then has no such section.
 */
export function whatTheySay(probe: ProbeReport, facts: BusinessFacts | null): WhatTheySay | null {
  const questions = probe.aboutPrompts ?? [];
  const anyJudged = probe.assistants.some((part) => [...part.answers, ...(part.aboutAnswers ?? [])].some((answer) => answer.judgement !== undefined));
  if (questions.length === 0 && !anyJudged) return null;
  const parts = probe.assistants.map((part) => assistantSays(part, probe.brand, probe.domain, facts));
  return {
    questions,
    factsFrom: facts === null ? null : factsSource(facts),
    judge: parts.find((part) => part.judge !== null)?.judge ?? null,
    dropped: parts.reduce((sum, part) => sum + part.dropped, 0),
    assistants: parts.map((part) => part.says),
  };
}

/** What the agency's mail leads with: the first assistant that says the business has closed, else the first that gives a wrong phone number. */
export function factAlarm(said: WhatTheySay | undefined): FactAlarm | null {
  for (const kind of ['closed', 'phone'] as const) {
    for (const part of said?.assistants ?? []) {
      const fact = part.wrong.find((wrong) => wrong.kind === kind || (kind === 'closed' && wrong.kind === 'status' && /\bclosed\b/i.test(wrong.says)));
      if (fact) return { assistant: part.label, kind, says: plainSentence(fact.says), siteSays: fact.siteSays };
    }
  }
  return null;
}

/** "phone number and postcode": what a list of wrong facts is about, in the report's words. */
export function topicsOf(kinds: readonly WrongFactKind[]): string[] {
  return [...new Set(kinds)].map((kind) => auditReport.factTopics[kind]);
}
