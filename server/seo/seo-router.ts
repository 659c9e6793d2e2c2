import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import express, { type Request, type Response } from 'express';
import type { Config } from '../config';
import { negotiateEncoding, type Encoding } from '../render/page-cache';
import { buildLlmsTxt } from './llms-txt';
import { buildRobotsTxt } from './robots-txt';
import { buildRss } from './rss';
import { siteSeoSources, type SeoSources } from './seo-sources';
import { buildSitemap } from './sitemap';

/** A file built once: its bytes in every encoding we serve and a strong ETag for each. */
interface SeoFile {
  contentType: string;
  body: Record<Encoding, Buffer>;
  etag: Record<Encoding, string>;
}

function toSeoFile(text: string, contentType: string): SeoFile {
  const identity = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  return {
    contentType,
    body: {
      identity,
      gzip: gzipSync(identity, { level: 9 }),
      br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    },
    // Each encoding is its own representation, so each needs its own strong validator (RFC 9110 8.8.3).
    etag: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` },
  };
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The four files, keyed by path, built from the given sources. */
export function buildSeoFiles(sources: SeoSources): Map<string, SeoFile> {
  return new Map([
    ['/sitemap.xml', toSeoFile(buildSitemap(sources), 'application/xml; charset=utf-8')],
    ['/robots.txt', toSeoFile(buildRobotsTxt(sources), 'text/plain; charset=utf-8')],
    ['/llms.txt', toSeoFile(buildLlmsTxt(sources), 'text/plain; charset=utf-8')],
    ['/rss.xml', toSeoFile(buildRss(sources), 'application/rss+xml; charset=utf-8')],
  ]);
}

/**
 * Serves /sitemap.xml, /robots.txt, /llms.txt and /rss.xml. Every URL in them comes from the
 * configured SITE_URL, never the request's Host header, and each body is built once here: content
 * only changes with a build and a restart.
 */
export function seoFiles(config: Config): express.Router {
  const files = buildSeoFiles(siteSeoSources(config.siteUrl));
  // Case-sensitive like the page routes: /Robots.txt is not the same resource.
  const router = express.Router({ caseSensitive: true, strict: true });
  for (const [path, file] of files) {
    // Express answers HEAD with the GET handler; Node's response then sends no body.
    router.get(path, (req: Request, res: Response) => {
      const encoding = negotiateEncoding(req.headers['accept-encoding']);
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('ETag', file.etag[encoding]);
      if (matches(req.headers['if-none-match'], file.etag[encoding])) {
        res.status(304).end();
        return;
      }
      if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
      const body = file.body[encoding];
      res.setHeader('Content-Length', body.length);
      res.status(200).end(req.method === 'HEAD' ? undefined : body);
    });
  }
  return router;
}
