import { probePageWords } from '../../shared/generated/probe-page-words';
import { probePlatforms } from '../../shared/generated/probe-platforms';
import type { HomePageAnalysis } from '../site-check/analysers/home-page';
import type { SiteCheckReport } from '../site-check/check-report';
import { JOINING_WORDS, nameKey, siteLabel, siteOf } from './names';

/**
 * The business's name as a person reads it on its home page, which the probe then searches the
 * answers for: the name its structured data declares, else og:site_name, else the part of the
 * page's title that is a name rather than a page word ("Home"), a page's own title or a slogan.
 * None of these: the probe looks for the business by its web address alone. The words that are
 * never a name are content/probe-page-words.yaml, and the platforms' names.
 */

/** Where the name searched for came from; `domain`: the site gave none, and only its address is searched for. */
export type NameSource = 'structured data' | 'og:site_name' | 'page title' | 'domain' | 'command line';

export interface BusinessName {
  /** The name the answers are searched for, word by word; null: the site gives none, and only its address is searched for. */
  name: string | null;
  source: NameSource;
  /** The home page's title as the site check read it (null: none): what a name from the title was cut from. */
  title: string | null;
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

/**
 * A part of a title that describes rather than names: long, or holding a describing word
 * ("Plumbers in Leeds", "Call now"), or a lower-case word among capitalised ones ("Emergency
 * plumbers in Leeds"), or a cry ("Fast, friendly plumbers!").
 */
function describes(part: string): boolean {
  const words = part.split(' ');
  if (words.length > MOST_WORDS_IN_A_NAME || /[!?]$/.test(part)) return true;
  if (words.some((word) => DESCRIBING.has(nameKey(word)))) return true;
  const lowerCase = (word: string) => /^\p{Ll}/u.test(word) && !/\p{Lu}/u.test(word) && !JOINING_WORDS.has(word);
  // A title written all in lower case is the site's style, not a sentence.
  return words.some(lowerCase) && !words.every((word) => lowerCase(word) || JOINING_WORDS.has(word));
}

/** A title's parts, at the separators titles use: "Home | Acme", "Acme – Plumbers in Leeds", "Acme: Home". */
function titleParts(title: string): string[] {
  // The site check keeps a title with each run of spaces made one, so every separator here is of bounded length.
  return title
    .split(/ ?[|·•»«~–—] ?| - |: /)
    .map((part) => withoutLeading(part.trim()).trim())
    .filter((part) => !isGeneric(part));
}

/**
 * The title part that names the business: the one its site's address names
 * ("okaforplumbing.co.uk" or "facebook.com/okaforplumbing": "Okafor Plumbing"), as a whole, else
 * within it, else the first part that names rather than describes. Null when none does.
 */
function nameInTitle(title: string, site: string | null): string | null {
  const parts = titleParts(title);
  const label = site === null ? '' : siteLabel(site);
  if (label.length >= 3) {
    const compact = (part: string) => nameKey(part).replace(/ /g, '');
    const whole = parts.find((part) => compact(part) === label);
    if (whole !== undefined) return whole;
    const within = parts.find((part) => compact(part).length >= 3 && (label.includes(compact(part)) || compact(part).includes(label)));
    if (within !== undefined) return within;
  }
  return parts.find((part) => !describes(part)) ?? null;
}

/** The name a home page gives the business, read as a person would; `site` is its own (siteOf), which a title part may match. */
export function nameFromPage(page: Pick<HomePageAnalysis, 'organizationNames' | 'siteName' | 'title'>, site: string | null): BusinessName {
  const title = page.title;
  const declared = page.organizationNames.find((name) => !isGeneric(name));
  if (declared !== undefined) return { name: declared, source: 'structured data', title };
  if (page.siteName !== null && !isGeneric(page.siteName)) return { name: page.siteName, source: 'og:site_name', title };
  const fromTitle = title === null ? null : nameInTitle(title, site);
  return fromTitle === null ? { name: null, source: 'domain', title } : { name: fromTitle, source: 'page title', title };
}

/** The business's name from its site check; null when the check read no page (the probe then looks for its address alone). */
export function nameFromSiteCheck(report: SiteCheckReport): BusinessName | null {
  const page = report.facts?.page;
  if (!page) return null;
  // A check stored before the page's names were kept apart has neither list: its title is read.
  const { organizationNames = [], siteName = null, title } = page as Partial<HomePageAnalysis> & Pick<HomePageAnalysis, 'title'>;
  return nameFromPage({ organizationNames, siteName, title }, siteOf(report.url));
}
