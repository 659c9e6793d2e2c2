import { Router, type RequestHandler } from 'express';
import { escapeHtml } from '../../../shared/escape-html';
import type { AuditDocument } from './audit-document';

/** The longest token looked up: a real one is 43 characters. */
const MAX_TOKEN_LENGTH = 100;

/**
 * Stand-in for the report's page at /audit/<token>, with the dependency the page takes: it names
 * the business and its scores only. The report's page proper (its sections, charts and print
 * style) replaces this file. A token that opens no report answers exactly as one still being
 * written does; both are private and kept out of search indexes.
 */
export function auditReportRoutes(deps: { reportFor: (token: string) => AuditDocument | null; addressBound: RequestHandler }): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get('/audit/:token', deps.addressBound, (req, res) => {
    const token = String(req.params.token ?? '');
    const document = token.length > MAX_TOKEN_LENGTH ? null : deps.reportFor(token);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const body = document
      ? `<h1>AI visibility audit: ${escapeHtml(document.business.name ?? document.business.site ?? '')}</h1><p>Visibility ${document.summary.visibilityScore ?? '-'}/100, readiness ${document.summary.readinessScore ?? '-'}/100</p>`
      : '<h1>Your AI visibility audit</h1><p>This report is being written...</p>';
    res.status(200).type('html').send(`<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>AI visibility audit</title></head><body>${body}</body></html>`);
  });
  return router;
}
