import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Logger } from '../logger';

export class RateLimitError extends Error {
  readonly status = 429;
}

/** Per client address: enough for a person correcting a form, too few for a script. */
const FORM_POSTS_PER_WINDOW = 10;
const FORM_WINDOW_MS = 15 * 60 * 1000;

/**
 * Limits form POSTs per client address (req.ip: the socket's address, or the proxy's view of it
 * when TRUST_PROXY names the proxy, so a forged X-Forwarded-For changes nothing), with the IETF
 * RateLimit headers. Over the limit it hands a RateLimitError to the form's error handler, which
 * answers 429 in the form the client can show.
 */
export function formRateLimit(logger: Logger, options: { limit?: number; windowMs?: number } = {}): RequestHandler[] {
  let warned = false;
  // express-rate-limit would print this check as plain text on stderr; ops read JSON logs.
  const warnAboutUntrustedProxy: RequestHandler = (req, _res, next) => {
    if (!warned && req.headers['x-forwarded-for'] !== undefined && !req.app.get('trust proxy')) {
      warned = true;
      logger.warn('X-Forwarded-For received but TRUST_PROXY is unset: behind a proxy, every visitor shares its address and rate limit');
    }
    next();
  };
  return [
    warnAboutUntrustedProxy,
    rateLimit({
      windowMs: options.windowMs ?? FORM_WINDOW_MS,
      limit: options.limit ?? FORM_POSTS_PER_WINDOW,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      validate: { xForwardedForHeader: false },
      handler: (_req, _res, next) => next(new RateLimitError('too many form submissions')),
    }),
  ];
}
