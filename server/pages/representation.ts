import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import type { Encoding } from './negotiation';

/** Response headers as node's flat [name, value, name, value, ...] list, which writeHead takes as it is. */
export type FlatHeaders = (string | number)[];

/** What a response says about its body. */
export interface ResponseMeta {
  status: number;
  contentType: string;
  cacheControl: string;
  /** Every other header: the security headers, the page's own CSP, Vary. */
  headers: Record<string, string>;
}

interface Variant {
  body: Buffer;
  headers: FlatHeaders;
  /** The headers of a 304 answer (no body, so no type, encoding or length); null without a validator. */
  notModified: FlatHeaders | null;
}

/**
 * One response, ready to send: its body in each encoding it is kept in, each with its whole list
 * of headers computed once, so that sending it only copies a list and writes bytes.
 */
export interface Representation {
  status: number;
  variants: Partial<Record<Encoding, Variant>>;
  /** Strong validators, one per encoding (RFC 9110 8.8.3); none for a body made for one request. */
  etags: ReadonlySet<string>;
}

function variant(meta: ResponseMeta, encoding: Encoding, body: Buffer, etag: string | null): Variant {
  const common = { ...meta.headers, 'Cache-Control': meta.cacheControl, ...(etag ? { ETag: etag } : {}) };
  const headers = {
    'Content-Type': meta.contentType,
    ...common,
    ...(encoding === 'identity' ? {} : { 'Content-Encoding': encoding }),
    'Content-Length': body.length,
  };
  return { body, headers: Object.entries(headers).flat(), notModified: etag ? Object.entries(common).flat() : null };
}

/** A body's compressed forms at the best quality (brotli 11, gzip 9): seconds of CPU for the site's files. */
export interface BestCompression {
  gzip: Buffer;
  br: Buffer;
}

/** A body's name where its compressed forms are kept (the page cache, the build's copies of the client's files), and its ETag: its SHA-256. */
export function bodyHash(identity: Buffer): string {
  return createHash('sha256').update(identity).digest('base64url').slice(0, 27);
}

export function compressBest(identity: Buffer): BestCompression {
  return {
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
  };
}

/**
 * Each body is compressed once in a process, however many representations carry it: a Markdown
 * twin's two forms are the same bytes, and every app a test file makes serves the same files.
 */
const compressedByHash = new Map<string, BestCompression>();

/**
 * PAGE_CACHE_DIR: compressed bodies kept on disk by their body's hash, so that a restart (or the
 * next server a test starts) does not spend seconds of CPU compressing the same pages again.
 * Unset: none.
 */
let cacheDir: string | null = null;

export function usePageCache(dir: string | null): void {
  cacheDir = dir;
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** A body's compressed forms kept in `dir` under its hash (HASH.gz and HASH.br); null when either cannot be read. */
export function readCompressed(dir: string, hash: string): BestCompression | null {
  try {
    return { gzip: readFileSync(path.join(dir, `${hash}.gz`)), br: readFileSync(path.join(dir, `${hash}.br`)) };
  } catch {
    return null;
  }
}

/**
 * Keeps a body's compressed forms in `dir` under its hash, each written to a file of its own and
 * then renamed: a reader never sees half a file. Throws what the disk refuses.
 */
export function writeCompressed(dir: string, hash: string, compressed: BestCompression, mode?: number): void {
  for (const [extension, body] of [['gz', compressed.gzip], ['br', compressed.br]] as const) {
    const file = path.join(dir, `${hash}.${extension}`);
    const partial = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(partial, body, { mode });
    renameSync(partial, file);
  }
}

/** A body's compressed forms from the disk cache, used only if they decompress to the body itself (a file half-written or changed is not). */
function fromDisk(hash: string, identity: Buffer): BestCompression | null {
  const kept = cacheDir ? readCompressed(cacheDir, hash) : null;
  return kept && gunzipSync(kept.gzip).equals(identity) && brotliDecompressSync(kept.br).equals(identity) ? kept : null;
}

/** A cache that cannot be written is only slower. */
function toDisk(hash: string, compressed: BestCompression): void {
  if (!cacheDir) return;
  try {
    writeCompressed(cacheDir, hash, compressed, 0o600);
  } catch {
    // Nothing lost: the body is compressed again next time.
  }
}

/**
 * For a body sent many times (pages, assets, SEO files): compressed once at the best quality
 * (brotli 11, gzip 9), with a strong ETag per encoding. `madeAlready`: where its compressed forms
 * are found by its hash when they were made before this process (the build's copies of the
 * client's files).
 */
export function precompress(identity: Buffer, meta: ResponseMeta, madeAlready?: (hash: string) => BestCompression | null): Representation {
  const hash = bodyHash(identity);
  let compressed = compressedByHash.get(hash);
  if (!compressed) {
    compressed = madeAlready?.(hash) ?? fromDisk(hash, identity) ?? undefined;
    if (!compressed) {
      compressed = compressBest(identity);
      toDisk(hash, compressed);
    }
    compressedByHash.set(hash, compressed);
  }
  const bodies: Record<Encoding, Buffer> = { identity, ...compressed };
  const etags: Record<Encoding, string> = { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` };
  return {
    status: meta.status,
    variants: {
      identity: variant(meta, 'identity', bodies.identity, etags.identity),
      gzip: variant(meta, 'gzip', bodies.gzip, etags.gzip),
      br: variant(meta, 'br', bodies.br, etags.br),
    },
    etags: new Set(Object.values(etags)),
  };
}

/**
 * For a body that compression would not shrink (a PNG is deflated already): sent as it is, to
 * every client, with one strong ETag.
 */
export function uncompressed(identity: Buffer, meta: ResponseMeta): Representation {
  const etag = `"${bodyHash(identity)}"`;
  return { status: meta.status, variants: { identity: variant(meta, 'identity', identity, etag) }, etags: new Set([etag]) };
}

/**
 * For a body made for one response (a form page with its visitor's token): only the encoding the
 * request takes, at a quality that costs well under a millisecond, and no validator.
 */
export function compressOnce(identity: Buffer, meta: ResponseMeta, encoding: Encoding): Representation {
  const body =
    encoding === 'br' ? brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 3, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } })
    : encoding === 'gzip' ? gzipSync(identity, { level: 6 })
    : identity;
  return { status: meta.status, variants: { [encoding]: variant(meta, encoding, body, null) }, etags: new Set() };
}
