import express from 'express';
import type { Config } from '../config';
import { precompress, type Representation } from '../pages/representation';
import { send } from '../pages/send';
import { buildLlmsFullTxt, buildLlmsTxt } from './llms-txt';
import { buildRobotsTxt } from './robots-txt';
import { buildRss } from './rss';
import { siteSeoSources, type SeoSources } from './seo-sources';
import { buildSitemap } from './sitemap';

/** The files this router serves. */
export const SEO_FILE_PATHS = ['/sitemap.xml', '/robots.txt', '/llms.txt', '/llms-full.txt', '/rss.xml'] as const;

/** The files, keyed by path, built from the given sources, as their types. */
function buildSeoFiles(sources: SeoSources): [string, string, string][] {
  return [
    ['/sitemap.xml', buildSitemap(sources), 'application/xml; charset=utf-8'],
    ['/robots.txt', buildRobotsTxt(sources), 'text/plain; charset=utf-8'],
    ['/llms.txt', buildLlmsTxt(sources), 'text/plain; charset=utf-8'],
    ['/llms-full.txt', buildLlmsFullTxt(sources), 'text/plain; charset=utf-8'],
    ['/rss.xml', buildRss(sources), 'application/rss+xml; charset=utf-8'],
  ];
}

/**
 * Serves /sitemap.xml, /robots.txt, /llms.txt, /llms-full.txt and /rss.xml. Every URL in them comes from the
 * configured SITE_URL, never the request's Host header, and each body is built once here: content
 * only changes with a build and a restart.
 */
export function seoFiles(config: Config, security: Record<string, string>): express.Router {
  // Case-sensitive like the page routes: /Robots.txt is not the same resource.
  const router = express.Router({ caseSensitive: true, strict: true });
  for (const [path, text, contentType] of buildSeoFiles(siteSeoSources(config.siteUrl))) {
    const file: Representation = precompress(Buffer.from(text, 'utf8'), {
      status: 200,
      contentType,
      cacheControl: 'public, max-age=3600',
      headers: { ...security, Vary: 'Accept-Encoding' },
    });
    // Express answers HEAD with the GET handler; send() then writes no body.
    router.get(path, (req, res) => {
      send(req, res, file);
    });
  }
  return router;
}
