import { domainKey, findDomain, findName, hostBelongsTo, nameKey } from './names';

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

/** The business the probe looks for: its brand, its domain, or both. */
export interface BusinessIdentity {
  brand: string | null;
  /** "acmeplumbing.co.uk", without "www." */
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

/** Words that may start lower case inside a business name ("Bank of England", "Smith and Sons"). */
const JOINING_WORDS = new Set(['and', 'of', 'the', 'for', 'in', 'on', 'at', 'by', 'with', 'de', 'la', 'le', 'du', 'des', 'von', 'van', '&']);

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
function namesInText(text: string): Mention[] {
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

// The endings of most domains a UK answer names; a bare word with a dot ("Node.js", "e.g.") is not one.
const BARE_DOMAIN = /(?<![\w@.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:co\.uk|org\.uk|ac\.uk|gov\.uk|com|uk|org|net|io|ai|co|biz|info|eu|ie|london|scot|wales|app|dev|shop|online|agency))(?![\w-])/gi;
const WEB_ADDRESS = /https?:\/\/[^\s<>()[\]"']+/gi;

function hostOf(url: string): string | null {
  try {
    return domainKey(new URL(url).hostname);
  } catch {
    return null;
  }
}

/** Domains the text writes: in web addresses and links, and bare ("acme.co.uk"). */
function domainsInText(text: string): string[] {
  const hosts = [...text.matchAll(WEB_ADDRESS)].map((match) => hostOf(match[0]));
  const bare = [...text.replace(WEB_ADDRESS, ' ').matchAll(BARE_DOMAIN)].map((match) => domainKey(match[1] ?? ''));
  return [...hosts, ...bare].filter((host): host is string => host !== null && host.includes('.'));
}

/**
 * The site a source is from. Gemini's sources are redirects through Google with the site's domain
 * as their title: the title says where the page is, and the redirect is never followed.
 */
function sourceDomain(source: CitedSource): string | null {
  const title = source.title?.trim() ?? '';
  if (/^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i.test(title)) return domainKey(title);
  return hostOf(source.url);
}

export function readAnswer(text: string, sources: readonly CitedSource[], business: BusinessIdentity): AnswerReading {
  const brandKey = business.brand ? nameKey(business.brand) : '';
  const { domain } = business;
  const isBusiness = (text: string) => findName(text, brandKey) !== -1 || (domain !== null && findDomain(text, domain) !== -1);
  const isOwnDomain = (host: string) => domain !== null && hostBelongsTo(host, domain);

  const textMentions = [findName(text, brandKey), domain === null ? -1 : findDomain(text, domain)].filter((at) => at !== -1);
  const firstMention = textMentions.length > 0 ? Math.min(...textMentions) : null;
  const citesOwnSite = sources.some((source) => {
    const host = sourceDomain(source);
    return host !== null && isOwnDomain(host);
  });

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
  const domains = [...domainsInText(text), ...sources.map(sourceDomain).filter((host): host is string => host !== null)];
  return {
    named: firstMention !== null || citesOwnSite,
    position: firstMention === null ? null : 1 + others.filter((other) => other.at < firstMention).length,
    others: others.map((other) => other.name),
    otherDomains: [...new Set(domains.filter((host) => !isOwnDomain(host)))],
    citesOwnSite,
  };
}
