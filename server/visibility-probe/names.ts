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
 * A business name as it is compared: "Acme Plumbing Ltd.", "ACME-plumbing" and "Acme Plumbing
 * Limited" are one business. '' when nothing of it is left.
 */
export function nameKey(name: string): string {
  return normalise(name).normal.replace(/ (ltd|limited)$/, '');
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

/** A host as it is compared: lower case, without "www." and a final dot. */
export function domainKey(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

/** The domain of a web address as a person types it ("acme.co.uk/contact", "https://www.acme.co.uk"); null when it is no address. */
export function domainOfSite(address: string): string | null {
  const trimmed = address.trim();
  if (trimmed === '') return null;
  try {
    const { hostname } = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
    return hostname.includes('.') ? domainKey(hostname) : null;
  } catch {
    return null;
  }
}

/** Whether a host is the domain or one of its subdomains ("shop.acme.co.uk" is acme.co.uk's). */
export function hostBelongsTo(host: string, domain: string): boolean {
  const key = domainKey(host);
  return key === domain || key.endsWith(`.${domain}`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `text` first writes the domain (or a subdomain of it) as a word of its own, or -1. */
export function findDomain(text: string, domain: string): number {
  const pattern = new RegExp(`(?<![\\w.-])(?:[a-z0-9-]+\\.)*${escapeRegExp(domain)}(?![\\w-]|\\.[a-z0-9])`, 'i');
  return pattern.exec(text)?.index ?? -1;
}
