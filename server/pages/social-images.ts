import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import path from 'node:path';
import { uncompressed, type Representation } from './representation';
import { send } from './send';

/**
 * The articles' social cards (dist/client/social/<slug>.png, drawn by the build), read once at
 * start-up and served from memory at /social/<slug>.png. The URL stays the same when a title
 * changes, so caches keep a card for a day, like the other public files, and then revalidate it
 * with its ETag.
 */
export function socialImages(directory: string, security: Record<string, string>): RequestHandler {
  const images = new Map<string, Representation>();
  for (const name of existsSync(directory) ? readdirSync(directory) : []) {
    if (path.extname(name) !== '.png') continue;
    images.set(`/${name}`, uncompressed(readFileSync(path.join(directory, name)), { status: 200, contentType: 'image/png', cacheControl: 'public, max-age=86400', headers: security }));
  }
  return (req, res, next) => {
    const image = req.method === 'GET' || req.method === 'HEAD' ? images.get(req.path) : undefined;
    if (image) send(req, res, image);
    else next();
  };
}
