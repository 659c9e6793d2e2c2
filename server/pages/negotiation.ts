import { oncePerKey } from '../../shared/load-once';

/** The encodings a response body is kept or made in. */
export type Encoding = 'br' | 'gzip' | 'identity';

interface Accepted {
  br: boolean;
  gzip: boolean;
}

/** The items of an Accept-style header, lower-cased, each with its quality (1 when not given). */
function weightedItems(header: string): { item: string; q: number }[] {
  return header
    .toLowerCase()
    .split(',')
    .map((part) => {
      const [item = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { item: item.trim(), q: q === undefined ? 1 : Number(q) };
    })
    .filter(({ item }) => item !== '');
}

/**
 * Clients send a handful of distinct values of these headers, so each value's meaning is
 * remembered. The memory is bounded (and simply forgotten when full), and a value longer than any
 * browser sends is parsed each time, because the header is the client's to choose.
 */
function remembered<T extends NonNullable<unknown>>(parse: (header: string) => T): (header: string) => T {
  const memo = oncePerKey(parse, 256);
  return (header) => (header.length > 200 ? parse(header) : memo(header));
}

const acceptedEncodings = remembered((acceptEncoding): Accepted => {
  const weights = new Map(weightedItems(acceptEncoding).map(({ item, q }) => [item, q]));
  const allows = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  return { br: allows('br'), gzip: allows('gzip') };
});

/** Content negotiation of the body's encoding: brotli when accepted, else gzip, else none (q=0 refuses one). */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.br) return 'br';
  if (accepted.gzip) return 'gzip';
  return 'identity';
}

const markdownPreferred = remembered((accept): boolean => {
  let markdown = 0;
  // The most specific range that matches HTML decides its quality (RFC 9110 12.5.1).
  let htmlExact: number | undefined;
  let htmlWildcard = 0;
  for (const { item, q } of weightedItems(accept)) {
    if (item === 'text/markdown' || item === 'text/x-markdown') markdown = Math.max(markdown, q);
    else if (item === 'text/html') htmlExact = Math.max(htmlExact ?? 0, q);
    else if (item === 'text/*' || item === '*/*') htmlWildcard = Math.max(htmlWildcard, q);
  }
  if (htmlExact !== undefined) return markdown > htmlExact;
  return markdown > 0 && markdown >= htmlWildcard;
});

/**
 * Whether a request for a page would rather have its Markdown twin: it names text/markdown with a
 * higher quality than HTML, or as high while HTML comes only through a wildcard. Browsers name
 * text/html, so they always get the page.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('markdown') && markdownPreferred(accept);
}
