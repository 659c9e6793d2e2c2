import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { precompress, type BestCompression, type Representation } from './representation';
import { send } from './send';

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
};

/**
 * A file's compressed forms as the build wrote them (`compressed/NAME.br` and `.gz` in the
 * client's folder): brotli at its best quality takes seconds for the bundle, which every start of
 * the server would spend again. Null when either is missing or does not hold the file as it is
 * now, and the server compresses it itself.
 */
function compressedByBuild(directory: string, name: string, identity: Buffer): BestCompression | null {
  const file = path.join(directory, '..', 'compressed', name);
  if (!existsSync(`${file}.br`) || !existsSync(`${file}.gz`)) return null;
  const ready = { br: readFileSync(`${file}.br`), gzip: readFileSync(`${file}.gz`) };
  return brotliDecompressSync(ready.br).equals(identity) && gunzipSync(ready.gzip).equals(identity) ? ready : null;
}

/**
 * The client bundle's hashed files, read once at start-up and served from memory, compressed (by
 * the build, else here). A name's content never changes, so browsers and CDNs may keep each file
 * for a year.
 */
export function assetFiles(directory: string, security: Record<string, string>): RequestHandler {
  const assets = new Map<string, Representation>();
  for (const name of readdirSync(directory)) {
    const meta = {
      status: 200,
      contentType: types[path.extname(name)] ?? 'application/octet-stream',
      cacheControl: 'public, max-age=31536000, immutable',
      headers: { ...security, Vary: 'Accept-Encoding' },
    };
    const identity = readFileSync(path.join(directory, name));
    assets.set(name, precompress(identity, meta, compressedByBuild(directory, name, identity) ?? undefined));
  }
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const asset = assets.get(req.path.slice(1));
    if (!asset) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    send(req, res, asset);
  };
}
