import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { precompress, readCompressed, type Representation } from './representation';
import { send } from './send';

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The client bundle's hashed files, read once at start-up and served from memory, compressed (by
 * the build, else here). A name's content never changes, so browsers and CDNs may keep each file
 * for a year.
 */
export function assetFiles(directory: string, security: Record<string, string>): RequestHandler {
  // Brotli at its best quality takes seconds for the bundle, which every start would spend again:
  // the build keeps each file's compressed forms beside the client's folder under the file's hash
  // (compressed/HASH.br and .gz), so a file changed since the build finds none and is compressed here.
  const buildsCopies = path.join(directory, '..', 'compressed');
  const assets = new Map<string, Representation>();
  for (const name of readdirSync(directory)) {
    const meta = {
      status: 200,
      contentType: types[path.extname(name)] ?? 'application/octet-stream',
      cacheControl: 'public, max-age=31536000, immutable',
      headers: { ...security, Vary: 'Accept-Encoding' },
    };
    const identity = readFileSync(path.join(directory, name));
    assets.set(name, precompress(identity, meta, (hash) => readCompressed(buildsCopies, hash)));
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
