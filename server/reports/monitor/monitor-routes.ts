import { createElement } from 'react';
import type { RequestHandler, Router } from 'express';
import type { SitePages } from '../../pages/site-pages';
import { privateReportRoutes } from '../private-report-routes';
import { MONITOR_REPORT_PATH } from '../private-addresses';
import { MonitorPendingPage, MonitorReportPage } from './monitor-page';
import type { TrendDocument } from './trend-document';

/**
 * A client's monitoring report at its private address. A token that finds nothing to show (a
 * guess, a removed client, a client whose first run has not finished) is answered exactly as a
 * client with no finished run yet.
 */
export function monitorReportRoutes(deps: {
  /** The client's trend a token opens, or null. */
  reportFor: (token: string) => TrendDocument | null;
  pages: Pick<SitePages, 'renderStatic' | 'sendDocument'>;
  /** The bound on what one address may have made for it alone (server/http/address-bound.ts). */
  addressBound: RequestHandler;
}): Router {
  return privateReportRoutes<TrendDocument>({
    ...deps,
    path: MONITOR_REPORT_PATH,
    page: (document) => (document.latest === null ? null : createElement(MonitorReportPage, { document })),
    version: (document) => document.version,
    unknownVersion: 'A monitoring report of an unknown version was asked for: answered as not made yet',
    pending: createElement(MonitorPendingPage),
  });
}
