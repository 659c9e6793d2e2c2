import { createElement } from 'react';
import type { RequestHandler, Router } from 'express';
import type { SitePages } from '../../pages/site-pages';
import { privateReportRoutes } from '../private-report-routes';
import { AUDIT_REPORT_PATH } from '../private-addresses';
import type { AuditDocument } from './audit-document';
import { AuditPendingPage, AuditReportPage } from './audit-page';

/**
 * The free audit's report at its private address. A token that finds no report (a guess, an
 * erased report, a run still going) is answered exactly as a report still being written.
 */
export function auditReportRoutes(deps: {
  /** The finished report a token opens, or null. */
  reportFor: (token: string) => AuditDocument | null;
  pages: Pick<SitePages, 'renderStatic' | 'sendDocument'>;
  /** The bound on what one address may have made for it alone (server/http/address-bound.ts). */
  addressBound: RequestHandler;
}): Router {
  return privateReportRoutes<AuditDocument>({
    ...deps,
    path: AUDIT_REPORT_PATH,
    page: (document) => createElement(AuditReportPage, { document }),
    version: (document) => document.version,
    unknownVersion: 'An audit report of an unknown version was asked for: answered as being written',
    pending: createElement(AuditPendingPage),
  });
}
