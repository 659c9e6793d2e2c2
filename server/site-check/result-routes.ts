import { Router, type Request, type RequestHandler } from 'express';
import { routesPaths } from '../../shared/site';
import { NO_FORM_TOKENS } from '../../shared/forms/form-contract';
import { SITE_CHECK_PARAM, SITE_CHECK_STATUS_PATH, type SiteCheckView } from '../../shared/site-check';
import type { ProbeView } from '../../shared/visibility-probe';
import type { SitePages } from '../pages/site-pages';
import type { SiteCheckStore } from './check-store';

/**
 * The prospect's own result: the thank-you page reached with their request's token, and the JSON
 * that page asks while the check (and the request's visibility probe) runs. Only the token opens
 * a result (its hash is looked up), and both answers are private, never stored by a cache, and
 * kept out of search indexes.
 */
export function siteCheckResultRoutes(deps: {
  store: SiteCheckStore;
  /** The request's visibility probe, found by the same token (null: none). */
  probeFor: (token: string) => ProbeView | null;
  sendPage: SitePages['sendPerVisitor'];
  addressBound: RequestHandler;
}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const viewFor = (req: Request): { siteCheck: SiteCheckView | null; probe: ProbeView | null } | undefined => {
    const token = req.query[SITE_CHECK_PARAM];
    if (typeof token !== 'string') return undefined;
    if (token.length > 100) return { siteCheck: null, probe: null };
    const siteCheck = deps.store.viewByToken(token);
    return { siteCheck, probe: siteCheck ? deps.probeFor(token) : null };
  };

  // A result is looked up and rendered for one visitor: like the form pages, it waits its turn
  // behind the address's earlier requests, so a flood of made-up tokens costs little.
  const boundWithToken: RequestHandler = (req, res, next) => (typeof req.query[SITE_CHECK_PARAM] === 'string' ? deps.addressBound(req, res, next) : next());

  router.get(routesPaths.thankYou, boundWithToken, async (req, res, next) => {
    try {
      const views = viewFor(req);
      // No token: the shared thank-you page, which shows no result.
      if (views === undefined) return next();
      await deps.sendPage(req, res, routesPaths.thankYou, { ...NO_FORM_TOKENS, ...views }, 200);
    } catch (error) {
      next(error);
    }
  });

  router.get(SITE_CHECK_STATUS_PATH, deps.addressBound, (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    const views = viewFor(req);
    if (!views?.siteCheck) {
      res.status(404).json({ siteCheck: null, probe: null });
      return;
    }
    res.json(views);
  });
  return router;
}
