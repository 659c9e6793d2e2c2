import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A signed note of when a form was shown, bound to the visitor's CSRF token (itself bound to
 * their secret cookie). People take seconds to fill a form; a script posts at once, or keeps one
 * form load and posts it again and again. Signed, so a bot cannot backdate it; no state on the
 * server.
 */
export const MIN_FILL_MS = 3000;

/** Long enough to write the answers, short enough that one form load is not a key a script keeps. */
export const FILL_TIME_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export interface FillTimer {
  /** The note for a form shown now to the holder of `csrfToken`. */
  issue(csrfToken: string): string;
  /**
   * Why a post with this note does not look like a person filling the form (missing, forged,
   * another visitor's, too fast, too old), or null when it does.
   */
  suspicion(note: unknown, csrfToken: string, minFillMs: number): string | null;
}

export function fillTimer(secret: string, clock: () => Date): FillTimer {
  const sign = (issuedAt: string, csrfToken: string) => createHmac('sha256', `${secret}:fill-time`).update(`${issuedAt}.${csrfToken}`).digest('base64url');
  return {
    issue(csrfToken) {
      const issuedAt = String(clock().getTime());
      return `${issuedAt}.${sign(issuedAt, csrfToken)}`;
    },
    suspicion(note, csrfToken, minFillMs) {
      if (typeof note !== 'string' || note === '') return 'fill-time note missing';
      const [issuedAt, signature] = note.split('.');
      if (!issuedAt || !signature || !/^\d{1,15}$/.test(issuedAt)) return 'fill-time note malformed';
      const expected = Buffer.from(sign(issuedAt, csrfToken));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'fill-time note forged or issued to another visitor';
      const elapsed = clock().getTime() - Number(issuedAt);
      if (elapsed < minFillMs) return `sent ${elapsed} ms after the form was shown`;
      if (elapsed > FILL_TIME_MAX_AGE_MS) return `sent ${Math.round(elapsed / 60_000)} minutes after the form was shown`;
      return null;
    },
  };
}
