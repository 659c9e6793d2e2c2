import { SAXParser, type StartTag } from 'parse5-sax-parser';
import { excerpt } from '../../../shared/excerpt';
import type { FetchedText } from './fetched-text';
import organizationTypes from './organization-types.json';

/**
 * The page as served, read the way most AI crawlers read it: the HTML as it arrives, no
 * JavaScript run. What it says about itself in the head, how much readable text the HTML
 * carries, the structured data it declares, and the business's name.
 *
 * The page is a stranger's, so it is read with parse5's SAX tokenizer (the HTML standard's
 * tokenizer, without its tree builder): one pass, no tree, no list of children or stack of open
 * elements to search, so its cost grows with the length of the page whatever its shape (a tree
 * builder is quadratic on thousands of unclosed tags). Every value kept is cut to a length a
 * report can show, and lists are capped: what the page says reaches the database, the mail and
 * the prospect's page bounded.
 */
export interface HomePageAnalysis {
  status: number;
  url: string;
  https: boolean;
  contentType: string;
  /** The body is an HTML document (the other facts are read from it only then). */
  html: boolean;
  /** Words of readable text in the body (head, scripts, styles, templates, SVG and <noscript> left out). */
  textWords: number;
  title: string | null;
  metaDescription: string | null;
  /** The canonical link, made absolute (null: none). */
  canonical: string | null;
  lang: string | null;
  /** Where a noindex was found: the robots meta tag, the X-Robots-Tag header, or nowhere. */
  noindex: 'meta' | 'header' | null;
  openGraph: { title: boolean; description: boolean; image: boolean };
  /** The @types the JSON-LD blocks declare, nested nodes included, in order of appearance (capped). */
  jsonLdTypes: string[];
  jsonLdBlocks: number;
  /** Blocks that are not valid JSON. */
  jsonLdInvalid: number;
  /** The parser's complaint about each of the first few blocks that are not valid JSON. */
  jsonLdErrors: string[];
  /** A <link rel="alternate" type="text/markdown">, made absolute. */
  markdownLink: string | null;
  /**
   * The names the page's structured data gives its Organization nodes (LocalBusiness and every
   * other subtype included), in order of appearance, the first few: on a platform's page one may
   * be the platform's own. Which of these, og:site_name, the title, the copyright line, the logo
   * or the first heading names the business is read by server/business/business-name.ts.
   */
  organizationNames: string[];
  /** og:site_name */
  siteName: string | null;
  /**
   * The page's copyright lines, from a little before the "©" (or "Copyright", "(c)") to the end of
   * the block it stands in ("© 2026 Acme Plumbing Ltd. All rights reserved."), the last few: the
   * footer's is last.
   */
  copyrightLines: string[];
  /** The alternative text of the page's logo: the first image whose class, id, file or text says "logo". */
  logoText: string | null;
  /** The text of the page's first <h1>. */
  firstHeading: string | null;
  /** The body was cut at the size limit. */
  truncated: boolean;
}

/** How much of each value a report keeps. */
export const PAGE_TEXT_LIMITS = {
  title: 200,
  description: 300,
  url: 2000,
  lang: 35,
  name: 120,
  /** Organization names kept. */
  names: 5,
  /** Copyright lines kept (the last ones), and the most of each read. */
  copyrightLines: 3,
  copyrightLine: 200,
  /** JSON-LD types listed (an Organization type is always kept, whatever comes before it). */
  types: 30,
  typeName: 100,
  errors: 3,
  error: 200,
} as const;

const ORGANIZATION_TYPES: ReadonlySet<string> = new Set(organizationTypes.types);

/** Whether one of the types says who the business is: schema.org's Organization or a type below it. */
export function declaresOrganization(types: readonly string[]): boolean {
  return types.some((type) => ORGANIZATION_TYPES.has(type));
}

/** "schema:LocalBusiness" and "https://schema.org/LocalBusiness" are LocalBusiness. */
export function shortType(type: string): string {
  return type.replace(/^(https?:\/\/schema\.org\/|schema:)/, '');
}

/** A value as a report keeps it: whitespace collapsed, cut to `limit` characters (null when empty). */
function bounded(value: string | undefined, limit: number): string | null {
  if (value === undefined) return null;
  // Only what can be shown is read: a value may be megabytes long.
  return excerpt(value.slice(0, limit * 4), limit) || null;
}

/**
 * Visits every node of a JSON-LD value once, in the order it is written, with its types (short
 * names: "Plumber", not "https://schema.org/Plumber"). Walked with a stack of its own, so a deeply
 * nested value cannot overflow the call stack.
 */
export function eachJsonLdNode(value: unknown, visit: (node: Record<string, unknown>, types: string[]) => void): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index -= 1) stack.push(node[index]);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    const declared = record['@type'];
    visit(record, (Array.isArray(declared) ? declared : [declared]).filter((type): type is string => typeof type === 'string').map(shortType));
    // Its children in the order they are written (the last pushed is read first).
    const entries = Object.entries(record);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index] ?? ['', null];
      if (key !== '@type' && child !== null && typeof child === 'object') stack.push(child);
    }
  }
}

/** What one JSON-LD value declares: its types, into `types` (a Set, capped), and the names of its Organization nodes, into `organizationNames` (capped). */
function readJsonLd(value: unknown, types: Set<string>, organizationNames: string[]): void {
  eachJsonLdNode(value, (record, nodeTypes) => {
    for (const type of nodeTypes) {
      if (types.size < PAGE_TEXT_LIMITS.types || ORGANIZATION_TYPES.has(type)) types.add(type.slice(0, PAGE_TEXT_LIMITS.typeName));
    }
    if (organizationNames.length < PAGE_TEXT_LIMITS.names && typeof record.name === 'string' && nodeTypes.some((type) => ORGANIZATION_TYPES.has(type))) {
      const name = bounded(record.name, PAGE_TEXT_LIMITS.name);
      if (name !== null && !organizationNames.includes(name)) organizationNames.push(name);
    }
  });
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** What a regular expression's \s matches: ECMAScript's white space and line terminators. */
const isSpace = (code: number) =>
  code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;

const isLetterOrDigit = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(text.codePointAt(at)!));
};

/**
 * Words a reader would count in a run of text: runs of non-space containing a letter or digit.
 * Read a character at a time, with no regular expression over the run: a page's run of text has no
 * length bound but the page's, and a pattern such as /\S+/ over megabytes without a space can
 * exhaust the regular-expression engine's backtracking stack.
 */
function countWords(text: string): number {
  let words = 0;
  // Whether the run of non-space being read is counted already: a space starts a new one.
  let counted = false;
  for (let at = 0; at < text.length; at += 1) {
    if (isSpace(text.charCodeAt(at))) counted = false;
    else if (!counted && isLetterOrDigit(text, at)) {
      counted = true;
      words += 1;
    }
  }
  return words;
}

function absolute(href: string | undefined, base: string): string | null {
  if (!href?.trim()) return null;
  try {
    const url = new URL(href.trim(), base).href;
    return url.length > PAGE_TEXT_LIMITS.url ? null : url;
  } catch {
    return null;
  }
}

/**
 * Whether robots directives ("noindex, nofollow", "googlebot: none") include noindex or none;
 * "max-image-preview: none" is about images, not indexing.
 */
function saysNoindex(directives: string): boolean {
  const tokens = directives.slice(0, 1000).toLowerCase().split(/[\s,]+/);
  return tokens.some((token, index) => {
    const bare = token.replace(/^[\w-]+:/, (prefix) => (prefix.startsWith('max-') ? '~' : ''));
    if (bare === 'noindex') return true;
    return bare === 'none' && !(tokens[index - 1] ?? '').startsWith('max-');
  });
}

/** Elements whose content is never shown as text (the head is followed apart: it may end unclosed). */
const NOT_TEXT = new Set(['title', 'script', 'style', 'noscript', 'template', 'svg', 'math', 'textarea']);

/** Elements that never have content or an end tag. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** What may stand in the head; any other element, or text, starts the body (as a browser reads it). */
const HEAD_CONTENT = new Set(['base', 'basefont', 'bgsound', 'link', 'meta', 'title', 'noscript', 'noframes', 'style', 'script', 'template']);

/** The first value of an attribute, as the HTML standard keeps it (a repeated attribute is ignored). */
function attribute(tag: StartTag, name: string): string | undefined {
  return tag.attrs.find((attr) => attr.name === name)?.value;
}

const relIncludes = (tag: StartTag, rel: string) => (attribute(tag, 'rel') ?? '').slice(0, 200).toLowerCase().split(/\s+/).includes(rel);

/** Where a copyright line starts: "©", "Copyright", or "(c)" before a year. */
const COPYRIGHT = /©|\bcopyright\b|\(c\)\s{0,3}\d/i;

/** Elements that end a line of text where they start or end: a copyright line runs to the first. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'dd', 'div', 'dl', 'dt', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hr', 'html', 'li', 'main', 'nav', 'ol', 'p', 'section', 'table', 'td', 'th', 'tr', 'ul',
]);

/** The class or id of an element that holds the site's logo ("site-logo", "navbar-brand", WordPress's "site-title"). */
const LOGO_HOLDER = /logo|site-title|site-name|site-branding|navbar-brand/i;

/** An image that is the logo: its class, id or file name says so, or its text ("Acme logo"). */
function isLogoImage(tag: StartTag): boolean {
  const file = (attribute(tag, 'src') ?? '').split(/[?#]/)[0]?.split('/').at(-1) ?? '';
  return LOGO_HOLDER.test(`${attribute(tag, 'class') ?? ''} ${attribute(tag, 'id') ?? ''}`) || /logo/i.test(file) || /\blogo\b/i.test(attribute(tag, 'alt') ?? '');
}

/**
 * The text of one element (the first <h1>, the logo's holder), from its start tag to its end,
 * nested elements of the same name counted so that an inner one does not end it; kept to `limit`
 * characters. One counter, no stack.
 */
class ElementText {
  private depth = 0;
  private text = '';
  done = false;

  constructor(
    private readonly tagName: string,
    private readonly limit: number,
  ) {}

  get open(): boolean {
    return this.depth > 0;
  }

  start(): void {
    this.depth = 1;
  }

  startTag(name: string, selfClosing: boolean): void {
    if (this.depth > 0 && name === this.tagName && !selfClosing) this.depth += 1;
  }

  /** True when this end tag closes the element. */
  endTag(name: string): boolean {
    if (this.depth === 0 || name !== this.tagName) return false;
    this.depth -= 1;
    if (this.depth === 0) this.done = true;
    return this.done;
  }

  add(text: string): void {
    if (this.text.length < this.limit * 4) this.text += text;
  }

  value(): string | null {
    return bounded(this.text, this.limit);
  }
}

/**
 * Another reader of the page, fed in the same pass (the tokenizer is most of what reading a page
 * costs): the business's facts are read this way (business-facts.ts). It is told of the tags
 * outside the elements that hide their content (script, style, template, svg, ...), the body's
 * visible text, and each JSON-LD block that parses.
 */
export interface PageListener {
  startTag(tag: StartTag): void;
  endTag(name: string): void;
  text(text: string): void;
  jsonLd(value: unknown): void;
}

export function analyseHomePage(page: FetchedText, headers: Record<string, string>, listener?: PageListener): HomePageAnalysis {
  const https = new URL(page.url).protocol === 'https:';
  const headerNoindex = saysNoindex(headers['x-robots-tag'] ?? '');
  const html = page.contentType === 'text/html' || page.contentType === 'application/xhtml+xml';
  const base: HomePageAnalysis = {
    status: page.status,
    url: page.url,
    https,
    contentType: page.contentType,
    html,
    textWords: 0,
    title: null,
    metaDescription: null,
    canonical: null,
    lang: null,
    noindex: headerNoindex ? 'header' : null,
    openGraph: { title: false, description: false, image: false },
    jsonLdTypes: [],
    jsonLdBlocks: 0,
    jsonLdInvalid: 0,
    jsonLdErrors: [],
    markdownLink: null,
    organizationNames: [],
    siteName: null,
    copyrightLines: [],
    logoText: null,
    firstHeading: null,
    truncated: page.truncated,
  };
  if (!html) return base;

  const found = { ...base, openGraph: { ...base.openGraph } };
  const types = new Set<string>();
  const organizationNames: string[] = [];
  // How many of each element that hides its text are open: a counter per name, not a stack.
  const hiding = new Map<string, number>();
  let hidden = 0;
  let inHead = false;
  // The text of the first <title> and of the JSON-LD block being read, gathered until they close.
  let title: string | null = null;
  let titleDone = false;
  let block: string[] | null = null;
  // The body's signs of whose page it is: the first <h1>, the logo's holder, the copyright line being read.
  const signs: { heading: ElementText | null; logoHolder: ElementText | null } = { heading: null, logoHolder: null };
  let copyright: string | null = null;
  const copyrightLines: string[] = [];
  const endCopyright = () => {
    if (copyright === null) return;
    const line = bounded(copyright, PAGE_TEXT_LIMITS.copyrightLine);
    copyright = null;
    if (line === null) return;
    copyrightLines.push(line);
    // The last few: the footer's comes last on the page.
    if (copyrightLines.length > PAGE_TEXT_LIMITS.copyrightLines) copyrightLines.shift();
  };

  const readJsonLdBlock = (text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
      readJsonLd(value, types, organizationNames);
    } catch (error) {
      found.jsonLdInvalid += 1;
      if (found.jsonLdErrors.length < PAGE_TEXT_LIMITS.errors) found.jsonLdErrors.push(bounded(error instanceof Error ? error.message : String(error), PAGE_TEXT_LIMITS.error) ?? 'not valid JSON');
      return;
    }
    listener?.jsonLd(value);
  };

  const parser = new SAXParser();
  parser.on('startTag', (tag) => {
    const name = tag.tagName;
    if (hidden === 0) listener?.startTag(tag);
    if (BLOCKS.has(name)) endCopyright();
    signs.heading?.startTag(name, tag.selfClosing);
    signs.logoHolder?.startTag(name, tag.selfClosing);
    if (name === 'h1' && signs.heading === null && !tag.selfClosing) {
      signs.heading = new ElementText('h1', PAGE_TEXT_LIMITS.name);
      signs.heading.start();
    } else if (name === 'img' && found.logoText === null && (signs.logoHolder?.open === true || isLogoImage(tag))) {
      found.logoText = bounded(attribute(tag, 'alt'), PAGE_TEXT_LIMITS.name);
    } else if (found.logoText === null && signs.logoHolder === null && !tag.selfClosing && !VOID_ELEMENTS.has(name) && LOGO_HOLDER.test(`${attribute(tag, 'class') ?? ''} ${attribute(tag, 'id') ?? ''}`)) {
      signs.logoHolder = new ElementText(name, PAGE_TEXT_LIMITS.name);
      signs.logoHolder.start();
    }
    if (name === 'head') inHead = true;
    else if (inHead && !HEAD_CONTENT.has(name)) inHead = false;
    if (NOT_TEXT.has(name) && !tag.selfClosing) {
      hiding.set(name, (hiding.get(name) ?? 0) + 1);
      hidden += 1;
    }
    if (name === 'html' && found.lang === null) found.lang = bounded(attribute(tag, 'lang'), PAGE_TEXT_LIMITS.lang);
    else if (name === 'title' && !titleDone && !tag.selfClosing) title = '';
    else if (name === 'script' && (attribute(tag, 'type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/ld+json') {
      found.jsonLdBlocks += 1;
      block = [];
    } else if (name === 'meta') {
      const metaName = (attribute(tag, 'name') ?? '').toLowerCase();
      const content = attribute(tag, 'content') ?? '';
      const property = attribute(tag, 'property');
      if (metaName === 'description' && found.metaDescription === null) found.metaDescription = bounded(content, PAGE_TEXT_LIMITS.description);
      if ((metaName === 'robots' || metaName === 'googlebot') && saysNoindex(content)) found.noindex = 'meta';
      if (content.trim() !== '') {
        if (property === 'og:title') found.openGraph.title = true;
        if (property === 'og:description') found.openGraph.description = true;
        if (property === 'og:image') found.openGraph.image = true;
        if (property === 'og:site_name' && found.siteName === null) found.siteName = bounded(content, PAGE_TEXT_LIMITS.name);
      }
    } else if (name === 'link') {
      if (relIncludes(tag, 'canonical') && found.canonical === null) found.canonical = absolute(attribute(tag, 'href'), page.url);
      if (relIncludes(tag, 'alternate') && (attribute(tag, 'type') ?? '').toLowerCase().startsWith('text/markdown') && found.markdownLink === null) {
        found.markdownLink = absolute(attribute(tag, 'href'), page.url);
      }
    }
  });
  parser.on('endTag', (tag) => {
    const name = tag.tagName;
    if (BLOCKS.has(name)) endCopyright();
    if (signs.heading?.endTag(name)) found.firstHeading = signs.heading.value();
    // A logo holder with no image of its text is a logo written as text ("<a class="logo">Acme</a>").
    if (signs.logoHolder?.endTag(name) && found.logoText === null) found.logoText = signs.logoHolder.value();
    if (name === 'head') inHead = false;
    const open = hiding.get(name) ?? 0;
    if (open > 0) {
      hiding.set(name, open - 1);
      hidden -= 1;
    }
    if (hidden === 0) listener?.endTag(name);
    if (name === 'title' && title !== null && !titleDone) {
      titleDone = true;
      found.title = bounded(title, PAGE_TEXT_LIMITS.title);
    } else if (name === 'script' && block !== null) {
      readJsonLdBlock(block.join(''));
      block = null;
    }
  });
  parser.on('text', ({ text }) => {
    if (block !== null) block.push(text);
    else if (title !== null && !titleDone) title += title.length < PAGE_TEXT_LIMITS.title * 4 ? text : '';
    else if (hidden === 0) {
      if (inHead && /\S/.test(text)) inHead = false;
      if (inHead) return;
      found.textWords += countWords(text);
      listener?.text(text);
      if (signs.heading?.open) signs.heading.add(text);
      if (signs.logoHolder?.open) signs.logoHolder.add(text);
      if (copyright !== null) {
        if (copyright.length < PAGE_TEXT_LIMITS.copyrightLine * 4) copyright += text;
      } else {
        // From a little before the mark: a name may stand before it ("Acme Ltd © 2026").
        const at = text.search(COPYRIGHT);
        if (at !== -1) copyright = text.slice(Math.max(0, at - PAGE_TEXT_LIMITS.copyrightLine / 2), at + PAGE_TEXT_LIMITS.copyrightLine * 4);
      }
    }
  });
  // One chunk: the tokenizer runs synchronously, to the end of the text.
  parser.end(page.text);
  // A block the page ends in the middle of (a page cut at the size limit) is read as it stands.
  if (block !== null) readJsonLdBlock((block as string[]).join(''));
  endCopyright();
  // A heading or logo the page ends in the middle of, likewise.
  if (signs.heading?.open) found.firstHeading = signs.heading.value();
  if (signs.logoHolder?.open && found.logoText === null) found.logoText = signs.logoHolder.value();

  found.jsonLdTypes = [...types];
  found.copyrightLines = copyrightLines;
  found.organizationNames = organizationNames;
  return found;
}
