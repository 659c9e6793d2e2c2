import type { RequestHandler } from 'express';

export class CrossSiteRequestError extends Error {
  readonly status = 403;
}

/**
 * Refuses a POST that the browser says comes from another site, before the CSRF token is even
 * read: Sec-Fetch-Site 'cross-site', or an Origin that is neither SITE_URL nor this request's
 * own origin (a local run reached at 127.0.0.1 instead of localhost still works).
 */
export function rejectCrossSite(siteUrl: string): RequestHandler {
  const siteOrigin = new URL(siteUrl).origin;
  return (req, _res, next) => {
    if (req.get('sec-fetch-site') === 'cross-site') return next(new CrossSiteRequestError('cross-site request (Sec-Fetch-Site)'));
    const origin = req.get('origin');
    if (origin !== undefined) {
      const ownOrigin = `${req.protocol}://${req.get('host') ?? ''}`;
      if (origin !== siteOrigin && origin !== ownOrigin) return next(new CrossSiteRequestError(`cross-site request (Origin ${origin})`));
    }
    return next();
  };
}
