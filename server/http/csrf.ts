import { randomBytes } from 'node:crypto';
import csurf from '@dr.pogodin/csurf';
import cookieParser from 'cookie-parser';
import type { Request, RequestHandler } from 'express';
import { CSRF_FIELD, CSRF_HEADER } from '../../shared/forms/form-contract';
import type { Db } from '../db/database';

/**
 * CSRF protection: the one module that knows which CSRF library we use (csurf is archived;
 * @dr.pogodin/csurf is its maintained fork with the same API). The secret lives in
 * a signed, HttpOnly, SameSite=Strict cookie (Secure and `__Host-` prefixed on https); the token
 * travels in the form's hidden `_csrf` field or, from fetch, in the `X-CSRF-Token` header.
 */
export interface CsrfProtection {
  /** Parses the signed cookies; must run before `protect`. */
  cookies: RequestHandler;
  /** Defines req.csrfToken(); on POST, rejects a missing or wrong token with a 403 error. */
  protect: RequestHandler;
  /** Defines req.csrfToken() without checking anything: for a form given back after a refusal. */
  issue: RequestHandler;
}

/**
 * The key that signs the CSRF cookie: made once and kept in the database, so that a restart or a
 * second instance on the same data does not invalidate forms that visitors have open.
 */
export function cookieSigningSecret(db: Db): string {
  const existing = db.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = 'cookie_secret'`).get();
  if (existing) return existing.value;
  const secret = randomBytes(32).toString('base64url');
  db.prepare(`INSERT OR IGNORE INTO settings (key, value) VALUES ('cookie_secret', ?)`).run(secret);
  return db.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = 'cookie_secret'`).get()?.value ?? secret;
}

/**
 * Where a post's token is read: the form's hidden field or our script's header, never the query
 * string (a URL with a token would end up in logs, histories and Referer headers).
 */
export function postedToken(req: Request): string {
  const body: unknown = req.body;
  const field = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[CSRF_FIELD] : undefined;
  // A page reached by client-side navigation posts an empty field and the token in the header.
  return typeof field === 'string' && field !== '' ? field : (req.get(CSRF_HEADER) ?? '');
}

export function csrfProtection(secret: string, https: boolean): CsrfProtection {
  // The __Host- prefix makes the browser refuse the cookie unless it is Secure, host-only and
  // Path=/, so no sibling subdomain can plant one.
  const cookieName = https ? '__Host-csrf' : 'csrf';
  const cookie = { key: cookieName, path: '/', httpOnly: true, sameSite: 'strict', secure: https, signed: true } as const;
  return {
    cookies: cookieParser(secret),
    protect: csurf({ cookie, value: postedToken }),
    issue: csurf({ cookie, value: postedToken, ignoreMethods: ['GET', 'HEAD', 'OPTIONS', 'POST'] }),
  };
}

/** True for the error csurf raises on a bad or missing token. */
export function isCsrfError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EBADCSRFTOKEN';
}
