import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger';
import { SITE_CHECK_PARAM } from '../../shared/site-check';
import { requestId } from './request-id';

/** Query parameters whose value is a key to one visitor's page (a site check's token): never logged. */
const SECRET_PARAMS: ReadonlySet<string> = new Set([SITE_CHECK_PARAM]);

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The URL as the log keeps it: each secret parameter's value replaced, however its name is encoded. */
function loggedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryAt)}?${query}`;
}

/**
 * One JSON log line per request, with its id (the caller's X-Request-Id when sane, else a new
 * one, echoed in the response), method, URL (without a check token's value) and status; 4xx at
 * warn, 5xx at error. The fast path writes the same line itself (it never serves a URL with a
 * token).
 */
export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = requestId(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: loggedUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  });
}
