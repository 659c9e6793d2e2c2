import { probePageWords } from '../../shared/generated/probe-page-words';
import { probePlatforms } from '../../shared/generated/probe-platforms';
import type { HomePageAnalysis } from '../site-check/analysers/home-page';
import type { SiteCheckReport } from '../site-check/check-report';
import { JOINING_WORDS, nameKey, siteLabel, siteOf } from './names';
import { isSearchPhrase, typedSearchWords, type TypedWords } from './search-words';

/**
 * The business's name as a person reads its home page, which every count of answers naming it
 * rests on. A person reads more than one sign: the name its structured data declares, its
 * og:site_name, the parts of its title, the footer's copyright line ("© 2026 Acme Plumbing Ltd"),
 * the logo's text, the first heading. Where signs agree, that name wins over one sign alone; the
 * site's address, when it spells a name, confirms it but never makes one. A part made only of
 * search words ("Leeds Plumbers", "Emergency Plumbing Services") is a description, whatever the
 * address says (search-words.ts). No sign left: the business is looked for by its address alone.
 */

/** Where a name was read: a sign of the page, the site's address confirming it, or given by a person (--brand). */
export type NameSign = 'structured data' | 'og:site_name' | 'title' | 'logo' | 'copyright' | 'heading' | 'web address' | 'given';

export interface BusinessName {
  /** The name the answers are searched for, word by word; null: the site gives none, and only its address is searched for. */
  name: string | null;
  /** The signs that gave it, the most trusted first ([] for none). */
  signs: NameSign[];
  /** The home page's title as the site check read it (null: none): what a name from the title was cut from. */
  title: string | null;
  /**
   * Names the page gives that are made only of the words the prospect typed ("Acme Plumbing" when
   * they typed "acme plumbing reviews" as a keyword): not searched for, since a search of theirs
   * would count, but never asked about either (a question must not name the business).
   */
  typedNames?: string[];
}

/** The signs of a page in the order they are trusted when no agreement decides. */
const SIGN_ORDER: readonly NameSign[] = ['given', 'structured data', 'og:site_name', 'title', 'logo', 'copyright', 'heading', 'web address'];

/** Each sign as a person says where a name was read. */
const SIGN_WORDS: Record<NameSign, string> = {
  given: 'given with --brand',
  'structured data': "the site's structured data",
  'og:site_name': 'its og:site_name',
  title: 'the title',
  logo: "the logo's text",
  copyright: "the footer's copyright line",
  heading: 'the first heading',
  'web address': 'the web address',
};

/**
 * Where a name was read, as the mail, the pages and the commands say it: "from the footer's
 * copyright line and the title", "from the title, confirmed by the web address", "given with
 * --brand"; '' for no sign.
 */
export function nameOrigin(signs: readonly NameSign[]): string {
  if (signs.includes('given')) return SIGN_WORDS.given;
  const read = signs.filter((sign) => sign !== 'web address').map((sign) => SIGN_WORDS[sign]);
  if (read.length === 0) return '';
  const list = read.length > 1 ? `${read.slice(0, -1).join(', ')} and ${read.at(-1) ?? ''}` : (read[0] ?? '');
  return `from ${list}${signs.includes('web address') ? ', confirmed by the web address' : ''}`;
}

/** Where a name was read, as a stored report said it before names had more than one sign ("page title", "domain"). */
export function signsOfStored(stored: { nameSigns?: NameSign[]; nameSource?: string | null }): NameSign[] {
  if (stored.nameSigns) return stored.nameSigns;
  const legacy: Record<string, NameSign[]> = { 'structured data': ['structured data'], 'og:site_name': ['og:site_name'], 'page title': ['title'], 'command line': ['given'] };
  return legacy[stored.nameSource ?? ''] ?? [];
}

/** Page words and the platforms' own names ("Facebook" of "Acme Plumbing | Facebook"): never a business's name. */
const GENERIC = new Set([...probePageWords.generic, ...probePlatforms.platforms.map((platform) => platform.name)].map(nameKey));
/** "welcome to", longest first. */
const LEADING = probePageWords.leading.map(nameKey).sort((a, b) => b.length - a.length);
const DESCRIBING = new Set(probePageWords.describing.map(nameKey));
/** A name longer than this is a sentence about the business, not its name. */
const MOST_WORDS_IN_A_NAME = 6;

/** The name without a page's greeting before it: "Welcome to Acme" is "Acme". */
function withoutLeading(part: string): string {
  const key = nameKey(part);
  const leading = LEADING.find((phrase) => key.startsWith(`${phrase} `));
  if (leading === undefined) return part;
  return part.split(' ').slice(leading.split(' ').length).join(' ');
}

/** A page word, a platform's name, or words that are each a page word ("Home Page", "Contact | About"): never a name. */
function isGeneric(name: string): boolean {
  const key = nameKey(name);
  return key === '' || GENERIC.has(key) || key.split(' ').every((word) => GENERIC.has(word));
}

/** Words a name may hold in lower case: English ones ("Bank of England"), and Welsh and Gaelic ("Caffi Glan y Môr", "Taigh na Mara"). */
const NAME_JOINING: ReadonlySet<string> = new Set([...JOINING_WORDS, 'a', 'y', 'yr', 'ac', 'o', 'na', 'an']);

const lowerCase = (word: string) => /^\p{Ll}/u.test(word) && !/\p{Lu}/u.test(word) && !NAME_JOINING.has(word);

/** Whether a whole line is written in lower case: the site's style, in which a lower-case word is no sign of a sentence. */
const inLowerCase = (line: string) => !/\p{Lu}/u.test(line);

/**
 * A part that describes rather than names: long, or holding a describing word ("Plumbers in
 * Leeds", "Call now", "From £99"), a price or a share, or a lower-case word among capitalised ones
 * ("Welcome to the home of quality roofing"), or a list ("Natural, Relaxed Wedding Photography";
 * a firm of partners keeps its comma: "Smith, Jones & Co"), or a cry ("Fast, friendly plumbers!").
 * A web address is no name either: the address itself is searched for.
 */
function describes(part: string, line: string): boolean {
  const words = part.split(' ');
  if (words.length > MOST_WORDS_IN_A_NAME || /[!?]$/.test(part) || /[£$€%]/.test(part)) return true;
  if (/^(?:https?:\/\/|www\.)|\.(?:co\.uk|org\.uk|com|uk|org|net|co|io)\b/i.test(part)) return true;
  if (part.includes(',') && !/&| and /i.test(part)) return true;
  if (words.some((word) => DESCRIBING.has(nameKey(word)))) return true;
  return !inLowerCase(line) && words.some(lowerCase);
}

/** Punctuation that ends a name as written: "Acme Ltd." is "Acme Ltd", "Acme," "Acme". */
const LOOSE_END = /[\s,;:.–—|-]/;

/** A part with the spaces and loose punctuation around it taken off (cut by hand: linear however long the run). */
function trimmed(part: string): string {
  let start = 0;
  let end = part.length;
  while (start < end && LOOSE_END.test(part.charAt(start))) start += 1;
  while (end > start && LOOSE_END.test(part.charAt(end - 1))) end -= 1;
  return part.slice(start, end);
}

/** The parts of a line at the separators titles and footers use: "Home | Acme", "Acme – Plumbers in Leeds", "Acme: Home". */
function lineParts(line: string): string[] {
  // Each value is kept bounded by the site check (a title at 200 characters), so every separator here is short.
  return line
    .replace(/\s+/g, ' ')
    .split(/ ?[|·•»«~–—] ?| - |: /)
    .map((part) => trimmed(withoutLeading(trimmed(part))));
}

/** A year or a span of years ("2026", "2019-2026", "2019 – present"). */
const YEARS = String.raw`(?:19|20)\d{2}(?:\s*[-–—/]\s*(?:(?:19|20)?\d{2}\b|present|now|date))?`;
/** What a copyright line holds before the name: its mark and the years, in any order. */
const COPYRIGHT_START = new RegExp(String.raw`^(?:[\s|:.,–—-]|©|\(c\)|copyright\b|${YEARS})+`, 'i');
/** What follows the name in a copyright line. */
const COPYRIGHT_END = new RegExp(
  String.raw`\b(?:all rights reserved|some rights reserved|registered (?:in|office|company|no)|company (?:no|number|reg)|reg(?:istered)?\.? no|vat (?:no|number|reg)|website by|web design by|web site by|site by|designed by|design by|designed and built by|powered by|built by|developed by|made by|created by|hosted by|theme by|made with|authorised and regulated|regulated by|trading as)\b`,
  'i',
);
/** A sentence's end within a copyright line: a full stop then a capital, not after "St", "Dr", "Co" or a single letter. */
const SENTENCE_END = /(?<!\b(?:st|dr|co|no|mr|mrs|ms|[a-z]))\.\s+(?=\p{Lu})/iu;

const TRAILING_YEARS = new RegExp(String.raw`[\s,]+${YEARS}\s*$`, 'i');

/**
 * The name a copyright line gives: "© 2019-2026 Acme Plumbing Ltd. All rights reserved." is
 * "Acme Plumbing Ltd"; with nothing but years after the mark, the words just before it ("Acme
 * Ltd © 2026").
 */
function copyrightName(line: string): string {
  const mark = /©|\(c\)|\bcopyright\b/i.exec(line);
  let rest = (mark ? line.slice(mark.index) : line).replace(COPYRIGHT_START, '');
  const end = COPYRIGHT_END.exec(rest);
  if (end) rest = rest.slice(0, end.index);
  const sentence = SENTENCE_END.exec(rest);
  if (sentence) rest = rest.slice(0, sentence.index);
  const after = trimmed(rest.replace(TRAILING_YEARS, ''));
  if (after !== '' || !mark) return after;
  const before = line.slice(0, mark.index).split(/ ?[|·•»«~–—] ?| - |\.\s/).at(-1) ?? '';
  return trimmed(before.replace(TRAILING_YEARS, ''));
}

/** The name a logo's text gives: "Acme Plumbing logo" and "Logo of Acme Plumbing" are "Acme Plumbing". */
function logoName(text: string): string {
  return text
    .replace(/[_]+/g, ' ')
    .replace(/\.(?:png|jpe?g|svg|webp|gif)$/i, '')
    .replace(/^(?:the\s+)?(?:company\s+)?logo(?:type)?(?:\s+(?:of|for))?[\s:-]+/i, '')
    .replace(/[\s-]+(?:company\s+)?(?:logo(?:type)?|icon|image)(?:[\s-]+(?:white|dark|light|black|colou?r|small|large|main))?$/i, '');
}

/** A name one sign gives, where it stands among the sign's parts. */
interface Candidate {
  name: string;
  key: string;
  sign: NameSign;
  /** Its place among every candidate read, for a stable order. */
  order: number;
}

/** The signs of a page a name may be read from; those a check stored before they were kept may be missing. */
export type PageSigns = Pick<HomePageAnalysis, 'organizationNames' | 'siteName' | 'title'> & Partial<Pick<HomePageAnalysis, 'copyrightLines' | 'logoText' | 'firstHeading'>>;

/** What a sign says of a name, as lines whose parts may each be one. */
function signLines(page: PageSigns): [NameSign, string[]][] {
  return [
    ['structured data', page.organizationNames],
    ['og:site_name', page.siteName === null ? [] : [page.siteName]],
    ['title', page.title === null ? [] : [page.title]],
    ['logo', page.logoText ? [logoName(page.logoText)] : []],
    // The footer's line is the page's last.
    ['copyright', [...(page.copyrightLines ?? [])].reverse().map(copyrightName)],
    ['heading', page.firstHeading ? [page.firstHeading] : []],
  ];
}

/** Whether a word is all capitals or all lower case: a form less like the name as written than a mixed one. */
const oneCase = (name: string) => name === name.toUpperCase() || name === name.toLowerCase();

/** Whether the site's address spells this name ("acmeplumbing" of acmeplumbing.co.uk spells "Acme Plumbing"; "acmeleeds" spells "Acme"). */
function addressSpells(key: string, label: string): boolean {
  const compact = key.replace(/ /g, '');
  if (label.length < 3 || compact.length < 3) return false;
  return compact === label || label.startsWith(compact) || label.endsWith(compact) || compact.includes(label);
}

/**
 * The name a home page gives the business, read as a person would. `site` is its own (siteOf),
 * which may confirm a name; `typed`, what the prospect typed about it: their words, like a trade or
 * a place, never make a name on their own.
 */
export function nameFromPage(page: PageSigns, site: string | null, typed: TypedWords = {}): BusinessName {
  const title = page.title;
  const searchWords = typedSearchWords(typed);
  const candidates: Candidate[] = [];
  const typedNames = new Map<string, string>();
  for (const [sign, lines] of signLines(page)) {
    for (const line of lines) {
      for (const part of lineParts(line)) {
        if (isGeneric(part) || describes(part, line) || isSearchPhrase(part)) continue;
        if (isSearchPhrase(part, searchWords)) {
          if (!typedNames.has(nameKey(part))) typedNames.set(nameKey(part), part);
          continue;
        }
        candidates.push({ name: part, key: nameKey(part), sign, order: candidates.length });
      }
    }
  }
  const passedOver = typedNames.size > 0 ? { typedNames: [...typedNames.values()].slice(0, 5) } : {};

  // The signs that give each name, and the address when it spells the name.
  const label = site === null ? '' : siteLabel(site);
  const groups = new Map<string, { key: string; names: Candidate[]; signs: Set<NameSign> }>();
  for (const candidate of candidates) {
    const group = groups.get(candidate.key) ?? { key: candidate.key, names: [], signs: new Set<NameSign>() };
    group.names.push(candidate);
    group.signs.add(candidate.sign);
    groups.set(candidate.key, group);
  }
  for (const group of groups.values()) if (addressSpells(group.key, label)) group.signs.add('web address');

  // A heading alone is too often a slogan: it makes a name only with another sign beside it.
  const eligible = [...groups.values()].filter((group) => [...group.signs].some((sign) => sign !== 'heading' && sign !== 'web address') || group.signs.size > 1);
  // Signs that give the name within a longer one, or a longer one starting with it ("Acme
  // Plumbing" and "Acme Plumbing & Heating"): they agree in part, which decides only a tie.
  const inPart = (group: { key: string }) =>
    new Set(
      [...groups.values()]
        .filter((other) => other !== group && (other.key.startsWith(`${group.key} `) || group.key.startsWith(`${other.key} `)))
        .flatMap((other) => [...other.signs]),
    ).size;
  const rank = (group: { signs: Set<NameSign>; names: Candidate[] }) => Math.min(...[...group.signs].map((sign) => SIGN_ORDER.indexOf(sign)));
  const best = eligible.sort(
    (a, b) => b.signs.size - a.signs.size || inPart(b) - inPart(a) || rank(a) - rank(b) || Math.min(...a.names.map((n) => n.order)) - Math.min(...b.names.map((n) => n.order)),
  )[0];
  if (best === undefined) return { name: null, signs: [], title, ...passedOver };

  // Shown as the most trusted sign writes it, unless that is all capitals or all lower case and another is not.
  const byTrust = [...best.names].sort((a, b) => SIGN_ORDER.indexOf(a.sign) - SIGN_ORDER.indexOf(b.sign) || a.order - b.order);
  const shown = byTrust.find((candidate) => !oneCase(candidate.name)) ?? byTrust[0];
  return { name: shown?.name ?? null, signs: SIGN_ORDER.filter((sign) => best.signs.has(sign)), title, ...passedOver };
}

/** The business's name from its site check; null when the check read no page (the business is then looked for by its address alone). */
export function nameFromSiteCheck(report: SiteCheckReport, typed: TypedWords = {}): BusinessName | null {
  const page = report.facts?.page;
  if (!page) return null;
  // A check stored before the page's names were kept apart has neither list: its title is read.
  const { organizationNames = [], siteName = null, title, copyrightLines, logoText, firstHeading } = page as Partial<HomePageAnalysis> & Pick<HomePageAnalysis, 'title'>;
  return nameFromPage({ organizationNames, siteName, title, copyrightLines, logoText, firstHeading }, siteOf(report.url), typed);
}

/**
 * A name a person gives (`--brand`), as it will be searched for; or why it cannot be: a page word,
 * or a phrase made only of trades, places and descriptions, would count every answer that repeats
 * the search.
 */
export function givenName(name: string): { name: string } | { refused: string } {
  const given = name.replace(/\s+/g, ' ').trim();
  if (nameKey(given) === '' || isGeneric(given)) return { refused: `"${given}" is not a business's name` };
  // The agency's word outweighs the request's own keywords (it may have typed its name as one); never a trade's or a place's alone.
  if (isSearchPhrase(given)) {
    return { refused: `"${given}" is made only of search words (trades, places, descriptions): every answer about the search would count as naming the business. Give the name with a word of its own` };
  }
  return { name: given.slice(0, 100) };
}
