import { auditSources } from '../../shared/generated/audit-sources';
import { probePlatforms } from '../../shared/generated/probe-platforms';
import { hostOf, isOwnAddress, JOINING_WORDS, nameKey, siteLabel } from '../business/names';
import { isSearchPhrase } from '../business/search-words';
import { namesInText, type BusinessIdentity } from '../visibility-probe/who-is-named';

/**
 * Whose each place of an assistant's answer speaks of: the business, another business, or no one
 * the answer makes plain. An answer sets its businesses out as entries (a numbered list with bold
 * names, "### 1. Name" headings with paragraphs under them, Gemini's bold lines with bullets under
 * them, paragraphs that lead with a name), and a sentence may name two ("Acme (0113 …) and Pipe
 * Pros (0113 …)"). A contact fact is only ever the business's where the answer plainly gives it
 * for the business: a fact in a competitor's entry is the competitor's, whatever else that entry
 * says, and a fact whose owner the answer leaves unclear is no one's. Every step is linear in the
 * text (an answer is untrusted, as long as its cap allows).
 */

type Owner = 'business' | 'other' | 'nobody';

interface Whose {
  owner: Owner;
  /** The other business's name as the answer writes it, when the answer says whose ("Pipe Pros Leeds"); else null. */
  name: string | null;
}

export interface AnswerParts {
  /** Whose a fact written at this offset is. */
  whoseAt(at: number): Whose;
  /** Where the sentence (or list line, without its marker) holding [at, end) starts and ends. */
  sentenceAround(at: number, end: number): { start: number; end: number };
  /** Where the sentence holding an offset starts. */
  sentenceStart(at: number): number;
  /** The other businesses the answer names (set out in list items, headings, bold or links, or only a capitalised run of words), as written, by their key (nameKey). */
  otherNames: ReadonlyMap<string, string>;
}

/** A web address the answer writes, outside citations: the business's own site names it, another's names another. */
interface AddressMention {
  at: number;
  end: number;
  /** As written. */
  said: string;
  /** A directory's, a platform's or a register's page: names no one. */
  listing: boolean;
}

/**
 * Words that make a bold lead or a heading a label, not a business ("**Contact details:**",
 * "### Opening hours", "**Key features**", "- Call 0113 …"), beside the places, trades and
 * descriptions a name is never made only of (search-words.ts).
 */
const LABEL_WORDS: ReadonlySet<string> = new Set(
  (
    'about address addresses also alternative alternatives appointment appointments area areas at availability available based before best book ' +
    'booking bottom call calls check choose considerations consider contact contacts cost costs coverage covered customer customers detail details ' +
    'directions do does e email emails experience facts features feedback fees final find for general getting glance go highlights hours how important ' +
    'info information is it key know line location locations mail map menu mobile more my need nearby next note notes number numbers offer offered ' +
    'offers online open opening option options other our overview parking people phone popular price prices pricing pros cons quick quote quotes range ' +
    'rated rating ratings recommendation recommendations reputation review reviews said say service services similar site social sources specialist ' +
    'specialities specialties step steps strengths summary tel telephone their them there they things thoughts times tip tips top verdict visit web ' +
    'website weaknesses what when where which who why worth you your freephone landline whatsapp text sms fax enquiries enquiry bookings ' +
    'reception emergencies emergency overall positives negatives office head main nearest station hire'
  ).split(' '),
);

/** Words that open a sentence, or sit in one, without naming anyone: a capitalised run made with them names no business. */
const PLAIN_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the this that these those its he she we us i if in on at to for from by with as so but and or also however alternatively otherwise ' +
    'please note according although though while when whether unlike like both either neither each many most some several other another ' +
    'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun january february march april may june ' +
    'july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec bank holiday holidays christmas easter new ' +
    'year uk gb nhs gdc sra vat hmrc mot google maps facebook instagram yell checkatrade trustpilot tripadvisor which trusted trader traders ' +
    'approved registered certified accredited member award awards winning family run local independent free street road lane avenue square ' +
    'office team chatgpt claude gemini perplexity ai'
  ).split(' '),
);

/**
 * Hosts of pages about businesses rather than a business's own site, beyond the platforms
 * (content/probe-platforms.yaml) and the directories, review sites, press and forums
 * (content/audit-sources.yaml): registers, maps, booking and delivery platforms. A business's
 * page on one of them, given as its website, is not a wrong address.
 */
const LISTING_HOSTS: readonly string[] = [
  ...probePlatforms.platforms.flatMap((platform) => platform.hosts),
  ...Object.values(auditSources.kinds).flat(),
  'gov.uk', 'nhs.uk', 'sra.org.uk', 'gdc-uk.org', 'icaew.com', 'accaglobal.com', 'lawsociety.org.uk', 'wikipedia.org', 'openstreetmap.org',
  'maps.apple.com', 'bing.com', 'waze.com', 'treatwell.co.uk', 'fresha.com', 'booksy.com', 'opentable.co.uk', 'opentable.com',
  'deliveroo.co.uk', 'just-eat.co.uk', 'ubereats.com', 'nextdoor.co.uk', 'nextdoor.com', 'youtube.com', 'bark.com',
];

/** Whether a web address is a page on a platform, directory, review site or register, which names no business's own site. */
export function isListing(written: string): boolean {
  const host = hostOf(written);
  return host !== null && LISTING_HOSTS.some((listing) => host === listing || host.endsWith(`.${listing}`));
}

/** What a place in the answer is set out as: its lead, as the answer reads. */
type Lead = { owner: 'business' | 'other'; name: string } | null;

interface Section {
  /** Headings 1 to 6, a bold line 7, a paragraph 7.5, a list item 8 and deeper. */
  rank: number;
  lead: Lead;
  /** A list has been under it (a bold line's bullets): the next paragraph out of the list is no longer its. */
  hadList?: boolean;
}

/** What each line of the answer is part of. */
interface LinePlace {
  start: number;
  end: number;
  /** Where its content starts: after its indentation, list marker, heading marks and numbering. */
  contentStart: number;
  /** The innermost entry around it that leads with a name; null when none does. */
  lead: Lead;
  /** Where the run of text it is in starts, since the last entry began or ended: how far back a name is looked for. */
  flowStart: number;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+/;
// The link's words stop at the first bracket: tried from each "**[" only up to the next "]".
const BOLD_LINK = /(?:\*\*|__)\[([^[\]\n]{2,80})\]\(/g;
const LIST_MARKER = /^([ \t]*)(?:[-*+•]|\d{1,3}[.)])[ \t]+/;
const NUMBERING = /^\d{1,2}[.)][ \t]+/;

/** The width of a line's indentation, a tab as four spaces. */
function indentWidth(indent: string): number {
  let width = 0;
  for (const char of indent) width += char === '\t' ? 4 : 1;
  return width;
}

/** Whether a line is one bold phrase alone, perhaps with a colon: a header over the lines under it ("**Acme Plumbing**", "**1. Pipe Pros:**"). */
function isBoldLine(content: string): boolean {
  const trimmed = content.trim();
  const mark = trimmed.slice(0, 2);
  if (mark !== '**' && mark !== '__') return false;
  const close = trimmed.indexOf(mark, 2);
  if (close <= 2) return false;
  const rest = trimmed.slice(close + 2).trim();
  return rest === '' || rest === ':';
}

/** Whether a line's content sets its lead out as a label, a colon straight after it ("**Opening times:** …", "Phone: …"). */
function isLabelled(content: string, lead: string): boolean {
  const colon = content.indexOf(':');
  return colon > 0 && colon <= 100 && withoutNumbering(content.slice(0, colon).replace(/[*_]/g, '').trim()) === lead;
}

/** A name as set out, without a list's numbering ("1. Acme" is Acme). */
function withoutNumbering(name: string): string {
  const numbering = NUMBERING.exec(name);
  return numbering ? name.slice(numbering[0].length) : name;
}

interface NameRules {
  brandKey: string;
  /** The brand without its trailing trade and place words ("acme" of Acme Plumbing Leeds): how answers shorten it; '' when it cannot be. */
  shortKey: string;
  site: string | null;
}

/** The brand's own words, without trailing trades and places, when they make a name by themselves ("acme" of "acme plumbing leeds"). */
function shortenedKey(brandKey: string): string {
  const words = brandKey.split(' ');
  while (words.length > 1 && isSearchPhrase(words.at(-1) ?? '')) words.pop();
  while (words.length > 1 && JOINING_WORDS.has(words.at(-1) ?? '')) words.pop();
  const short = words.join(' ');
  if (short === brandKey || short.replace(/ /g, '').length < 4 || isSearchPhrase(short, LABEL_WORDS)) return '';
  return short;
}

/** Whether a name as an answer sets it out is the business's: its brand in full, or a shortening of it ("Acme", "Acme Plumbing" of Acme Plumbing & Heating Ltd). */
function isBusinessName(name: string, rules: NameRules): boolean {
  const key = nameKey(name);
  if (key === '') return false;
  if (rules.brandKey !== '' && ` ${key} `.includes(` ${rules.brandKey} `)) return true;
  if (rules.shortKey !== '' && ` ${rules.brandKey} `.startsWith(` ${key} `) && key.length >= rules.shortKey.length) return true;
  return rules.site !== null && isOwnAddress(name.trim(), rules.site);
}

/** Whether a name set out is a label or a description rather than a business: every word a label, a trade, a place, a joining word or a number. */
function isLabel(name: string): boolean {
  return isSearchPhrase(name, LABEL_WORDS);
}

// ---------------------------------------------------------------------------------------------
// Names as they occur in the text, word by word
// ---------------------------------------------------------------------------------------------

interface Word {
  /** As names are compared (nameKey), one word. */
  key: string;
  at: number;
  end: number;
  /** It starts with a capital (after any Markdown). */
  capital: boolean;
  /** Punctuation after it ends a run of name words (a comma, a colon, a full stop, a bracket, a dash). */
  breakAfter: boolean;
  /** It starts a sentence or a line. */
  opens: boolean;
}

interface Occurrence {
  at: number;
  /** Index of its first and one past its last word. */
  first: number;
  last: number;
  owner: 'business' | 'other';
  /** A name the answer gives it ("Pipe Pros Leeds"); null when only a capitalised run of words hints at another business. */
  name: string | null;
  /** Only a capitalised run of words: a hint, trusted only where no entry says whose the place is. */
  hint: boolean;
  /** It opens its sentence: the sentence's subject ("Pipe Pros Leeds is another option."). */
  opens?: boolean;
}

const LETTER = /\p{L}/u;
const BREAKING = /[,.;:!?)(\]–—|]/;
const CLOSING = /[*_`"'\u2019]/;

/** The text's words as names are compared, each with where it stands: one pass, and nameKey on each word. */
function wordsOf(text: string, sentenceStarts: ReadonlySet<number>): Word[] {
  const words: Word[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    const chunk = match[0];
    const at = match.index;
    // "Acme Plumbing's" names Acme Plumbing.
    const bare = chunk.replace(/['\u2019]s(?=\W*$)/u, '');
    const keys = nameKey(bare).split(' ').filter((key) => key !== '');
    if (keys.length === 0) continue;
    let firstLetter = '';
    for (const char of chunk) {
      if (LETTER.test(char)) {
        firstLetter = char;
        break;
      }
    }
    // An address ("PipePros.co.uk", "Info@Acme.co.uk") is no run of name words.
    const address = /[.@/]\p{L}/u.test(chunk);
    const capital = !address && firstLetter !== '' && firstLetter !== firstLetter.toLowerCase();
    const opens = sentenceStarts.has(at);
    // The last character but closing Markdown and quotes, found by hand: a pattern anchored at the end is tried from every place of a long run.
    let last = chunk.length;
    while (last > 0 && CLOSING.test(chunk.charAt(last - 1))) last -= 1;
    const breakAfter = BREAKING.test(chunk.charAt(last - 1)) || /^[[(]/.test(text.charAt(at + chunk.length + 1));
    // A word with a digit ("M4", "1JG", "24/7", the "1" of "Studio[1]") is no word of a name.
    keys.forEach((key, index) => words.push({ key, at, end: at + chunk.length, capital: capital && !/\d/.test(key), breakAfter: breakAfter && index === keys.length - 1, opens: opens && index === 0 }));
  }
  return words;
}

/** A name looked for among the words: `alone`, only where no capitalised word carries it on ("Acme" is not "Acme Roofing"). */
interface SoughtName {
  key: string;
  owner: 'business' | 'other';
  name: string | null;
  alone?: boolean;
}

/** Where each of the keys occurs among the words, whole words only. */
function occurrencesOf(words: readonly Word[], keys: readonly SoughtName[]): Occurrence[] {
  const starts: number[] = [];
  let normal = '';
  for (const word of words) {
    starts.push(normal.length + 1);
    normal += ` ${word.key}`;
  }
  normal += ' ';
  const wordAt = new Map(starts.map((start, index) => [start, index]));
  const found: Occurrence[] = [];
  for (const { key, owner, name, alone } of keys) {
    if (key === '') continue;
    const length = key.split(' ').length;
    for (let from = normal.indexOf(` ${key} `); from !== -1; from = normal.indexOf(` ${key} `, from + 1)) {
      const first = wordAt.get(from + 1);
      const word = first === undefined ? undefined : words[first];
      const lastWord = first === undefined ? undefined : words[first + length - 1];
      const next = first === undefined ? undefined : words[first + length];
      if (alone && lastWord && next?.capital === true && !lastWord.breakAfter && !next.opens) continue;
      if (first !== undefined && word !== undefined) found.push({ at: word.at, first, last: first + length, owner, name, hint: false });
    }
  }
  // The longest name at a place wins ("Acme Roofing", another's, over the short "Acme" of the business's).
  found.sort((a, b) => a.first - b.first || b.last - a.last);
  const kept: Occurrence[] = [];
  for (const occurrence of found) {
    const previous = kept.at(-1);
    if (previous && occurrence.first < previous.last) continue;
    kept.push(occurrence);
  }
  return kept;
}

/** The last words of a company's name: a run ending so is a name, whatever its other words. */
const COMPANY_ENDINGS: ReadonlySet<string> = new Set(['co', 'ltd', 'limited', 'llp', 'plc', 'inc', 'sons', 'brothers', 'bros', 'group']);

/** The most words a name is read as having, as who-is-named.ts reads names: a longer run of capitals is a title or a shout. */
const MOST_WORDS_IN_A_NAME = 8;

/** Words before a place's name ("in", "on", "near", "from"): a capitalised run after one is where, not who. */
const LOCATIVE: ReadonlySet<string> = new Set(['in', 'on', 'near', 'off', 'from', 'around', 'across', 'within', 'opposite', 'behind', 'outside', 'beside', 'towards', 'throughout', 'between']);

/** A name as written, without the Markdown and punctuation around it ("**Pipe Pros Leeds**," is Pipe Pros Leeds). */
function trimmedName(written: string): string {
  let from = 0;
  // A citation's mark or a bracket ends it: "Clifton Dental Studio[1][3]".
  const bracket = written.search(/[[(]/);
  let to = bracket > 0 ? bracket : written.length;
  while (from < to && !/[\p{L}\p{N}]/u.test(written.charAt(from))) from += 1;
  while (to > from && !/[\p{L}\p{N}]/u.test(written.charAt(to - 1))) to -= 1;
  return written.slice(from, to);
}

/**
 * Capitalised runs of two words or more that may be another business the answer does not set out
 * ("Pipe Pros Leeds (0113 496 0999) also covers the area"): not a name of the business's, not
 * made only of places, trades, labels, days and other plain words, and not the business's own
 * town or street.
 */
function hintedNames(text: string, words: readonly Word[], known: readonly Occurrence[], plain: ReadonlySet<string>): Occurrence[] {
  const taken = new Set<number>();
  for (const occurrence of known) for (let index = occurrence.first; index < occurrence.last; index += 1) taken.add(index);
  const hints: Occurrence[] = [];
  let index = 0;
  while (index < words.length) {
    const word = words[index];
    if (!word || !word.capital || taken.has(index)) {
      index += 1;
      continue;
    }
    // A run: capitalised words, with "and", "&" or "of" between them, up to a break.
    let last = index + 1;
    while (last < words.length && last - index < MOST_WORDS_IN_A_NAME) {
      const next = words[last];
      const previous = words[last - 1];
      if (!next || !previous || previous.breakAfter || next.opens || taken.has(last)) break;
      if (next.capital || (JOINING_WORDS.has(next.key) && words[last + 1]?.capital === true && !next.breakAfter)) last += 1;
      else break;
    }
    let first = index;
    // "Call", "The", "Unlike" before a name are not of it.
    const opens = words[index]?.opens === true;
    while (first < last && (PLAIN_WORDS.has(words[first]?.key ?? '') || LABEL_WORDS.has(words[first]?.key ?? ''))) first += 1;
    const run = words.slice(first, last);
    const runText = run.map((part) => part.key).join(' ');
    // "in Manchester's Northern Quarter", "from Piccadilly Gardens": a place, not a business.
    const placed = LOCATIVE.has(words[index - 1]?.key ?? '') && words[index - 1]?.breakAfter === false;
    const start = run[0];
    const end = run.at(-1);
    // Made only of places and trades, a run is still a name when it says so ("Leeds Plumbing Co",
    // "Smith & Sons") or gives its own fact in brackets ("Leeds Emergency Plumbers (0113 …)").
    const named = end !== undefined && (COMPANY_ENDINGS.has(end.key) || /^\s*\(/.test(text.slice(end.end, end.end + 3)));
    if (start && end && run.length >= 2 && !placed && (named || !isSearchPhrase(runText, plain))) {
      hints.push({ at: start.at, first, last, owner: 'other', name: trimmedName(text.slice(start.at, end.end)), hint: true, opens });
    }
    index = last;
  }
  return hints;
}

// ---------------------------------------------------------------------------------------------
// Sentences
// ---------------------------------------------------------------------------------------------

/** Words a full stop follows without ending a sentence ("Acme Plumbing Ltd. can…", "e.g.", "St. Mary's"). */
const ABBREVIATIONS = new Set(['ltd', 'co', 'st', 'rd', 'no', 'tel', 'mr', 'mrs', 'ms', 'dr', 'eg', 'ie', 'etc', 'approx', 'inc', 'ext', 'vs', 'ave', 'est', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'nr', 'opp']);

/** Where each sentence starts within its line: after ". ", "! " or "? " (and any closing emphasis or bracket), before a capital, a digit or Markdown. */
function sentenceStartsIn(text: string, lineStart: number, lineEnd: number): number[] {
  const starts: number[] = [];
  for (let index = lineStart; index < lineEnd; index += 1) {
    const char = text.charAt(index);
    if (char !== '.' && char !== '!' && char !== '?') continue;
    let after = index + 1;
    while (after < lineEnd && /[*_)"'\u201d\]]/.test(text.charAt(after))) after += 1;
    if (after >= lineEnd || !/\s/.test(text.charAt(after))) continue;
    while (after < lineEnd && /\s/.test(text.charAt(after))) after += 1;
    if (after >= lineEnd || /\p{Ll}/u.test(text.charAt(after))) continue;
    if (char === '.') {
      let wordStart = index;
      while (wordStart > lineStart && /[\p{L}.]/u.test(text.charAt(wordStart - 1))) wordStart -= 1;
      const word = text.slice(wordStart, index).replace(/\./g, '').toLowerCase();
      if (word.length === 1 || ABBREVIATIONS.has(word)) continue;
    }
    starts.push(after);
  }
  return starts;
}

/** The last value in a sorted list at or below `at`, or null. */
function lastAtOrBelow(sorted: readonly number[], at: number): number | null {
  let low = 0;
  let high = sorted.length - 1;
  let found: number | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = sorted[middle] ?? 0;
    if (value <= at) {
      found = value;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// The answer's entries
// ---------------------------------------------------------------------------------------------

/**
 * Reads which parts of an answer speak of the business. `about`: the answer was to a direct
 * question about the business ("How do I contact Acme Plumbing in Leeds?"), so all of it speaks of
 * the business but the entries that lead with another business's name; otherwise only the entries
 * that name the business do. `addresses`: the web addresses the answer writes (its own site names
 * the business where it stands, another's site another business); `plainWords`: words of the
 * business's own facts (its towns, streets, services), which name no other business.
 */
export function readParts(text: string, business: BusinessIdentity, about: boolean, addresses: readonly AddressMention[], plainWords: readonly string[]): AnswerParts {
  const brandKey = business.brand ? nameKey(business.brand) : '';
  const rules: NameRules = { brandKey, shortKey: shortenedKey(brandKey), site: business.domain };

  // The names the answer sets out (who-is-named.ts): each is the business's, a label, or another's.
  const leads = new Map<number, Lead>();
  const others = new Map<string, string>();
  for (const mention of namesInText(text)) {
    const name = withoutNumbering(mention.name);
    if (isBusinessName(name, rules)) leads.set(mention.at, { owner: 'business', name });
    else if (!isLabel(name)) {
      leads.set(mention.at, { owner: 'other', name });
      const key = nameKey(name);
      if (!others.has(key) && others.size < MOST_OTHER_NAMES) others.set(key, name);
    }
  }

  // A name given as a link's words in bold ("**[Acme Plumbing](https://…)**"), which who-is-named.ts
  // reads as neither bold nor a link.
  for (const match of text.matchAll(BOLD_LINK)) {
    const name = trimmedName(match[1] ?? '');
    const at = match.index + 2;
    if (leads.has(at) || !/^[\p{Lu}\p{N}]/u.test(name) || name.split(/\s+/).length > 8) continue;
    if (isBusinessName(name, rules)) leads.set(at, { owner: 'business', name });
    else if (!isLabel(name)) {
      leads.set(at, { owner: 'other', name });
      const key = nameKey(name);
      if (!others.has(key) && others.size < MOST_OTHER_NAMES) others.set(key, name);
    }
  }

  // A lead is the name an entry's content starts with, perhaps after "**" or "**[" ("**[Acme](…)**").
  const leadAt = (contentStart: number): Lead => {
    for (let offset = 0; offset <= 3; offset += 1) {
      const lead = leads.get(contentStart + offset);
      if (lead) return lead;
    }
    return null;
  };

  // Lines, with the entries they are in.
  const places: LinePlace[] = [];
  const stack: Section[] = [];
  let flowStart = 0;
  let afterBlank = true;
  let previousWasHeader = false;
  let lineStart = 0;
  const open = (section: Section, at: number) => {
    stack.push(section);
    flowStart = at;
  };
  const close = (rank: number, at: number) => {
    let closed = false;
    while ((stack.at(-1)?.rank ?? -1) >= rank) {
      stack.pop();
      closed = true;
    }
    if (closed) flowStart = at;
  };
  const namedLead = (): Lead => {
    for (let index = stack.length - 1; index >= 0; index -= 1) {
      const lead = stack[index]?.lead;
      if (lead) return lead;
    }
    return null;
  };
  for (const line of text.split('\n')) {
    const start = lineStart;
    const end = start + line.length;
    lineStart = end + 1;
    if (line.trim() === '') {
      afterBlank = true;
      // A paragraph that leads with a name is an entry to its end.
      if ((stack.at(-1)?.rank ?? -1) === PARAGRAPH_RANK) stack.pop();
      continue;
    }
    const heading = HEADING.exec(line);
    const item = heading ? null : LIST_MARKER.exec(line);
    let contentStart = start + (line.length - line.trimStart().length);
    if (heading) {
      const rest = line.slice(heading[0].length);
      contentStart = start + heading[0].length + (NUMBERING.exec(rest)?.[0].length ?? 0);
      close(heading[1]?.length ?? 1, start);
      open({ rank: heading[1]?.length ?? 1, lead: leadAt(contentStart) }, start);
      previousWasHeader = true;
    } else if (item) {
      contentStart = start + item[0].length;
      const rank = LIST_RANK + Math.min(5, Math.floor(indentWidth(item[1] ?? '') / 2));
      close(rank, start);
      let lead = leadAt(contentStart);
      // Under a named entry, "**Opening times:**" is a label of that entry's, whatever its words.
      if (lead?.owner === 'other' && namedLead() !== null && isLabelled(line.slice(item[0].length), lead.name)) lead = null;
      if (lead) open({ rank, lead }, start);
      const header = stack.findLast((section) => section.rank < LIST_RANK);
      if (header?.rank === BOLD_LINE_RANK) header.hadList = true;
      previousWasHeader = false;
    } else if (isBoldLine(line)) {
      close(BOLD_LINE_RANK, start);
      open({ rank: BOLD_LINE_RANK, lead: leadAt(contentStart) }, start);
      previousWasHeader = true;
    } else if (afterBlank || previousWasHeader) {
      const indented = indentWidth(line.slice(0, line.length - line.trimStart().length)) >= 2;
      // An indented paragraph under a list item is that item's; any other paragraph ends the list.
      if (!(indented && (stack.at(-1)?.rank ?? -1) >= LIST_RANK)) {
        close(LIST_RANK, start);
        // Gemini's bold line leads its bullets; a paragraph after them is the answer's own again.
        if (stack.at(-1)?.rank === BOLD_LINE_RANK && stack.at(-1)?.hadList === true) close(BOLD_LINE_RANK, start);
        const lead = leadAt(contentStart);
        if (lead) {
          close(PARAGRAPH_RANK, start);
          // A paragraph that leads with a name does not reset how far back names are read: "Their number…" after it is theirs.
          const flow = flowStart;
          open({ rank: PARAGRAPH_RANK, lead }, start);
          flowStart = flow;
        }
      }
      previousWasHeader = false;
    }
    afterBlank = false;
    places.push({ start, end, contentStart, lead: namedLead(), flowStart });
  }

  // Sentences, and where names occur.
  const sentenceStarts: number[] = [];
  for (const place of places) {
    sentenceStarts.push(place.contentStart);
    for (const start of sentenceStartsIn(text, place.contentStart, place.end)) sentenceStarts.push(start);
  }
  const words = wordsOf(text, new Set(sentenceStarts));
  const keys: SoughtName[] = [
    { key: brandKey, owner: 'business', name: null },
    { key: rules.shortKey, owner: 'business', name: null, alone: true },
    ...[...others].map(([key, name]): SoughtName => ({ key, owner: 'other', name })),
  ];
  const known = occurrencesOf(words, keys);
  const plain = new Set([...PLAIN_WORDS, ...LABEL_WORDS, ...plainWords.flatMap((words) => nameKey(words).split(' ')), ...brandKey.split(' ')]);
  const hints = hintedNames(text, words, known, plain);
  // Every other name the answer gives, set out or only hinted at: what a site's address may spell.
  const names = new Map(others);
  for (const hint of hints) if (hint.name !== null && names.size < MOST_OTHER_NAMES * 2 && !names.has(nameKey(hint.name))) names.set(nameKey(hint.name), hint.name);
  // A web address names whose site it is: the business's own, or (a directory's page aside) another's.
  for (const address of addresses) {
    if (address.listing) continue;
    const own = rules.site !== null && isOwnAddress(address.said, rules.site);
    known.push({ at: address.at, first: -1, last: -1, owner: own ? 'business' : 'other', name: own ? null : nameForAddress(address.said, names), hint: false });
  }
  const all = [...known, ...hints].sort((a, b) => a.at - b.at);
  const trusted = all.filter((occurrence) => !occurrence.hint);
  const subjects = all.filter((occurrence) => !occurrence.hint || occurrence.opens === true);

  const lineStarts = places.map((place) => place.start);
  const placeByStart = new Map(places.map((place) => [place.start, place]));
  const placeAt = (at: number): LinePlace | null => placeByStart.get(lastAtOrBelow(lineStarts, at) ?? -1) ?? null;
  const sortedStarts = [...new Set(sentenceStarts)].sort((a, b) => a - b);
  const sentenceStart = (at: number): number => {
    const place = placeAt(at);
    const start = lastAtOrBelow(sortedStarts, at) ?? 0;
    return place ? Math.max(start, place.contentStart) : start;
  };
  /** Where the sentence holding an offset ends: the next sentence's start, or its line's end. */
  const sentenceEnd = (at: number): number => {
    const lineEnd = placeAt(at)?.end ?? text.length;
    const next = sortedStarts[firstAbove(sortedStarts, at)];
    return next !== undefined && next <= lineEnd ? next : lineEnd;
  };
  /** The last name before `at` and at or after `from`. */
  const nearest = (list: readonly Occurrence[], from: number, at: number): Occurrence | null => {
    const index = lastIndexBelow(list, at);
    const occurrence = index === -1 ? undefined : list[index];
    return occurrence && occurrence.at >= from ? occurrence : null;
  };
  const whose = (occurrence: Occurrence): Whose => (occurrence.owner === 'business' ? { owner: 'business', name: null } : { owner: 'other', name: occurrence.name });

  return {
    otherNames: names,
    sentenceStart,
    sentenceAround(at, end) {
      return { start: sentenceStart(at), end: sentenceEnd(end) };
    },
    whoseAt(at) {
      const place = placeAt(at);
      if (!place) return { owner: 'nobody', name: null };
      // In a competitor's entry every fact is the competitor's.
      if (place.lead?.owner === 'other') return { owner: 'other', name: place.lead.name };
      const sentence = sentenceStart(at);
      if (place.lead?.owner === 'business') {
        // The business's entry: its facts, but where the sentence names another business before the fact.
        const named = nearest(trusted, sentence, at);
        return named ? whose(named) : { owner: 'business', name: null };
      }
      // No entry says whose: the nearest name before it in its sentence; else since the run of text
      // began, where a capitalised run of words counts only as a sentence's subject ("Pipe Pros
      // Leeds is another option. Their number is …"), not as a phrase within one ("a Gas Safe
      // Registered Business").
      const inSentence = nearest(all, sentence, at);
      if (inSentence) return inSentence.hint ? { owner: 'nobody', name: null } : whose(inSentence);
      const earlier = nearest(subjects, place.flowStart, at);
      if (earlier) {
        // "Pipe Pros and Acme both cover Leeds. Call 0113 …": the sentence named last names two.
        const named = between(subjects, sentenceStart(earlier.at), sentenceEnd(earlier.at));
        const owners = new Set(named.map((occurrence) => (occurrence.hint ? 'other' : occurrence.owner)));
        if (owners.size > 1 || earlier.hint) return { owner: 'nobody', name: null };
        return whose(earlier);
      }
      // A sentence that names the business, and no one else, after the fact ("Call 0113 … to reach Acme").
      const after = between(all, at + 1, sentenceEnd(at));
      if (after.length > 0 && after.every((occurrence) => occurrence.owner === 'business')) return { owner: 'business', name: null };
      return about && after.length === 0 ? { owner: 'business', name: null } : { owner: 'nobody', name: null };
    },
  };
}

/** How many other businesses' names are looked for in an answer; a list answer names a dozen at most. */
const MOST_OTHER_NAMES = 40;
const BOLD_LINE_RANK = 7;
const PARAGRAPH_RANK = 7.5;
const LIST_RANK = 8;

/** The occurrences at or after `from` and before `to`, in a list sorted by offset: found by halving, then read in order. */
function between(list: readonly Occurrence[], from: number, to: number): Occurrence[] {
  const found: Occurrence[] = [];
  for (let index = lastIndexBelow(list, from) + 1; index < list.length; index += 1) {
    const occurrence = list[index];
    if (!occurrence || occurrence.at >= to) break;
    found.push(occurrence);
  }
  return found;
}

/** The index of the first value above `at` in a sorted list (its length when none is). */
function firstAbove(sorted: readonly number[], at: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] ?? 0) <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the last occurrence before `at` in a list sorted by offset, or -1. */
function lastIndexBelow(list: readonly Occurrence[], at: number): number {
  let low = 0;
  let high = list.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((list[middle]?.at ?? 0) < at) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The shortest name a site's address is read as spelling: "pipe" is too short to say whose pipe.co.uk is. */
const SHORTEST_NAME_IN_ADDRESS = 4;

/**
 * The other business whose site an address is, when the address spells one of the names the
 * answer sets out: the name's words run together ("pipepros" of Pipe Pros), or its first words
 * ("flowfix" of FlowFix Plumbing & Heating), or the address's word starts with the whole name
 * ("pipeprosleeds" of Pipe Pros); as the audit report reads a competitor's cited site. Null when
 * none does.
 */
export function nameForAddress(written: string, others: ReadonlyMap<string, string>): string | null {
  const host = hostOf(written);
  const label = host === null ? '' : siteLabel(host);
  if (label.length < SHORTEST_NAME_IN_ADDRESS) return null;
  for (const [key, name] of others) {
    const words = key.split(' ');
    const whole = words.join('');
    if (whole.length >= SHORTEST_NAME_IN_ADDRESS && label.startsWith(whole)) return name;
    for (let index = 0; index < words.length; index += 1) {
      const start = words.slice(0, index + 1).join('');
      if (start.length >= SHORTEST_NAME_IN_ADDRESS && start === label) return name;
    }
  }
  return null;
}
