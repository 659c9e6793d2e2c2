import { escapeRegExp } from '../../shared/escape-reg-exp';
import { probePlatforms } from '../../shared/generated/probe-platforms';

/**
 * How the probe compares business names and web addresses: the same rules for the questions it
 * leaves out (one must never name the business) and for the answers it reads.
 */

/** Letters and digits of every script stay; an apostrophe goes ("Joe's" is "joes"); "&" reads as "and". */
function normalisedCharacters(char: string): string {
  if (char === '&') return ' and ';
  if (char === "'" || char === '\u2019') return '';
  return char.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Text as names are compared (lower case, no accents, each run of punctuation and space one
 * space), with the offset in the original text of each character kept, so that a match can be
 * placed in the answer it came from.
 */
function normalise(text: string): { normal: string; offsets: number[] } {
  let normal = '';
  const offsets: number[] = [];
  let afterSpace = true;
  let index = 0;
  for (const char of text) {
    for (const piece of normalisedCharacters(char)) {
      if (/[\p{L}\p{N}]/u.test(piece)) {
        normal += piece;
        offsets.push(index);
        afterSpace = false;
      } else if (!afterSpace) {
        normal += ' ';
        offsets.push(index);
        afterSpace = true;
      }
    }
    index += char.length;
  }
  return { normal: normal.trimEnd(), offsets };
}

/**
 * A business name as it is compared: "Acme Plumbing Ltd.", "ACME-plumbing", "Acme Plumbing
 * Limited" and "The Acme Plumbing LLP" are one business (a company's legal ending, and "The"
 * before a name of two words or more, are how it is written, not who it is). '' when nothing of it
 * is left.
 */
export function nameKey(name: string): string {
  return normalise(name)
    .normal.replace(/ (?:ltd|limited|llp|plc)$/, '')
    .replace(/^the (?=\S+ \S)/, '');
}

/**
 * Where `text` first names the business whose key is `key`, as whole words (the offset in `text`),
 * or -1. "Acme" is not named by "Acmeson".
 */
export function findName(text: string, key: string): number {
  if (key === '') return -1;
  const { normal, offsets } = normalise(text);
  const at = ` ${normal} `.indexOf(` ${key} `);
  return at === -1 ? -1 : (offsets[at] ?? -1);
}

/** Words that may start lower case inside a business name ("Bank of England", "Smith and Sons"). */
export const JOINING_WORDS: ReadonlySet<string> = new Set(['and', 'of', 'the', 'for', 'in', 'on', 'at', 'by', 'with', 'de', 'la', 'le', 'du', 'des', 'von', 'van', '&']);


/**
 * A web address written in text, with its scheme or from "www.": up to a space, a quote or a
 * bracket, so that a Markdown link's address ends at its ")".
 */
export const WEB_ADDRESS = /\b(?:https?:\/\/|www\.)[^\s<>()[\]"']+/gi;

/** A host as it is compared: lower case, without "www." and a final dot. */
function domainKey(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

/** A web address as it is compared: its host (domainKey) and the parts of its path, in lower case. */
interface Address {
  host: string;
  path: string[];
}

/** An address as a person or an answer writes it ("acme.co.uk/contact", "https://www.acme.co.uk"); null when it is none. */
function addressOf(written: string): Address | null {
  const trimmed = written.trim();
  if (trimmed === '') return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    const host = domainKey(url.hostname);
    if (!host.includes('.')) return null;
    return { host, path: url.pathname.split('/').filter((part) => part !== '').map((part) => part.toLowerCase()) };
  } catch {
    return null;
  }
}

/** The host of a web address as it is compared ("acme.co.uk" of "https://www.Acme.co.uk/x"); null when it is none. */
export function hostOf(written: string): string | null {
  return addressOf(written)?.host ?? null;
}

/** Whether a host is the domain or one of its subdomains ("shop.acme.co.uk" is acme.co.uk's). */
function hostBelongsTo(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** The platform (content/probe-platforms.yaml) a host is on, with the platform's own host. */
function platformOf(host: string): { host: string; pagePath: number } | null {
  for (const platform of probePlatforms.platforms) {
    const own = platform.hosts.find((platformHost) => hostBelongsTo(host, platformHost));
    if (own !== undefined) return { host: own, pagePath: platform.pagePath };
  }
  return null;
}

/**
 * The business's own site, from its web address as typed: its domain ("acmeplumbing.co.uk"), or,
 * when the address is a page on a platform, that page, host and path ("facebook.com/acme",
 * "yell.com/biz/acme-123"): the rest of the platform is other businesses'. Null when it is no
 * address, or a platform's address that names no one business's page.
 */
export function siteOf(address: string): string | null {
  const parts = addressOf(address);
  if (!parts) return null;
  const platform = platformOf(parts.host);
  if (!platform) return parts.host;
  const page = parts.path.slice(0, platform.pagePath);
  // A script's address ("facebook.com/profile.php?id=123") says its page in the query, which is not compared.
  if (page.length < platform.pagePath || page.some((part) => part.endsWith('.php'))) return null;
  return [platform.host, ...page].join('/');
}

/** A site (siteOf) as its host and the path of its page ([] for a whole domain). */
function siteParts(site: string): Address {
  const [host = '', ...path] = site.split('/');
  return { host, path };
}

function isOwn(address: Address, site: string): boolean {
  const own = siteParts(site);
  return hostBelongsTo(address.host, own.host) && own.path.every((part, index) => address.path[index] === part);
}

/** Whether a web address (or a bare domain, or a domain and path) is on the business's own site. */
export function isOwnAddress(written: string, site: string | null): boolean {
  const address = addressOf(written);
  return address !== null && site !== null && isOwn(address, site);
}

/** The host of a web address that is another's than the business's (its own site, or its page on a platform): null for its own, or for no address. */
export function othersHost(written: string, site: string | null): string | null {
  const address = addressOf(written);
  if (address === null || (site !== null && isOwn(address, site))) return null;
  return address.host;
}

/** Second-level labels under a country's domain: acme.co.uk's name is "acme", not "co". */
const SECOND_LEVEL = new Set(['co', 'org', 'ac', 'gov', 'ltd', 'plc', 'me', 'net', 'com', 'sch', 'nhs']);

/**
 * The name a site's address gives, letters and digits only: "okaforplumbing" of
 * okaforplumbing.co.uk and of shop.okaforplumbing.co.uk, "okafor" of facebook.com/okafor. '' for
 * an IP address.
 */
export function siteLabel(site: string): string {
  const { host, path } = siteParts(site);
  const last = path.at(-1);
  if (last !== undefined) {
    let word = last;
    try {
      word = decodeURIComponent(last);
    } catch {
      // Kept as written.
    }
    return nameKey(word).replace(/ /g, '');
  }
  if (/^[\d.]+$/.test(host)) return '';
  const labels = host.split('.').slice(0, -1);
  if (labels.length > 1 && SECOND_LEVEL.has(labels.at(-1) ?? '')) labels.pop();
  return nameKey(labels.at(-1) ?? '').replace(/ /g, '');
}

/**
 * Where a text writes the business's site, as a word of its own, or -1: the domain or a subdomain
 * ("www.acme.co.uk/contact"), or, for a platform's page, that page ("facebook.com/acme", not
 * "facebook.com/acmeplumbing" nor facebook.com alone). Made once per site: an answer is searched
 * for it many times.
 */
export function siteFinder(site: string): (text: string) => number {
  const { host, path } = siteParts(site);
  const written = [host, ...path].map(escapeRegExp).join('/');
  // One place to start per word (the look-behind), and a literal after the subdomains: linear in the text.
  const pattern = new RegExp(`(?<![\\w.-])(?:[a-z0-9-]+\\.)*${written}(?![\\w-]|\\.[a-z0-9])`, 'i');
  return (text) => pattern.exec(text)?.index ?? -1;
}
