import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestId } from '../http/request-id';
import type { Logger } from '../logger';
import type { Representation } from './representation';
import { send } from './send';

export interface FastPath {
  /** Makes a representation servable on the fast path, at exactly this path. */
  add(path: string, representation: Representation): void;
  /** Answers the request when it is a GET or HEAD of a path it holds; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * The fast path for pages that are the same for every visitor: a plain node:http handler that
 * runs before Express and sends a page's precomputed representation (no routing, no middleware,
 * no React, no compression per request). Anything else (forms, files, 404s, a page not rendered
 * yet) falls through to Express. It keeps what ops rely on: the security headers (part of every
 * representation), a request id, and a JSON log line per request.
 */
export function fastPath(logger: Logger): FastPath {
  const paths = new Map<string, Representation>();
  return {
    add(path, representation) {
      paths.set(path, representation);
    },
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const url = req.url ?? '';
      const queryAt = url.indexOf('?');
      const representation = paths.get(queryAt === -1 ? url : url.slice(0, queryAt));
      if (!representation) return false;
      const started = process.hrtime.bigint();
      const id = requestId(req.headers['x-request-id']);
      const status = send(req, res, representation, ['X-Request-Id', id]);
      logger.info(
        { req: { id, method: req.method, url }, res: { statusCode: status }, responseTime: Number(process.hrtime.bigint() - started) / 1e6 },
        'request completed',
      );
      return true;
    },
  };
}
