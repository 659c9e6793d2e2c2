import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger';
import { isNotModified, negotiateEncoding, type CachedPage } from '../render/page-cache';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request id of a request: the caller's, when it sent a sane one, else a new one. */
export function requestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export interface FastPages {
  /** Makes a rendered page servable on the fast path. */
  add(path: string, page: CachedPage): void;
  /** Answers the request when it is a GET or HEAD of a ready shared page; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * The fast path for pages that are the same for every visitor: a plain node:http handler that
 * runs before Express and sends the page's precomputed headers and bytes (no routing, no
 * middleware, no React, no compression per request). Anything else (forms, files, 404s, a page
 * not rendered yet) falls through to Express. It keeps what ops rely on: the security headers
 * (the same object helmet produces), a request id, and a JSON log line per request.
 */
export function fastPages(security: Record<string, string>, logger: Logger): FastPages {
  const pages = new Map<string, { page: CachedPage; headers: CachedPage['headers']; notModified: CachedPage['headers'] }>();
  return {
    add(path, page) {
      // Merged once here, so that a request does no header work at all.
      const withSecurity = <T extends Record<string, string | number>>(headers: T) => ({ ...security, ...headers });
      pages.set(path, {
        page,
        headers: { br: withSecurity(page.headers.br), gzip: withSecurity(page.headers.gzip), identity: withSecurity(page.headers.identity) },
        notModified: { br: withSecurity(page.notModifiedHeaders.br), gzip: withSecurity(page.notModifiedHeaders.gzip), identity: withSecurity(page.notModifiedHeaders.identity) },
      });
    },
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const url = req.url ?? '';
      const queryAt = url.indexOf('?');
      const entry = pages.get(queryAt === -1 ? url : url.slice(0, queryAt));
      if (!entry) return false;
      const started = process.hrtime.bigint();
      const id = requestId(req.headers['x-request-id']);
      const encoding = negotiateEncoding(req.headers['accept-encoding']);
      res.setHeader('X-Request-Id', id);
      let status = entry.page.status;
      if (status === 200 && isNotModified(entry.page, req.headers['if-none-match'])) {
        status = 304;
        res.writeHead(304, entry.notModified[encoding]);
        res.end();
      } else {
        res.writeHead(status, entry.headers[encoding]);
        res.end(req.method === 'HEAD' ? undefined : entry.page[encoding]);
      }
      logger.info(
        { req: { id, method: req.method, url }, res: { statusCode: status }, responseTime: Number(process.hrtime.bigint() - started) / 1e6 },
        'request completed',
      );
      return true;
    },
  };
}
