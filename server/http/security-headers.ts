import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** sha256 source expression for an inline element's exact text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * styled-components inserts its rules through the CSSOM (insertRule) into a <style> element whose
 * own text stays empty. The hash of the empty string allows exactly that element and nothing
 * with content, so no 'unsafe-inline' is needed.
 */
const EMPTY_STYLE_HASH = cspHash('');

export interface CspSources {
  scriptHashes?: string[];
  styleHashes?: string[];
}

/**
 * The Content-Security-Policy of a response. It starts from nothing (`default-src 'none'`) and
 * allows only what the pages use: scripts, styles, images and fetches from our own origin, inline
 * scripts and styles only by hash, forms posted to our own origin. Anything a page does not use
 * (web fonts: the pages use the system's, data: URLs, frames, workers, media, manifests, plugins,
 * <base>) stays refused, and no page may be framed.
 */
export function buildCsp({ scriptHashes = [], styleHashes = [] }: CspSources, https: boolean): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'", ...scriptHashes]],
    ['style-src', ["'self'", EMPTY_STYLE_HASH, ...styleHashes]],
    ['img-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  const policy = directives.map(([name, values]) => `${name} ${[...new Set(values)].join(' ')}`);
  if (https) policy.push('upgrade-insecure-requests');
  return policy.join('; ');
}

/** Features the site never uses, denied to it and to anything embedded in it. */
const PERMISSIONS_POLICY = [
  'accelerometer=()', 'autoplay=()', 'camera=()', 'display-capture=()', 'encrypted-media=()',
  'fullscreen=()', 'geolocation=()', 'gyroscope=()', 'magnetometer=()', 'microphone=()',
  'midi=()', 'payment=()', 'picture-in-picture=()', 'publickey-credentials-get=()',
  'screen-wake-lock=()', 'sync-xhr=()', 'usb=()', 'xr-spatial-tracking=()', 'browsing-topics=()',
].join(', ');

/** helmet for every response; a page replaces the CSP with one that names its inline tags' hashes. */
export function securityHeaders(https: boolean): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: false,
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      xFrameOptions: { action: 'deny' },
    }),
    (_req, res, next) => {
      res.setHeader('Content-Security-Policy', buildCsp({}, https));
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
      next();
    },
  ];
}

/**
 * The headers that securityHeaders() sets, read off it once (helmet run against a recording
 * response), for the fast path that answers cached pages without Express. One source of truth:
 * the fast path cannot drift from what every other response carries.
 */
export function staticSecurityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
    getHeader(name: string) {
      return headers[name];
    },
  };
  for (const middleware of securityHeaders(https)) {
    let called = false;
    middleware({ headers: {}, method: 'GET', url: '/' } as never, recorder as never, () => {
      called = true;
    });
    if (!called) throw new Error('a security header middleware did not call next() synchronously');
  }
  return headers;
}
