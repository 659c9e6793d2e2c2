import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { negotiateEncoding, precompress, type Precompressed } from '../render/page-cache';

const types: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
};

interface Asset extends Precompressed {
  type: string;
}

/**
 * The client bundle's hashed files, read and compressed (brotli and gzip, best quality) once at
 * start-up and served from memory. A name's content never changes, so browsers and CDNs may keep
 * each file for a year.
 */
export function hashedAssets(directory: string): RequestHandler {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(directory)) {
    const identity = readFileSync(path.join(directory, name));
    assets.set(name, { type: types[path.extname(name)] ?? 'application/octet-stream', ...precompress(identity) });
  }
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const asset = assets.get(req.path.slice(1));
    if (!asset) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', asset.etag[encoding]);
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    const body = asset[encoding];
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
