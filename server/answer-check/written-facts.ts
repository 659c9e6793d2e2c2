import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import { hostOf } from '../business/names';

/**
 * The contact facts an assistant's answer writes, each where it stands in the text: telephone
 * numbers, e-mail addresses, web addresses, UK postcodes, and the words that say a business has
 * closed for good. Whose each one is, is for answer-parts.ts to say; what is right, fact-check.ts.
 * An answer is untrusted text: every step here is linear in it, and no pattern can backtrack
 * over a run of characters (trailing punctuation is cut by hand, as who-is-named.ts does).
 */

export type FactKind = 'phone' | 'email' | 'postcode' | 'website' | 'closed';

/** A fact as the answer writes it. */
export interface WrittenFact {
  kind: FactKind;
  /** As written ("0113 496 0000", "Info@Acme.co.uk"). */
  said: string;
  /** As compared: E.164 for a phone, lower case for an e-mail, "LS1 4AP" for a postcode, the host for a web address, the phrase for a closure. */
  value: string;
  /** Where it is written in the text: [at, end). */
  at: number;
  end: number;
}

/**
 * Facts read from one answer, at most: an answer asked for a few hundred words gives a handful,
 * so a text with more is a list or an attack, and the first ones are enough to judge it.
 */
const MOST_FACTS_READ = 200;

// ---------------------------------------------------------------------------------------------
// Telephone numbers
// ---------------------------------------------------------------------------------------------

/** A numbered citation's mark, as Perplexity writes it after a sentence or a fact: "[1]". */
const CITATION_MARK = /\[\d{1,3}\]/g;

/** Invalid numbers libphonenumber tries before it gives up on a text: a long run of digits must not be tried at every place. */
const MOST_NUMBER_TRIES = 100;

/**
 * The telephone numbers a text writes, as libphonenumber finds them (UK by default: "0113 496
 * 0000", "(0113) 4960000", "+44 (0)113 496 0000", "0113.496.0000", with "ext. 12"). A number
 * is kept when libphonenumber knows it as a valid number, or when it has the UK's full national
 * length and starts as UK numbers do: a range it does not know as allocated (newly opened, or
 * kept for drama, as 07700 900xxx is) is still a number the answer tells people to call. Years,
 * prices and company numbers are none of these.
 */
export function phonesIn(text: string): WrittenFact[] {
  const options = { defaultCountry: 'GB' as const, extended: true, maxTries: MOST_NUMBER_TRIES };
  const found: WrittenFact[] = [];
  // Perplexity's citation marks ("0117 496 0456[2]") would be read as more digits of the number,
  // and a comma, semicolon or hash before the next number ("0113 496 0123, 07700 900412") as the
  // start of an extension: each is replaced, character for character, so that offsets stay those
  // of the text.
  const unmarked = text.replace(CITATION_MARK, (mark) => ' '.repeat(mark.length)).replace(/[,;#]/g, '|');
  for (const match of findPhoneNumbersInText(unmarked, options)) {
    const number = match.number;
    const ukShaped = number.countryCallingCode === '44' && /^[1-37-9]\d{9}$/.test(number.nationalNumber) && number.isPossible();
    if (!number.isValid() && !ukShaped) continue;
    // "(0113 496 0000)": the bracket is the sentence's, not the number's.
    let at = match.startsAt;
    let end = match.endsAt;
    const said = text.slice(at, end);
    if (said.startsWith('(') && !said.includes(')')) at += 1;
    if (said.endsWith(')') && !said.includes('(')) end -= 1;
    found.push({ kind: 'phone', said: text.slice(at, end), value: number.number, at, end });
    if (found.length >= MOST_FACTS_READ) break;
  }
  return found;
}

/** A number as the site writes it, compared as the answer's are (E.164); null when it is none. */
export function phoneValue(written: string): string | null {
  return phonesIn(written.slice(0, 200))[0]?.value ?? null;
}

// ---------------------------------------------------------------------------------------------
// E-mail and web addresses
// ---------------------------------------------------------------------------------------------

/** What ends a word that may be an address: a space, a bracket, a quote, a comma, a pipe. */
const DELIMITER = /[\s<>()[\]{}"'`|,;]/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

interface Token {
  text: string;
  at: number;
}

/** The text's words as addresses are looked for in them, without the punctuation and Markdown around them. */
function tokens(text: string): Token[] {
  const found: Token[] = [];
  let start = -1;
  for (let index = 0; index <= text.length; index += 1) {
    const ends = index === text.length || DELIMITER.test(text.charAt(index));
    if (!ends) {
      if (start === -1) start = index;
      continue;
    }
    if (start === -1) continue;
    // Cut by hand from both ends: "**info@acme.co.uk**.", "(acme.co.uk)".
    let from = start;
    let to = index;
    while (from < to && !LETTER_OR_DIGIT.test(text.charAt(from))) from += 1;
    while (to > from && !LETTER_OR_DIGIT.test(text.charAt(to - 1))) to -= 1;
    if (to > from) found.push({ text: text.slice(from, to), at: from });
    start = -1;
  }
  return found;
}

/** Endings of the domains a UK answer writes without "www." or a scheme; a word with a dot ("Node.js", "e.g.", "St.Albans") is no address. */
const BARE_ENDINGS = new Set(['uk', 'com', 'org', 'net', 'io', 'ai', 'co', 'biz', 'info', 'eu', 'ie', 'london', 'scot', 'wales', 'cymru', 'app', 'dev', 'shop', 'online', 'agency', 'page', 'gl', 'me', 'ee', 'studio', 'salon', 'dental', 'cafe', 'law', 'legal', 'business']);

const LABEL = /^[a-z0-9-]{1,63}$/i;

/** Whether a host is a domain name: labels of letters, digits and hyphens, and a last one of letters. */
function isDomain(host: string, bare: boolean): boolean {
  if (host.length > 253) return false;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label) && !label.startsWith('-') && !label.endsWith('-'))) return false;
  const ending = labels.at(-1) ?? '';
  if (!/^[a-z]{2,24}$/i.test(ending)) return false;
  return !bare || (BARE_ENDINGS.has(ending.toLowerCase()) && /[a-z]/i.test(labels[0] ?? ''));
}

const LOCAL_PART = /^[a-z0-9._%+-]{1,64}$/i;

/** An e-mail address a token is, in lower case; null when it is none. */
function emailOf(token: string): string | null {
  const written = token.toLowerCase().startsWith('mailto:') ? token.slice('mailto:'.length) : token;
  const at = written.indexOf('@');
  if (at <= 0 || written.indexOf('@', at + 1) !== -1) return null;
  const local = written.slice(0, at);
  if (!LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.')) return null;
  return isDomain(written.slice(at + 1), false) ? written.toLowerCase() : null;
}

/** The host of a web address a token is ("https://www.acme.co.uk/x", "www.acme.co.uk", "acme.co.uk/contact"); null when it is none. */
function webHostOf(token: string): string | null {
  if (token.includes('@')) return null;
  const scheme = /^https?:\/\//i.test(token);
  const bare = !scheme && !/^www\./i.test(token);
  if (/^[a-z][a-z0-9+.-]*:/i.test(token) && !scheme) return null;
  const slash = token.indexOf('/', scheme ? token.indexOf('//') + 2 : 0);
  const host = token.slice(scheme ? token.indexOf('//') + 2 : 0, slash === -1 ? token.length : slash);
  if (!isDomain(host.replace(/:\d{1,5}$/, ''), bare)) return null;
  return hostOf(token);
}

/** Where the text holds a Markdown link: its span, and whether it is a citation. */
interface Link {
  at: number;
  end: number;
  citation: boolean;
}

// Each part stops at the next bracket, so a match is tried from each "[" only up to the next one: linear.
const MARKDOWN_LINK = /\[[^[\]\n]{1,300}\]\(([^()\s]{1,2048})\)/g;

/**
 * The text's Markdown links, and which are citations: where the assistant read something
 * ("([acme.co.uk](https://acme.co.uk/?utm_source=openai))", as ChatGPT cites), not an address it
 * gives people to visit. A citation's address is not a contact fact.
 */
export function linksIn(text: string): Link[] {
  const links: Link[] = [];
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const at = match.index;
    const end = at + match[0].length;
    const wrapped = text.charAt(at - 1) === '(' && text.charAt(end) === ')';
    links.push({ at, end, citation: wrapped || (match[1] ?? '').includes('utm_source=') });
  }
  return links;
}

/** Whether [at, end) lies inside one of the spans. */
export function inside(spans: readonly { at: number; end: number }[], at: number, end: number): boolean {
  return spans.some((span) => at >= span.at && end <= span.end);
}

/**
 * The longest e-mail or web address read, in characters: an address given to people is short, and
 * a finding quotes the sentence around it (fact-check.ts's LONGEST_QUOTE); an e-mail address has
 * at most 254 characters.
 */
const LONGEST_ADDRESS = 254;

/** The e-mail and web addresses the text writes, outside citations. */
export function addressesIn(text: string, citations: readonly Link[]): WrittenFact[] {
  const found: WrittenFact[] = [];
  for (const token of tokens(text)) {
    if (found.length >= MOST_FACTS_READ) break;
    const end = token.at + token.text.length;
    if (!token.text.includes('.') || token.text.length > LONGEST_ADDRESS || inside(citations, token.at, end)) continue;
    const email = emailOf(token.text);
    if (email !== null) {
      const at = token.text.toLowerCase().startsWith('mailto:') ? token.at + 'mailto:'.length : token.at;
      found.push({ kind: 'email', said: text.slice(at, end), value: email, at, end });
      continue;
    }
    const host = webHostOf(token.text);
    if (host !== null) found.push({ kind: 'website', said: token.text, value: host, at: token.at, end });
  }
  return found;
}

/** An e-mail address as compared: lower case; null when it is none. */
export function emailValue(written: string): string | null {
  return emailOf(written.trim());
}

// ---------------------------------------------------------------------------------------------
// Postcodes
// ---------------------------------------------------------------------------------------------

/** The UK's postcode areas: the letters a postcode starts with. */
const POSTCODE_AREAS = new Set(
  (
    'AB AL B BA BB BD BH BL BN BR BS BT CA CB CF CH CM CO CR CT CV CW DA DD DE DG DH DL DN DT DY E EC EH EN EX FK FY G GL GU ' +
    'GY HA HD HG HP HR HS HU HX IG IM IP IV JE KA KT KW KY L LA LD LE LL LN LS LU M ME MK ML N NE NG NN NP NR NW OL OX PA PE ' +
    'PH PL PO PR RG RH RM S SA SE SG SK SL SM SN SO SP SR SS ST SW SY TA TD TF TN TQ TR TS TW UB W WA WC WD WF WN WR WS WV YO ZE'
  ).split(' '),
);

// Outward code, an optional space, inward code: each part a fixed few characters, so a match is
// tried for at most eight characters from each word's start.
const POSTCODE = /\b([A-Z]{1,2})(\d[A-Z\d]?) ?(\d[A-Z]{2})\b/g;

/**
 * The UK postcodes a text writes, in capitals as assistants write them ("LS1 4AP", "LS14AP"),
 * each compared as "LS1 4AP"; the area must be a real one ("XX1 2YY" is none).
 */
export function postcodesIn(text: string): WrittenFact[] {
  const found: WrittenFact[] = [];
  for (const match of text.matchAll(POSTCODE)) {
    const [written, area = '', district = '', inward = ''] = match;
    if (!POSTCODE_AREAS.has(area)) continue;
    found.push({ kind: 'postcode', said: written, value: `${area}${district} ${inward}`, at: match.index, end: match.index + written.length });
    if (found.length >= MOST_FACTS_READ) break;
  }
  return found;
}

/** A postcode as the site writes it, in any case and spacing ("ls14ap"), as compared ("LS1 4AP"); null when it is none. */
export function postcodeValue(written: string): string | null {
  const compact = written.replace(/\s/g, '').toUpperCase();
  if (compact.length < 5 || compact.length > 7) return null;
  return postcodesIn(`${compact.slice(0, -3)} ${compact.slice(-3)}`)[0]?.value ?? null;
}

// ---------------------------------------------------------------------------------------------
// Closed for good
// ---------------------------------------------------------------------------------------------

/**
 * What an answer writes when it says a business no longer trades. Opening hours ("closed on
 * Sundays", "closed for lunch") and a pause ("temporarily closed") are not here. A phrase marked
 * `alone` counts only where its clause ends with it ("Acme has closed.", not "has closed for the
 * holidays").
 */
const CLOSED_PHRASES: readonly { phrase: string; alone?: boolean }[] = [
  { phrase: 'permanently closed' },
  { phrase: 'closed permanently' },
  { phrase: 'closed down' },
  { phrase: 'closed for good' },
  { phrase: 'closed its doors' },
  { phrase: 'shut down for good' },
  { phrase: 'shut for good' },
  { phrase: 'no longer trading' },
  { phrase: 'no longer trades' },
  { phrase: 'ceased trading' },
  { phrase: 'stopped trading' },
  { phrase: 'no longer in business' },
  { phrase: 'out of business' },
  { phrase: 'no longer operating' },
  { phrase: 'no longer operates' },
  { phrase: 'went into liquidation' },
  { phrase: 'gone into liquidation' },
  { phrase: 'went into administration' },
  { phrase: 'gone into administration' },
  { phrase: 'has closed', alone: true },
  { phrase: 'have closed', alone: true },
  { phrase: 'has now closed', alone: true },
  { phrase: 'has shut down', alone: true },
];

/**
 * Words before a phrase, in its clause, that deny it or call it wrong ("is not permanently
 * closed", "hasn't closed down", "wrongly listed as closed down"); a denial in another clause of
 * the sentence ("I couldn't find reviews — it has closed down") does not take it back.
 */
const DENIALS = /\b(?:not|never|no sign|no evidence|no indication|no record|wrongly|incorrectly|mistakenly|outdated|out of date|rumou?rs?|once|previously|if|whether)\b|n['\u2019]t\b/;
/** Words after a phrase, in its sentence, that say the business trades all the same ("…as permanently closed, but it is still trading"). */
const CONTRAST = /\b(?:but|however|though|although|yet|whereas)\b/;
const TRADING = /\b(?:open|opens|reopened|operating|trading|running|in business|still)\b/;

/** Whether the rest of a sentence takes a closure back: a contrast, then words that say it trades. */
function takenBack(rest: string): boolean {
  const contrast = rest.search(CONTRAST);
  return contrast !== -1 && TRADING.test(rest.slice(contrast));
}

/** The rest of the sentence after an offset, at most 160 characters: up to a full stop, a question or exclamation mark and a space, or the line's end. */
function restOfSentence(lower: string, at: number): string {
  const rest = lower.slice(at, at + 160);
  const end = rest.search(/[.!?](?:\s|$)|\n/);
  return end === -1 ? rest : rest.slice(0, end);
}
/** What ends a clause: a comma, a semicolon, a colon, a dash, a bracket. */
const CLAUSE_END = /[,;:()\u2013\u2014]/;

/** Where the clause holding an offset starts, within its sentence and at most 80 characters back. */
function clauseStart(text: string, at: number, sentenceStart: number): number {
  const limit = Math.max(sentenceStart, at - 80);
  let start = at;
  while (start > limit && !CLAUSE_END.test(text.charAt(start - 1))) start -= 1;
  return start;
}

/** ASCII letters in lower case, one character for one: offsets in the text stay the same. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * Where the text says a business has closed for good. `sentenceStart` gives where the sentence
 * holding an offset starts: a denial before the phrase in that sentence takes it back.
 */
export function closuresIn(text: string, sentenceStart: (at: number) => number): WrittenFact[] {
  const lower = asciiLower(text);
  const found: WrittenFact[] = [];
  for (const { phrase, alone } of CLOSED_PHRASES) {
    for (let at = lower.indexOf(phrase); at !== -1 && found.length < MOST_FACTS_READ; at = lower.indexOf(phrase, at + 1)) {
      const end = at + phrase.length;
      if (WORD_CHARACTER.test(text.charAt(at - 1)) || WORD_CHARACTER.test(text.charAt(end))) continue;
      if (alone && !/^(?:[*_]{0,2}(?:[.,;:!)\n]|$)| and\b| since\b| in \d)/.test(text.slice(end, end + 8))) continue;
      if (found.some((other) => at < other.end && end > other.at)) continue;
      if (DENIALS.test(lower.slice(clauseStart(text, at, sentenceStart(at)), at)) || takenBack(restOfSentence(lower, end))) continue;
      found.push({ kind: 'closed', said: text.slice(at, end), value: phrase, at, end });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}
