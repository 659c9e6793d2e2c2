import type { BusinessFacts, SiteFact } from '../business/business-facts';
import { isOwnAddress } from '../business/names';
import { MAX_ANSWER_CHARACTERS } from '../visibility-probe/call-limits';
import type { BusinessIdentity, CitedSource } from '../visibility-probe/who-is-named';
import { isListing, nameForAddress, readParts, type AnswerParts } from './answer-parts';
import { addressesIn, closuresIn, emailValue, inside, linksIn, phonesIn, phoneValue, postcodesIn, postcodeValue, type FactKind, type WrittenFact } from './written-facts';

/**
 * The facts check: the contact facts an assistant's answer gets wrong about a business (a
 * telephone number, an e-mail address, a postcode, a web address that is not its own, or that it
 * has closed), against what the business's own site states, and the ones it gets right. It
 * guesses nothing: a fact counts only where the answer plainly gives it for the business
 * (answer-parts.ts), and only against a fact of the same kind the site gives. No model is asked
 * and nothing is fetched; docs/answer-facts.md says what it reads and how well.
 */

export type { FactKind } from './written-facts';

export interface FactFinding {
  kind: FactKind;
  /** What the assistant wrote, as written ("0113 496 0000", "info@acme.co.uk", "pipepros.co.uk"). */
  said: string;
  /** The sentence (or list line) of the answer it stands in, word for word as the answer has it: the evidence shown to the business owner. */
  quote: string;
  /** What the business's own site gives for this kind, as the site writes it ("+44 113 496 0001"); null when the site gives none (a 'website' finding: the site's own address is put here). */
  siteSays: string | null;
  /** For 'website': the business the address belongs to when the answer says (a competitor's name), else null. */
  whose: string | null;
}

export interface FactCheck {
  wrong: FactFinding[];
  right: { kind: FactKind; said: string }[];
}

interface CheckedBusiness extends BusinessIdentity {
  facts: BusinessFacts;
}

/** Findings kept of one answer, wrong and right each: a real answer gives a handful of contact facts. */
export const MOST_FINDINGS = 20;

/** The longest quote shown: a longer sentence is quoted as the words around the fact, still word for word. */
export const LONGEST_QUOTE = 300;

/** The site's facts of one kind, each as compared, with what the site writes. */
interface SiteValues {
  values: Set<string>;
  /** As the site writes them, joined: what a finding shows beside the answer's. */
  written: string | null;
}

function siteValues(facts: readonly SiteFact[], compared: (written: string) => string | null): SiteValues {
  const values = new Set<string>();
  const written: string[] = [];
  for (const fact of facts) {
    const value = compared(fact.value);
    if (value === null || values.has(value)) continue;
    values.add(value);
    written.push(fact.value.trim());
  }
  return { values, written: written.length > 0 ? written.join(' or ') : null };
}

/**
 * The words of the sentence around [at, end), word for word: the whole sentence when it is short
 * enough, else a window of whole words around the fact (nothing added: the quote must be found in
 * the answer as it is).
 */
function quoteOf(text: string, parts: AnswerParts, at: number, end: number): string {
  const sentence = parts.sentenceAround(at, end);
  const whole = text.slice(sentence.start, sentence.end).trim();
  if (whole.length <= LONGEST_QUOTE) return whole;
  const room = Math.max(0, LONGEST_QUOTE - (end - at));
  let start = Math.max(sentence.start, at - Math.floor(room / 2));
  let stop = Math.min(sentence.end, start + (end - at) + room);
  start = Math.max(sentence.start, stop - LONGEST_QUOTE);
  // Whole words only: start after a space, stop before one (never inside the fact).
  if (start > sentence.start) {
    const space = text.indexOf(' ', start);
    start = space !== -1 && space < at ? space + 1 : at;
  }
  if (stop < sentence.end) {
    const space = text.lastIndexOf(' ', stop);
    stop = space > end ? space : end;
  }
  return text.slice(start, stop).trim();
}

/** Words of the business's own facts: its towns, streets and services name no other business when they stand capitalised in an answer. */
function ownWords(facts: BusinessFacts): string[] {
  return [...facts.towns, ...facts.addresses, ...facts.services, ...facts.openingHours].map((fact) => fact.value);
}

/**
 * The contact facts an answer gets wrong about the business, and right. `aboutTheBusiness`: the
 * answer was to a direct question about it (all of the answer speaks of it, but the entries that
 * lead with another business); otherwise only the parts that name it are read.
 */
export function checkFacts(answer: { text: string; sources: readonly CitedSource[] }, business: CheckedBusiness, options: { aboutTheBusiness?: boolean } = {}): FactCheck {
  const text = answer.text.slice(0, MAX_ANSWER_CHARACTERS);
  const site = business.domain;
  const links = linksIn(text);
  const citations = links.filter((link) => link.citation);
  const addresses = addressesIn(text, citations);
  const webAddresses = addresses.filter((fact) => fact.kind === 'website');
  const parts = readParts(
    text,
    business,
    options.aboutTheBusiness === true,
    webAddresses.map((fact) => ({ at: fact.at, end: fact.end, said: fact.said, listing: isListing(fact.said) })),
    ownWords(business.facts),
  );

  const urls = webAddresses.filter((fact) => /^(?:https?:\/\/|www\.)/i.test(fact.said));
  const outsideAddresses = (fact: WrittenFact) => !inside(citations, fact.at, fact.end) && !inside(urls, fact.at, fact.end);
  const written = [
    ...phonesIn(text).filter(outsideAddresses),
    ...addresses,
    ...postcodesIn(text).filter(outsideAddresses),
    ...closuresIn(text, parts.sentenceStart),
  ].sort((a, b) => a.at - b.at);

  const ownFacts = {
    phone: siteValues(business.facts.phones, phoneValue),
    email: siteValues(business.facts.emails, emailValue),
    postcode: siteValues(business.facts.postcodes, postcodeValue),
  };

  // Who the answer gives each other site for: where it stands in another's entry, or the name it spells.
  const othersSite = new Map<string, string>();
  for (const fact of webAddresses) {
    const whose = parts.whoseAt(fact.at);
    if (whose.owner === 'other' && whose.name !== null && !othersSite.has(fact.value)) othersSite.set(fact.value, whose.name);
  }

  const wrong: FactFinding[] = [];
  const right: { kind: FactKind; said: string }[] = [];
  const seen = new Set<string>();
  for (const fact of written) {
    if (wrong.length >= MOST_FINDINGS && right.length >= MOST_FINDINGS) break;
    if (parts.whoseAt(fact.at).owner !== 'business') continue;
    const verdict = judged(fact);
    if (verdict === null) continue;
    const key = `${verdict.right ? 'right' : 'wrong'} ${fact.kind} ${fact.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (verdict.right) {
      if (right.length < MOST_FINDINGS) right.push({ kind: fact.kind, said: fact.said });
    } else if (wrong.length < MOST_FINDINGS) {
      wrong.push({ kind: fact.kind, said: fact.said, quote: quoteOf(text, parts, fact.at, fact.end), siteSays: verdict.siteSays, whose: verdict.whose });
    }
  }
  return { wrong, right };

  /** Whether a fact the answer gives for the business is right, wrong (with what the site says), or cannot be told (null). */
  function judged(fact: WrittenFact): { right: true } | { right: false; siteSays: string | null; whose: string | null } | null {
    switch (fact.kind) {
      case 'phone':
      case 'email':
      case 'postcode': {
        // Only against a fact of the same kind the site gives: with none, the answer cannot be told wrong.
        const own = ownFacts[fact.kind];
        if (own.values.size === 0) return null;
        return own.values.has(fact.value) ? { right: true } : { right: false, siteSays: own.written, whose: null };
      }
      case 'website': {
        if (site === null) return null;
        if (isOwnAddress(fact.said, site)) return { right: true };
        // The business's page on a platform or directory is a page about it, not a wrong site.
        if (isListing(fact.said)) return null;
        return { right: false, siteSays: site, whose: othersSite.get(fact.value) ?? nameForAddress(fact.said, parts.otherNames) };
      }
      case 'closed':
        return { right: false, siteSays: null, whose: null };
    }
  }
}
