import { probePageWords } from '../../shared/generated/probe-page-words';
import { searchWords } from '../../shared/generated/search-words';
import { JOINING_WORDS, nameKey } from './names';
import ukPlaces from './uk-places.json';

/**
 * The words a buyer searches with: what a business does (trades, descriptors: content/search-words.yaml),
 * where (the UK's towns, cities and counties: uk-places.json, from GeoNames), and the words the
 * prospect typed about it. A phrase made only of these says what or where, never who: "Leeds
 * Plumbers" is a search, "Acme Plumbing" a name. Every check here is on words as names are
 * compared (nameKey): letter case, accents and punctuation aside.
 */

/** What the prospect typed about the business: its searches, products, customers and description. */
export interface TypedWords {
  keywords?: string;
  products?: string;
  customer?: string;
  description?: string;
}

const keysOf = (phrases: readonly string[]) => phrases.map(nameKey).filter((key) => key !== '');

const notPlaces = new Set(keysOf(searchWords.notPlaces));
const PLACES: ReadonlySet<string> = new Set([...keysOf(ukPlaces.places), ...keysOf(searchWords.regions)].filter((key) => !notPlaces.has(key)));
const TRADE_WORDS: ReadonlySet<string> = new Set(keysOf([...searchWords.trades, ...searchWords.descriptors]));
/** The longest phrase of either list, in words: how far a match is looked for from each word. */
const LONGEST_PHRASE = Math.max(...[...PLACES, ...TRADE_WORDS].map((key) => key.split(' ').length));
/** The words a page says about itself ("home", "welcome", "contact"): content/probe-page-words.yaml's, one word each. */
const PAGE_WORDS: ReadonlySet<string> = new Set(keysOf(probePageWords.generic).filter((key) => !key.includes(' ')));
/** Words of a name that make it no more a name: "and", "the", "of" (nameKey writes "&" as "and"). */
const JOINING: ReadonlySet<string> = new Set([...JOINING_WORDS].map(nameKey).filter((key) => key !== ''));

/**
 * The singular a plural may stand for: "plumbers" for "plumber", "surgeries" for "surgery",
 * "boxes" for "box" (never "pet" for "petes"); and a place a possessive names ("yorkshires" of
 * "Yorkshire's", once its apostrophe is gone).
 */
function singulars(word: string): string[] {
  if (word.length < 4 || !word.endsWith('s')) return [];
  const forms = [word.slice(0, -1)];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (/(?:s|x|z|ch|sh)es$/.test(word)) forms.push(word.slice(0, -2));
  return forms;
}

const isTradeWord = (phrase: string) => TRADE_WORDS.has(phrase) || singulars(phrase).some((form) => TRADE_WORDS.has(form));
const isPlacePhrase = (phrase: string) => PLACES.has(phrase) || singulars(phrase).some((form) => PLACES.has(form));

/** Whether a phrase as written names a UK place ("Leeds", "Newcastle upon Tyne", "West Yorkshire"): a town of an address. */
export const isPlace = (phrase: string): boolean => isPlacePhrase(nameKey(phrase));

/** The words of a field as typed, its e-mail and web addresses left out ("jane@acme.example" is no search). */
function wordsOf(field: string): string[] {
  return field
    .slice(0, 5_000)
    .split(/\s+/)
    .filter((token) => !/[@/]|\p{L}\.\p{L}/u.test(token))
    .flatMap((token) => token.split(/[^\p{L}\p{N}'’&]+/u));
}

/**
 * The words the prospect typed that are searches: every word of their keywords and products, and
 * the lower-case words of their customers and description (a name in them is written with
 * capitals: "Acme is a family firm"). A prospect who types their own name as a keyword makes it a
 * search word too: the business is then looked for by its address, and the agency's mail says so.
 */
export function typedSearchWords(typed: TypedWords): ReadonlySet<string> {
  const words = new Set<string>();
  const add = (word: string) => {
    const key = nameKey(word);
    if (key !== '' && !key.includes(' ')) words.add(key);
  };
  for (const field of [typed.keywords ?? '', typed.products ?? '']) for (const word of wordsOf(field)) add(word);
  for (const field of [typed.customer ?? '', typed.description ?? '']) for (const word of wordsOf(field)) if (/^\p{Ll}/u.test(word)) add(word);
  return words;
}

/** How a name's words read: the words of its own, if any ("acme" of "Acme Plumbing Leeds"). */
function ownWords(name: string, typed: ReadonlySet<string> = new Set()): string[] {
  const words = nameKey(name).split(' ').filter((word) => word !== '');
  const own: string[] = [];
  // From each word, the longest place or trade phrase that starts there; else the word alone.
  for (let at = 0; at < words.length; ) {
    let matched = 0;
    for (let length = Math.min(LONGEST_PHRASE, words.length - at); length >= 1 && matched === 0; length -= 1) {
      const phrase = words.slice(at, at + length).join(' ');
      if (isPlacePhrase(phrase) || isTradeWord(phrase)) matched = length;
    }
    if (matched > 0) {
      at += matched;
      continue;
    }
    const word = words[at] ?? '';
    // A number alone ("24", "1") or a page's word about itself ("home", "about") says nothing of whose the business is.
    const says = !JOINING.has(word) && !PAGE_WORDS.has(word) && /\p{L}/u.test(word);
    if (says && !typed.has(word) && !singulars(word).some((form) => typed.has(form))) own.push(word);
    at += 1;
  }
  return own;
}

/** Whether a phrase is made only of search words (and joining words): a description or a search, not a name. */
export function isSearchPhrase(name: string, typed: ReadonlySet<string> = new Set()): boolean {
  return ownWords(name, typed).length === 0;
}
