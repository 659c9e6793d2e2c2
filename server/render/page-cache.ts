import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { buildCsp } from '../http/security-headers';
import type { RenderedDocument } from './document';

/** A body in every encoding we serve, compressed once, with a strong ETag per encoding. */
export interface Precompressed {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** Strong validators, one per representation (RFC 9110 8.8.3). */
  etag: Record<Encoding, string>;
}

/** Compresses a body that is sent many times at the best quality (brotli 11, gzip 9): once, here. */
export function precompress(identity: Buffer): Precompressed {
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  return {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    etag: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` },
  };
}

/** A page rendered once: its bytes in every encoding we serve, and the headers that go with them. */
export interface CachedPage extends Precompressed {
  status: number;
  csp: string;
  /** The response headers per encoding, computed once; the security headers come on top. */
  headers: Record<Encoding, Record<string, string | number>>;
  /** The headers of a 304 answer per encoding (no body, so no type, encoding or length). */
  notModifiedHeaders: Record<Encoding, Record<string, string>>;
}

export function toCachedPage(status: number, document: RenderedDocument, https: boolean): CachedPage {
  const page = {
    status,
    ...precompress(Buffer.from(document.html, 'utf8')),
    csp: buildCsp({ scriptHashes: document.scriptHashes, styleHashes: document.styleHashes }, https),
  };
  const notModifiedHeaders = (encoding: Encoding) => ({
    'Content-Security-Policy': page.csp,
    'Cache-Control': 'public, no-cache',
    Vary: 'Accept-Encoding',
    ETag: page.etag[encoding],
  });
  const headers = (encoding: Encoding) => ({
    'Content-Type': 'text/html; charset=utf-8',
    ...notModifiedHeaders(encoding),
    ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
    'Content-Length': page[encoding].length,
  });
  return {
    ...page,
    headers: { br: headers('br'), gzip: headers('gzip'), identity: headers('identity') },
    notModifiedHeaders: { br: notModifiedHeaders('br'), gzip: notModifiedHeaders('gzip'), identity: notModifiedHeaders('identity') },
  };
}

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * Browsers send a handful of distinct Accept-Encoding values, so each one's meaning is remembered;
 * the memory is bounded (and simply forgotten when full) because the header is the client's to choose.
 */
const acceptedByHeader = new Map<string, Accepted>();
const ACCEPTED_MAX = 256;

interface Accepted {
  br: boolean;
  gzip: boolean;
}

/**
 * Picks the encoding to send: `prefer` when the client accepts it, else the smallest it accepts
 * (q=0 refuses one). Shared pages prefer brotli; a form page prefers its precompressed gzip.
 */
export function negotiateEncoding(acceptEncoding: string | undefined, prefer: 'br' | 'gzip' = 'br'): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = acceptEncoding.length > 200 ? parseAcceptEncoding(acceptEncoding) : rememberedAccepted(acceptEncoding);
  if (accepted[prefer]) return prefer;
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

/** True when If-None-Match names any representation of this page (or is '*'). */
export function isNotModified(page: CachedPage, ifNoneMatch: string | undefined): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const known = new Set(Object.values(page.etag));
  return ifNoneMatch.split(',').some((tag) => known.has(tag.trim().replace(/^W\//, '')));
}

/**
 * Renders each page once, on first request (index.ts warms them all before listening), and keeps
 * the promise so that concurrent first requests share one render.
 */
export class PageCache {
  private readonly pages = new Map<string, Promise<CachedPage>>();

  constructor(private readonly render: (key: string) => Promise<CachedPage>) {}

  get(key: string): Promise<CachedPage> {
    let page = this.pages.get(key);
    if (!page) {
      page = this.render(key);
      // A failed render is not cached: the next request tries again.
      page.catch(() => this.pages.delete(key));
      this.pages.set(key, page);
    }
    return page;
  }
}
