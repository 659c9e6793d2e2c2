import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger';
import { isNotModified, negotiateEncoding, type CachedPage, type Encoding } from '../render/page-cache';

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
  /** A response's headers as node's flat [name, value, name, value, ...] list. */
  type FlatHeaders = (string | number)[];
  type PerEncoding = Record<Encoding, FlatHeaders>;
  const pages = new Map<string, { page: CachedPage; headers: PerEncoding; notModified: PerEncoding }>();
  // Merged and flattened once here, so that a request only copies a list and adds its id.
  const flatten = (perEncoding: Record<Encoding, Record<string, string | number>>): PerEncoding => {
    const flat = (headers: Record<string, string | number>) => Object.entries({ ...security, ...headers }).flat();
    return { br: flat(perEncoding.br), gzip: flat(perEncoding.gzip), identity: flat(perEncoding.identity) };
  };
  return {
    add(path, page) {
      pages.set(path, { page, headers: flatten(page.headers), notModified: flatten(page.notModifiedHeaders) });
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
      let status = entry.page.status;
      // Every header goes in writeHead's one list: a single setHeader() before it would send all
      // of them through node's slower per-header path.
      const notModified = status === 200 && isNotModified(entry.page, req.headers['if-none-match']);
      const headers = [...(notModified ? entry.notModified : entry.headers)[encoding], 'X-Request-Id', id];
      if (notModified) {
        status = 304;
        res.writeHead(304, headers);
        res.end();
      } else {
        res.writeHead(status, headers);
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
