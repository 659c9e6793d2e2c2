import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestId } from '../http/request-id';
import type { Logger } from '../logger';
import { prefersMarkdown } from './negotiation';
import type { Representation } from './representation';
import { send } from './send';

export interface FastPath {
  /**
   * Makes a representation servable on the fast path, at exactly this path; `markdown`, when
   * given, is sent instead to a request that prefers text/markdown.
   */
  add(path: string, representation: Representation, markdown?: Representation): void;
  /** Answers the request when it is a GET or HEAD of a path it holds; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/** Told of each request the fast path answered, with its path (the AI ledger counts them). */
export type FastPathObserver = (req: IncomingMessage, path: string) => void;

/**
 * The fast path for pages that are the same for every visitor: a plain node:http handler that
 * runs before Express and sends a page's precomputed representation (no routing, no middleware,
 * no React, no compression per request). Anything else (forms, files, 404s, a page not rendered
 * yet) falls through to Express. It keeps what ops rely on: the security headers (part of every
 * representation), a request id, and a JSON log line per request.
 *
 * `privateParams`: query parameters that make a request one visitor's own (a site check's token
 * on the thank-you page): such a request is left to Express, whatever its path.
 */
export function fastPath(logger: Logger, observe?: FastPathObserver, privateParams: readonly string[] = []): FastPath {
  const paths = new Map<string, { representation: Representation; markdown: Representation | undefined }>();
  const isPrivate = (query: string) => {
    if (privateParams.length === 0) return false;
    const params = new URLSearchParams(query);
    return privateParams.some((name) => params.has(name));
  };
  return {
    add(path, representation, markdown) {
      paths.set(path, { representation, markdown });
    },
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const url = req.url ?? '';
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      const entry = paths.get(path);
      if (!entry || (queryAt !== -1 && isPrivate(url.slice(queryAt + 1)))) return false;
      const started = process.hrtime.bigint();
      const id = requestId(req.headers['x-request-id']);
      const chosen = entry.markdown && prefersMarkdown(req.headers.accept) ? entry.markdown : entry.representation;
      const status = send(req, res, chosen, ['X-Request-Id', id]);
      observe?.(req, path);
      logger.info(
        { req: { id, method: req.method, url }, res: { statusCode: status }, responseTime: Number(process.hrtime.bigint() - started) / 1e6 },
        'request completed',
      );
      return true;
    },
  };
}
