import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger';
import { SITE_CHECK_PARAM } from '../../shared/site-check';
import { PRIVATE_REPORT_PATHS } from '../reports/private-addresses';
import { requestId } from './request-id';

/** Query parameters whose value is a key to one visitor's page (a site check's token): never logged. */
const SECRET_PARAMS: ReadonlySet<string> = new Set([SITE_CHECK_PARAM]);

/** Paths whose rest is a key to one visitor's page (an audit report's or a monitoring report's token): never logged, in any letter case. */
const SECRET_PATHS = PRIVATE_REPORT_PATHS.map((path) => `${path}/`);

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The URL as the log keeps it: a secret path's rest and each secret parameter's value replaced, however its name is encoded. */
export function loggedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const secret = SECRET_PATHS.find((prefix) => path.toLowerCase().startsWith(prefix));
  const kept = secret === undefined ? path : `${path.slice(0, secret.length)}[redacted]`;
  if (queryAt === -1) return kept;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${kept}?${query}`;
}

/**
 * One JSON log line per request, with its id (the caller's X-Request-Id when sane, else a new
 * one, echoed in the response), method, URL (without a check's or a report's token) and status; 4xx at
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
