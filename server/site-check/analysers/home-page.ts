import { NodeType, parse, type HTMLElement, type Node } from 'node-html-parser';
import type { FetchedText } from './fetched-text';
import organizationTypes from './organization-types.json';

/**
 * The page as served, read the way most AI crawlers read it: the HTML as it arrives, no
 * JavaScript run. What it says about itself in the head, how much readable text the HTML
 * carries, and the structured data it declares.
 */
export interface HomePageAnalysis {
  status: number;
  url: string;
  https: boolean;
  contentType: string;
  /** The body is an HTML document (the other facts are read from it only then). */
  html: boolean;
  /** Words of readable text in the body (scripts, styles, templates and <noscript> left out). */
  textWords: number;
  title: string | null;
  metaDescription: string | null;
  /** The canonical link, made absolute (null: none). */
  canonical: string | null;
  lang: string | null;
  /** Where a noindex was found: the robots meta tag, the X-Robots-Tag header, or nowhere. */
  noindex: 'meta' | 'header' | null;
  openGraph: { title: boolean; description: boolean; image: boolean };
  /** Every @type the JSON-LD blocks declare, nested nodes included, in order of appearance. */
  jsonLdTypes: string[];
  jsonLdBlocks: number;
  /** Blocks that are not valid JSON, each with the parser's complaint. */
  jsonLdErrors: string[];
  /** A <link rel="alternate" type="text/markdown">, made absolute. */
  markdownLink: string | null;
  /** The body was cut at the size limit. */
  truncated: boolean;
}

const ORGANIZATION_TYPES: ReadonlySet<string> = new Set(organizationTypes.types);

/** Whether one of the types says who the business is: schema.org's Organization or a type below it. */
export function declaresOrganization(types: readonly string[]): boolean {
  return types.some((type) => ORGANIZATION_TYPES.has(type));
}

/** "schema:LocalBusiness" and "https://schema.org/LocalBusiness" are LocalBusiness. */
function shortType(type: string): string {
  return type.replace(/^(https?:\/\/schema\.org\/|schema:)/, '');
}

function collectTypes(node: unknown, into: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) collectTypes(item, into);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '@type') {
      for (const type of Array.isArray(value) ? value : [value]) {
        if (typeof type === 'string' && !into.includes(shortType(type))) into.push(shortType(type));
      }
    } else {
      collectTypes(value, into);
    }
  }
}

/** Words a reader would count: runs of letters or digits. */
function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Elements whose content is never shown as text. */
const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);

/**
 * The words of the text a crawler that runs no script reads, counted text node by text node (a
 * word split by inline markup counts twice, which is rare; building the whole text of a 1 MB page
 * first would cost several times the memory). Iterative: a deeply nested page cannot overflow the stack.
 */
function readableWords(root: Node): number {
  let words = 0;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (node.nodeType === NodeType.TEXT_NODE) words += countWords(node.text);
    else if (node.nodeType === NodeType.ELEMENT_NODE && NOT_TEXT.has((node as HTMLElement).rawTagName?.toLowerCase() ?? '')) continue;
    else stack.push(...node.childNodes);
  }
  return words;
}

function absolute(href: string | undefined, base: string): string | null {
  if (!href?.trim()) return null;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

/**
 * Whether robots directives ("noindex, nofollow", "googlebot: none") include noindex or none;
 * "max-image-preview: none" is about images, not indexing.
 */
function saysNoindex(directives: string): boolean {
  const tokens = directives.toLowerCase().split(/[\s,]+/);
  return tokens.some((token, index) => {
    const bare = token.replace(/^[\w-]+:/, (prefix) => (prefix.startsWith('max-') ? '~' : ''));
    if (bare === 'noindex') return true;
    return bare === 'none' && !(tokens[index - 1] ?? '').startsWith('max-');
  });
}

const content = (document: HTMLElement, selector: string) => document.querySelector(selector)?.getAttribute('content')?.trim() || null;

export function analyseHomePage(page: FetchedText, headers: Record<string, string>): HomePageAnalysis {
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
    jsonLdErrors: [],
    markdownLink: null,
    truncated: page.truncated,
  };
  if (!html) return base;

  const document = parse(page.text, { comment: false, blockTextElements: { script: true, style: true, noscript: true, pre: true, template: true } });
  const jsonLdErrors: string[] = [];
  const jsonLdTypes: string[] = [];
  const blocks = document.querySelectorAll('script').filter((script) => (script.getAttribute('type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/ld+json');
  for (const block of blocks) {
    try {
      collectTypes(JSON.parse(block.rawText), jsonLdTypes);
    } catch (error) {
      jsonLdErrors.push(error instanceof Error ? error.message : String(error));
    }
  }
  const robotsMeta = document.querySelectorAll('meta').filter((meta) => /^(robots|googlebot)$/i.test(meta.getAttribute('name') ?? ''));
  const metaNoindex = robotsMeta.some((meta) => saysNoindex(meta.getAttribute('content') ?? ''));
  const links = document.querySelectorAll('link');
  const linkWith = (rel: string, type?: string) =>
    links.find((link) => (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/).includes(rel) && (type === undefined || (link.getAttribute('type') ?? '').toLowerCase().startsWith(type)))?.getAttribute('href');
  const property = (name: string) => document.querySelectorAll('meta').some((meta) => meta.getAttribute('property') === name && (meta.getAttribute('content') ?? '').trim() !== '');

  return {
    ...base,
    textWords: readableWords(document.querySelector('body') ?? document),
    title: document.querySelector('title')?.text.trim() || null,
    metaDescription: content(document, 'meta[name="description"]') ?? content(document, 'meta[name="Description"]'),
    canonical: absolute(linkWith('canonical'), page.url),
    lang: document.querySelector('html')?.getAttribute('lang')?.trim() || null,
    noindex: metaNoindex ? 'meta' : base.noindex,
    openGraph: { title: property('og:title'), description: property('og:description'), image: property('og:image') },
    jsonLdTypes,
    jsonLdBlocks: blocks.length,
    jsonLdErrors,
    markdownLink: absolute(linkWith('alternate', 'text/markdown'), page.url),
  };
}
