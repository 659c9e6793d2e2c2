import type { ReactElement } from 'react';
import { Router, type RequestHandler } from 'express';
import { loadOnce } from '../../shared/load-once';
import type { SitePages } from '../pages/site-pages';

/** A link's token is 32 random bytes in base64url (43 characters); anything longer is not looked up. */
const MAX_TOKEN_LENGTH = 64;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;

/**
 * Private, and for its reader alone: never kept by a cache, never indexed, and no address of it
 * sent on to a site its links lead to (the token is the report's only key).
 */
const PRIVATE_HEADERS = {
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
};

/**
 * A report the agency delivers at a private address, `path`/<token>. A token that finds nothing
 * to show (a guess, an erased report, one not made yet) is answered exactly as a report not made
 * yet: the same status and the same bytes, so the answer never tells a guess from a real link.
 */
export function privateReportRoutes<Report>(deps: {
  path: string;
  /** The report a token opens, or null. */
  reportFor: (token: string) => Report | null;
  /** The page of a report; null: nothing to show yet. */
  page: (report: Report) => ReactElement | null;
  /** The shape a report has; only version 1 is shown. */
  version: (report: Report) => number;
  /** What the log says when a report of another version is asked for. */
  unknownVersion: string;
  /** The page of every address that holds nothing to show. */
  pending: ReactElement;
  pages: Pick<SitePages, 'renderStatic' | 'sendDocument'>;
  /** The bound on what one address may have made for it alone (server/http/address-bound.ts). */
  addressBound: RequestHandler;
}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  // One page for every address that holds no report, rendered once: the same bytes each time.
  const pending = loadOnce(() => deps.pages.renderStatic(deps.pending, deps.path));

  // Each answer is looked up and rendered for one visitor: like the thank-you page's result, it
  // waits its turn behind the address's earlier requests, so a flood of made-up tokens costs little.
  router.get(`${deps.path}/:token`, deps.addressBound, async (req, res, next) => {
    try {
      const token = typeof req.params.token === 'string' ? req.params.token : '';
      const report = token.length <= MAX_TOKEN_LENGTH && TOKEN_SHAPE.test(token) ? deps.reportFor(token) : null;
      // A document of a shape this page does not know (written by a newer version) is not shown half-read.
      const version = report === null ? 1 : deps.version(report);
      if (version !== 1) req.log.error({ version }, deps.unknownVersion);
      const page = report === null || version !== 1 ? null : deps.page(report);
      const document = page === null ? await pending.load() : await deps.pages.renderStatic(page, deps.path);
      deps.pages.sendDocument(req, res, document, PRIVATE_HEADERS);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
