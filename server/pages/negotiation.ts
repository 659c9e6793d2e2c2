/** The encodings a response body is kept or made in. */
export type Encoding = 'br' | 'gzip' | 'identity';

interface Accepted {
  br: boolean;
  gzip: boolean;
}

/**
 * Browsers send a handful of distinct Accept-Encoding values, so each one's meaning is remembered;
 * the memory is bounded (and simply forgotten when full) because the header is the client's to choose.
 */
const acceptedByHeader = new Map<string, Accepted>();
const ACCEPTED_MAX = 256;

/** Content negotiation of the body's encoding: brotli when accepted, else gzip, else none (q=0 refuses one). */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = acceptEncoding.length > 200 ? parseAcceptEncoding(acceptEncoding) : rememberedAccepted(acceptEncoding);
  if (accepted.br) return 'br';
  if (accepted.gzip) return 'gzip';
  return 'identity';
}

function rememberedAccepted(acceptEncoding: string): Accepted {
  let accepted = acceptedByHeader.get(acceptEncoding);
  if (accepted === undefined) {
    if (acceptedByHeader.size >= ACCEPTED_MAX) acceptedByHeader.clear();
    accepted = parseAcceptEncoding(acceptEncoding);
    acceptedByHeader.set(acceptEncoding, accepted);
  }
  return accepted;
}

function parseAcceptEncoding(acceptEncoding: string): Accepted {
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    if (name) weights.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  return { br: allows('br'), gzip: allows('gzip') };
}

/**
 * Whether a request for a page would rather have its Markdown twin: it names text/markdown with a
 * higher quality than HTML, or as high while HTML comes only through a wildcard. Browsers name
 * text/html, so they always get the page.
 */
const markdownByHeader = new Map<string, boolean>();

export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept || !accept.includes('markdown')) return false;
  let preferred = markdownByHeader.get(accept);
  if (preferred === undefined) {
    if (markdownByHeader.size >= ACCEPTED_MAX) markdownByHeader.clear();
    preferred = parsePrefersMarkdown(accept);
    markdownByHeader.set(accept, preferred);
  }
  return preferred;
}

function parsePrefersMarkdown(accept: string): boolean {
  let markdown = 0;
  // The most specific range that matches HTML decides its quality (RFC 9110 12.5.1).
  let htmlExact: number | undefined;
  let htmlWildcard = 0;
  for (const part of accept.toLowerCase().split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    const q = Number(params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean) ?? 1);
    const type = range.trim();
    if (type === 'text/markdown' || type === 'text/x-markdown') markdown = Math.max(markdown, q);
    else if (type === 'text/html') htmlExact = Math.max(htmlExact ?? 0, q);
    else if (type === 'text/*' || type === '*/*') htmlWildcard = Math.max(htmlWildcard, q);
  }
  if (htmlExact !== undefined) return markdown > htmlExact;
  return markdown > 0 && markdown >= htmlWildcard;
}
