import { createElement } from 'react';
import { Router, type RequestHandler } from 'express';
import { loadOnce } from '../../../shared/load-once';
import type { SitePages } from '../../pages/site-pages';
import { AuditPendingPage, AuditReportPage } from '../audit/audit-page';
import type { TrendDocument } from './trend-document';

// A stand-in until the trend's own page takes this file's place: it shows the latest run's report.

const MONITOR_PATH = '/monitor';
const MAX_TOKEN_LENGTH = 64;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;
const PRIVATE_HEADERS = { 'X-Robots-Tag': 'noindex', 'Referrer-Policy': 'no-referrer' };

/** A client's page at its private address; a token that finds nothing answers as a client with no finished run yet. */
export function monitorReportRoutes(deps: {
  reportFor: (token: string) => TrendDocument | null;
  pages: Pick<SitePages, 'renderStatic' | 'sendDocument'>;
  addressBound: RequestHandler;
}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const pending = loadOnce(() => deps.pages.renderStatic(createElement(AuditPendingPage), MONITOR_PATH));
  router.get(`${MONITOR_PATH}/:token`, deps.addressBound, async (req, res, next) => {
    try {
      const token = typeof req.params.token === 'string' ? req.params.token : '';
      const trend = token.length <= MAX_TOKEN_LENGTH && TOKEN_SHAPE.test(token) ? deps.reportFor(token) : null;
      const latest = trend?.version === 1 ? trend.latest : null;
      const document = latest ? await deps.pages.renderStatic(createElement(AuditReportPage, { document: latest }), MONITOR_PATH) : await pending.load();
      deps.pages.sendDocument(req, res, document, PRIVATE_HEADERS);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
