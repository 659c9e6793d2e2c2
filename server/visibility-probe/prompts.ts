import type { ProbePlaceholder } from '../../shared/content-schema';
import { escapeRegExp } from '../../shared/escape-reg-exp';
import { findName, nameKey, siteFinder, WEB_ADDRESS } from '../business/names';

/** The audit form's words about the business (never about the person): all a question is made of. */
export interface BusinessDetails {
  /** target_keywords: the searches the prospect wants to be recommended for, as typed. */
  targetKeywords: string;
  /** ideal_customer */
  idealCustomer: string;
  /** business_description */
  businessDescription: string;
  /** current_products */
  currentProducts: string;
}

/**
 * The most characters of the form each filled part may hold. A question stays a buyer's short
 * question whatever was typed: a prospect cannot make a call bigger, or write a task into it.
 */
export const PART_LIMITS: Record<ProbePlaceholder, number> = { keyword: 60, customer: 80, product: 60, description: 120 };

/** Keywords and products taken from a field, at most. */
const ITEMS_PER_FIELD = 10;

export interface QuestionOptions {
  /** How many questions (PROBE_PROMPTS); fewer when the form's words do not make so many. */
  count: number;
  /** The templates of content/probe-prompts.yaml, in the order they are asked. */
  templates: readonly string[];
  /** The business's brand and site (siteOf): a part that names either is left out, since a question must not name the business. */
  brand: string | null;
  domain: string | null;
  /** The person's name and e-mail address, which no question may hold even when typed into a business field. */
  personal: readonly string[];
  /** Other names of the business a question must not hold either (BusinessName.typedNames). */
  alsoNames?: readonly string[];
}

// Whatever a prospect types about reaching them is left out of the part it is in. The form's words
// are a stranger's, up to 5,000 characters a field: each pattern is tried from one place per word
// at most, so that its cost stays linear in the field, whatever was typed.
/** A word holding "@" with something on each side; tried from the start of a word only (a run of 5,000 characters without "@" is one try, not 5,000). */
const EMAIL_ADDRESS = /(?<!\S)\S+@\S+/g;
// A try that fails starts at a digit with no digit 7 or more places after it in its run: at most
// 7 such tries a run, each reading to the run's end, so this stays linear (7 times the run at worst).
const PHONE_NUMBER = /\+?\d[\d\s().-]{6,}\d/g;
/** Letters, digits and a buyer's punctuation; quotes, brackets, braces, colons and markup go. */
const NOT_KEPT = /[^\p{L}\p{N}\s\-&',.()+/£%]/gu;
/** What may not start or end a part: a separator left hanging once the rest was cut. */
const HANGING_START = /^[\s,.\-/&+]+/;
const HANGING_END = /[\s,.\-/&+(]/;

/** A word of `words` standing alone, in any case: "Li" takes "li" and "LI", never the "li" of "Lidl" or "lino". */
const wholeWords = (words: readonly string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');

/**
 * The words of a detail of the person: every word of their name; of an e-mail address, every word
 * before the "@" ("jo.ng@..." is "jo" and "ng"). Its domain is their mail provider's or their
 * business's, not theirs: the address as a whole is withheld, its domain's words are not.
 */
function personalWords(value: string): string[] {
  const at = value.lastIndexOf('@');
  return (at === -1 ? value : value.slice(0, at)).split(/[^\p{L}\p{N}]+/u);
}

/**
 * The person's details as patterns to remove: each as typed (any case), and every word of it
 * (personalWords), whatever its length and case, as a whole word: "jo.ng@..." takes "Jo" and "NG"
 * wherever they stand alone, never the "jo" of "joinery".
 */
function personalPatterns(personal: readonly string[]): RegExp[] {
  return personal
    .map((value) => value.trim())
    .filter((value) => value.length >= 2)
    .flatMap((value) => {
      // Longest first: "Jo Joanna" takes "Joanna" whole, not its "Jo".
      const words = [...new Set(personalWords(value).filter((word) => word !== ''))].sort((a, b) => b.length - a.length);
      return [new RegExp(escapeRegExp(value), 'gi'), ...(words.length > 0 ? [wholeWords(words)] : [])];
    });
}

/** A filled part: one line of the buyer's words, cut at a word to `limit` characters; null when nothing is left. */
function cleanPart(raw: string, limit: number, withheld: readonly RegExp[]): string | null {
  let text = raw.normalize('NFKC').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ');
  text = text.replace(WEB_ADDRESS, ' ').replace(EMAIL_ADDRESS, ' ').replace(PHONE_NUMBER, ' ');
  for (const pattern of withheld) text = text.replace(pattern, ' ');
  text = text.replace(NOT_KEPT, ' ').replace(/\s+/g, ' ').trim();
  if (text.length > limit) {
    const cut = text.slice(0, limit + 1);
    const lastSpace = cut.lastIndexOf(' ');
    text = lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, limit);
  }
  // The end cut by hand: a pattern anchored at the end is tried from every place in a run of such marks.
  let end = text.length;
  while (end > 0 && HANGING_END.test(text.charAt(end - 1))) end -= 1;
  text = text.slice(0, end).replace(HANGING_START, '');
  return /\p{L}.*\p{L}/u.test(text) ? text : null;
}

/** "a, b; c" or one a line, numbered or bulleted, quoted or not: the first `most` items, each a part. */
function listItems(field: string, limit: number, withheld: readonly RegExp[], most = ITEMS_PER_FIELD): string[] {
  const items: string[] = [];
  const seen = new Set<string>();
  // Item by item, up to `most`: the items past it are never cleaned.
  for (const raw of field.split(/[\n,;|•]+|\s\/\s/)) {
    if (items.length >= most) break;
    const item = cleanPart(raw.replace(/^\s*(?:[-*]|\d{1,2}[.)])\s+/, ''), limit, withheld);
    if (item === null || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    items.push(item);
  }
  return items;
}

/** The first line or sentence of a field. */
function firstSentence(field: string): string {
  return field.trim().split(/\n|(?<=[.!?])\s/)[0] ?? '';
}

/** One question and what of the form it asks about: the keyword and the product it was filled with (null: its template takes none). */
export interface PlannedQuestion {
  question: string;
  keyword: string | null;
  product: string | null;
}

/**
 * The questions to put to each assistant: the templates filled with the form's words, spread
 * over its keywords and products, no question twice, `count` at most. A part that names the
 * business is left out; so is a template whose words the form did not give.
 */
export function buildQuestions(details: BusinessDetails, options: QuestionOptions): string[] {
  return planQuestions(details, options).map((planned) => planned.question);
}

/**
 * The questions as buildQuestions makes them, each with the keyword and the product it was
 * filled with, as the question puts them: the full audit's report says, search by search, who the
 * answers named.
 */
export function planQuestions(details: BusinessDetails, options: QuestionOptions): PlannedQuestion[] {
  return questionPlan(details, options).planned;
}

/** The questions, and the parts of the form left out of them because each names the business ("acme plumbing reviews"). */
export function questionPlan(details: BusinessDetails, options: QuestionOptions): { planned: PlannedQuestion[]; leftOut: string[] } {
  const withheld = personalPatterns(options.personal);
  const nameKeys = [options.brand ?? '', ...(options.alsoNames ?? [])].map(nameKey).filter((key) => key !== '');
  const findSite = options.domain === null ? () => -1 : siteFinder(options.domain);
  const namesBusiness = (part: string) => nameKeys.some((key) => findName(part, key) !== -1) || findSite(part) !== -1;
  const leftOut: string[] = [];
  const keep = (parts: (string | null)[]) =>
    parts.filter((part): part is string => {
      if (part === null) return false;
      if (!namesBusiness(part)) return true;
      if (!leftOut.includes(part)) leftOut.push(part);
      return false;
    });

  const description = cleanPart(firstSentence(details.businessDescription), PART_LIMITS.description, withheld);
  const values = new Map<string, string[]>([
    ['keyword', keep(listItems(details.targetKeywords, PART_LIMITS.keyword, withheld))],
    ['customer', keep([cleanPart(firstSentence(details.idealCustomer), PART_LIMITS.customer, withheld)])],
    ['product', keep(listItems(details.currentProducts, PART_LIMITS.product, withheld))],
    ['description', keep([description === null ? null : `${description}.`])],
  ] satisfies [ProbePlaceholder, string[]][]);

  // The templates whose every placeholder the form gave words for.
  const placeholders = (template: string) => [...template.matchAll(/\{([a-z]+)\}/g)].map((match) => match[1] ?? '');
  const fillable = options.templates.filter((template) => placeholders(template).every((name) => (values.get(name) ?? []).length > 0));
  const planned: PlannedQuestion[] = [];
  const asked = new Set<string>();
  const rounds = Math.max(1, ...[...values.values()].map((list) => list.length));
  // Round by round through the templates; the n-th template takes the n-th keyword (and
  // product), so that the first few questions already cover several keywords, and each round
  // moves every template on to the next one, so that no pair comes round again while another
  // is left (were it the n-th question's, 2 keywords and 12 templates would give 12 questions).
  for (let turn = 0; turn < rounds * fillable.length && planned.length < options.count; turn += 1) {
    const index = turn % fillable.length;
    const round = Math.floor(turn / fillable.length);
    const template = fillable[index] ?? '';
    const used: Partial<Record<string, string>> = {};
    const question = template.replace(/\{([a-z]+)\}/g, (_whole, name: string) => {
      const list = values.get(name) ?? [];
      const value = list[(index + round) % list.length] ?? '';
      used[name] = value;
      return value;
    });
    if (asked.has(question)) continue;
    asked.add(question);
    planned.push({ question, keyword: used.keyword ?? null, product: used.product ?? null });
  }
  return { planned, leftOut };
}

/** The first keyword the form gives, as the questions put it: what the probe asked the assistants about. */
export function firstKeyword(targetKeywords: string): string | null {
  return listItems(targetKeywords, PART_LIMITS.keyword, [], 1)[0] ?? null;
}

/** What a direct question names the business by: its name as read, the town its site gives, or else its site. */
export interface AboutSubject {
  brand: string | null;
  domain: string | null;
  /** The town the business's own site gives for it; null when it gives none. */
  town: string | null;
}

/** The longest town a question holds: a site's own words, cut like the form's. */
const TOWN_LIMIT = 40;

/**
 * The direct questions about the business (content/probe-prompts.yaml's aboutTemplates, the first
 * `count`): "{business}" filled with its name and town ("Acme Plumbing in Leeds"), or its site
 * ("the business at acme.co.uk") when no name was read; none when there is neither. The name and
 * the town are the business's public words from its own site, never the person's.
 */
export function aboutQuestions(subject: AboutSubject, count: number, templates: readonly string[]): string[] {
  const town = subject.town === null ? null : cleanPart(subject.town, TOWN_LIMIT, []);
  let business: string | null = null;
  if (subject.brand !== null) {
    // "Leeds Dental Care in Leeds" says the town twice.
    const inTown = town !== null && findName(subject.brand, nameKey(town)) === -1 ? ` in ${town}` : '';
    business = `${subject.brand}${inTown}`;
  } else if (subject.domain !== null) {
    business = `the business at ${subject.domain}`;
  }
  if (business === null) return [];
  const filled = business;
  return templates.slice(0, count).map((template) => template.replace('{business}', () => filled));
}
