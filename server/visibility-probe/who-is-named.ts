import { findName, isOwnAddress, JOINING_WORDS, nameKey, othersHost, siteFinder, WEB_ADDRESS } from '../business/names';

/**
 * Who an answer names: the business (by its brand, or its domain in the text or in a cited source),
 * where it comes among the businesses named, and who else is named. It reads text and knows
 * nothing of the network: no link in an answer is ever fetched.
 */

/** A page an answer cites, as the assistant's API gave it. */
export interface CitedSource {
  url: string;
  title: string | null;
}

/** The business the probe looks for: its brand, its site, or both. */
export interface BusinessIdentity {
  brand: string | null;
  /** Its own site (siteOf): "acmeplumbing.co.uk", without "www."; on a platform, its page there ("facebook.com/acme"). */
  domain: string | null;
}

export interface AnswerReading {
  named: boolean;
  /** 1 when it is the first business the text names; null when the text does not name it (a citation alone may). */
  position: number | null;
  /** The other businesses the text names, in order. */
  others: string[];
  /** Other domains the text writes or the sources cite. */
  otherDomains: string[];
  /** One of the sources is a page of the business's own site. */
  citesOwnSite: boolean;
}

/**
 * Leads that name no business, though an answer may set them out like names: "**Price**:",
 * "### Key considerations".
 */
const NOT_NAMES = new Set(
  [
    'summary', 'conclusion', 'overview', 'note', 'notes', 'tip', 'tips', 'pros', 'cons', 'price', 'prices', 'pricing',
    'cost', 'costs', 'reviews', 'review', 'rating', 'ratings', 'location', 'locations', 'experience', 'reputation',
    'availability', 'service', 'services', 'recommendation', 'recommendations', 'verdict', 'bottom line', 'final thoughts',
    'key takeaways', 'important', 'best for', 'top picks', 'option', 'options', 'contact', 'website', 'phone', 'address',
    'insurance', 'accreditation', 'accreditations', 'guarantee', 'guarantees', 'specialties', 'specialty', 'speciality',
    'strengths', 'considerations', 'key considerations', 'comparison', 'quick comparison', 'next steps', 'sources',
    'disclaimer', 'why', 'how', 'what', 'who', 'when', 'where', 'example', 'examples', 'step', 'features', 'benefits',
    'quality', 'value', 'support', 'customer service', 'response time', 'coverage', 'area', 'areas', 'expertise',
    'qualifications', 'certifications', 'credentials', 'track record', 'transparency', 'communication', 'local',
  ].map(nameKey),
);

/** Whether a lead reads as a business's name: short, capitalised word by word, not a heading word. */
function looksLikeName(candidate: string): boolean {
  const words = candidate.split(/\s+/);
  if (candidate.length < 2 || candidate.length > 60 || words.length > 8) return false;
  if (!/^[\p{Lu}\p{N}]/u.test(candidate) || /[?!]$/.test(candidate)) return false;
  const key = nameKey(candidate);
  if (key === '' || NOT_NAMES.has(key)) return false;
  return words.every((word, index) => index === 0 || JOINING_WORDS.has(word.toLowerCase()) || !/^\p{Ll}/u.test(word));
}

const TRAILING_PUNCTUATION = /[\s:;,.–—-]/;

/** Markdown around a name: emphasis, code, heading marks, a trailing colon or full stop. */
function stripMarkup(text: string): string {
  const name = text.replace(/[*_`#]+/g, '').replace(/\s+/g, ' ').trim();
  // Cut from the end by hand: a regular expression anchored at the end (`[…]+$`) is tried from
  // every position of a long run of such marks, which costs the square of the run.
  let end = name.length;
  while (end > 0 && TRAILING_PUNCTUATION.test(name.charAt(end - 1))) end -= 1;
  return name.slice(0, end);
}

/** The name a list item or heading leads with: its bold or linked words, else the words before a dash, colon or bracket. */
function leadName(content: string): string {
  const emphasised = /^(?:\*\*|__)(.+?)(?:\*\*|__)/.exec(content) ?? /^\[([^\]]+)\]\([^)]*\)/.exec(content);
  if (emphasised?.[1]) return stripMarkup(emphasised[1]);
  const cut = /\s[–—-]\s|:\s|\s\(|,\s|\.\s/.exec(content);
  return stripMarkup(cut ? content.slice(0, cut.index) : content);
}

interface Mention {
  name: string;
  /** Offset in the answer's text. */
  at: number;
  /** The list item or heading it leads, which may say whose it is by a domain ("Acme Ltd (acme.co.uk)"); else the name. */
  entry: string;
}

const LIST_ITEM = /^(\s*(?:#{1,6}\s+(?:\d{1,2}[.)]\s+)?|[-*+•]\s+|\d{1,2}[.)]\s+))(.+)$/;
const EMPHASIS = /\*\*([^*\n]{2,80}?)\*\*|__([^_\n]{2,80}?)__|\[([^\]\n]{2,80})\]\(/g;

/** Every business name the text sets out: the leads of its list items and headings, and its bold or linked names. */
export function namesInText(text: string): Mention[] {
  const mentions: Mention[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const item = LIST_ITEM.exec(line);
    const lead = item?.[1] !== undefined && item[2] !== undefined ? leadName(item[2]) : null;
    if (item?.[1] !== undefined && lead !== null && looksLikeName(lead)) mentions.push({ name: lead, at: lineStart + item[1].length, entry: line });
    for (const match of line.matchAll(EMPHASIS)) {
      const name = stripMarkup(match[1] ?? match[2] ?? match[3] ?? '');
      if (name !== lead && looksLikeName(name) && !/^[\w.-]+\.[a-z]{2,}$/i.test(name)) mentions.push({ name, at: lineStart + match.index, entry: name });
    }
    lineStart += line.length + 1;
  }
  return mentions.sort((a, b) => a.at - b.at);
}

// The endings of most domains a UK answer names, and the path after one ("yell.com/biz/acme-123");
// a bare word with a dot ("Node.js", "e.g.") is not one.
const BARE_DOMAIN = /(?<![\w@.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:co\.uk|org\.uk|ac\.uk|gov\.uk|com|uk|org|net|io|ai|co|biz|info|eu|ie|london|scot|wales|app|dev|shop|online|agency|ee|page|gl))(?![\w-])(\/[^\s<>()[\]"']*)?/gi;

const SENTENCE_PUNCTUATION = /[.,;:!?]/;

/** An address without the full stop or comma of the sentence it ends ("see facebook.com/acme."). */
function withoutSentencePunctuation(address: string): string {
  // Cut from the end by hand, as stripMarkup does: linear however long the run.
  let end = address.length;
  while (end > 0 && SENTENCE_PUNCTUATION.test(address.charAt(end - 1))) end -= 1;
  return address.slice(0, end);
}

/** The web addresses the text writes: with a scheme or "www.", in links, and bare ("acme.co.uk", "facebook.com/acme"). */
function addressesInText(text: string): string[] {
  const written = [...text.matchAll(WEB_ADDRESS)].map((match) => match[0]);
  const bare = [...text.replace(WEB_ADDRESS, ' ').matchAll(BARE_DOMAIN)].map((match) => `${match[1] ?? ''}${match[2] ?? ''}`);
  return [...written, ...bare].map(withoutSentencePunctuation);
}

/**
 * Where a source is. Gemini's sources are redirects through Google with the site's domain as their
 * title: the title says which site the page is on (not which page), and the redirect is never followed.
 */
function sourceAddress(source: CitedSource): string {
  const title = source.title?.trim() ?? '';
  return /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i.test(title) ? title : source.url;
}

export function readAnswer(text: string, sources: readonly CitedSource[], business: BusinessIdentity): AnswerReading {
  const brandKey = business.brand ? nameKey(business.brand) : '';
  const site = business.domain;
  const findSite = site === null ? () => -1 : siteFinder(site);
  const isBusiness = (text: string) => findName(text, brandKey) !== -1 || findSite(text) !== -1;

  // The earliest of the two: an answer may write the site before the name.
  const textMentions = [findName(text, brandKey), findSite(text)].filter((at) => at !== -1);
  const firstMention = textMentions.length > 0 ? Math.min(...textMentions) : null;
  const citesOwnSite = sources.some((source) => isOwnAddress(sourceAddress(source), site));

  // An answer is untrusted text, as long as its cap allows: every step here is linear in it.
  const others: Mention[] = [];
  const seen = new Set<string>();
  for (const mention of namesInText(text)) {
    if (isBusiness(mention.entry)) continue;
    const key = nameKey(mention.name);
    if (seen.has(key)) continue;
    seen.add(key);
    others.push(mention);
  }
  // Another business's page on a platform the business is on too (yell.com) is another's site.
  const domains = [...addressesInText(text), ...sources.map(sourceAddress)].map((address) => othersHost(address, site));
  return {
    named: firstMention !== null || citesOwnSite,
    position: firstMention === null ? null : 1 + others.filter((other) => other.at < firstMention).length,
    others: others.map((other) => other.name),
    otherDomains: [...new Set(domains.filter((host): host is string => host !== null))],
    citesOwnSite,
  };
}
