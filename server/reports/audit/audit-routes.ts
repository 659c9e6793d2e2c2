import { createElement } from 'react';
import { Router, type RequestHandler } from 'express';
import { loadOnce } from '../../../shared/load-once';
import type { SitePages } from '../../pages/site-pages';
import { AUDIT_REPORT_PATH } from './audit-address';
import type { AuditDocument } from './audit-document';
import { AuditPendingPage, AuditReportPage } from './audit-page';

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
 * The free audit's report at its private address. A token that finds no report (a guess, an
 * erased report, a run still going) is answered exactly as a report still being written: the same
 * status and the same bytes, so the answer never tells a guess from a real link.
 */
export function auditReportRoutes(deps: {
  /** The finished report a token opens, or null. */
  reportFor: (token: string) => AuditDocument | null;
  pages: Pick<SitePages, 'renderStatic' | 'sendDocument'>;
  /** The bound on what one address may have made for it alone (server/http/address-bound.ts). */
  addressBound: RequestHandler;
}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  // One page for every address that holds no report, rendered once: the same bytes each time.
  const pending = loadOnce(() => deps.pages.renderStatic(createElement(AuditPendingPage), AUDIT_REPORT_PATH));

  // Each answer is looked up and rendered for one visitor: like the thank-you page's result, it
  // waits its turn behind the address's earlier requests, so a flood of made-up tokens costs little.
  router.get(`${AUDIT_REPORT_PATH}/:token`, deps.addressBound, async (req, res, next) => {
    try {
      const token = typeof req.params.token === 'string' ? req.params.token : '';
      const report = token.length <= MAX_TOKEN_LENGTH && TOKEN_SHAPE.test(token) ? deps.reportFor(token) : null;
      // A document of a shape this page does not know (written by a newer version) is not shown half-read.
      if (report !== null && report.version !== 1) req.log.error({ version: report.version }, 'An audit report of an unknown version was asked for: answered as being written');
      const document = report?.version === 1 ? await deps.pages.renderStatic(createElement(AuditReportPage, { document: report }), AUDIT_REPORT_PATH) : await pending.load();
      deps.pages.sendDocument(req, res, document, PRIVATE_HEADERS);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
