import type { RequestHandler } from 'express';

/**
 * Short slugs that articles used in links before the full slugs were fixed.
 * A 301 keeps any link or bookmark to them working and passes their ranking on.
 */
const legacyArticlePaths: Record<string, string> = {
  '/blog/ai-vs-google': '/blog/ai-vs-google-search-revolution',
  '/blog/reddit-quora-medium': '/blog/reddit-quora-medium-ai-training',
  '/blog/prompt-engineering': '/blog/prompt-engineering-for-business',
};

/**
 * The query of a request as sent (with its '?'), from the request target itself: for an
 * absolute-form target (`GET http://host/path?q HTTP/1.1`) the part before the path is not a query.
 */
function queryOf(target: string): string {
  const at = target.indexOf('?');
  return at === -1 ? '' : target.slice(at);
}

/**
 * One URL per page: legacy slugs and trailing slashes answer 301 to the canonical path. A
 * redirect only ever names a path on this site, built from the parsed path and query: repeated
 * slashes are collapsed ("//evil.example/" is the path /evil.example here, never a host), and a
 * path with a backslash, which browsers read as a slash, is not redirected at all.
 */
export function redirects(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const query = queryOf(req.originalUrl);
    const legacy = legacyArticlePaths[req.path];
    if (legacy) return res.redirect(301, legacy + query);
    if (req.path.length > 1 && req.path.endsWith('/') && !req.path.includes('\\')) {
      const canonical = `/${req.path.split('/').filter(Boolean).join('/')}`;
      return res.redirect(301, canonical + query);
    }
    return next();
  };
}
