import type { RequestHandler } from 'express';

/**
 * Short slugs that articles used in links before the full slugs were fixed.
 * A 301 keeps any link or bookmark to them working and passes their ranking on.
 */
export const legacyArticlePaths: Record<string, string> = {
  '/blog/ai-vs-google': '/blog/ai-vs-google-search-revolution',
  '/blog/reddit-quora-medium': '/blog/reddit-quora-medium-ai-training',
  '/blog/prompt-engineering': '/blog/prompt-engineering-for-business',
};

/** One URL per page: legacy slugs and trailing slashes answer 301 to the canonical path. */
export function redirects(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const query = req.originalUrl.slice(req.path.length);
    const legacy = legacyArticlePaths[req.path];
    if (legacy) return res.redirect(301, legacy + query);
    // "/blog/" and "/blog" must not be two pages; "//evil.example" must not become a redirect off-site.
    if (req.path.length > 1 && req.path.endsWith('/')) {
      const trimmed = `/${req.path.replace(/^\/+|\/+$/g, '')}`;
      return res.redirect(301, trimmed + query);
    }
    return next();
  };
}
