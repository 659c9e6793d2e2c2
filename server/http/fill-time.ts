import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * A signed note of when a form was shown, bound to the visitor's CSRF token (itself bound to
 * their secret cookie). People take seconds to fill a form (MIN_FILL_MS); a script posts at once,
 * or keeps one form load and posts it again and again. Signed, so a bot cannot backdate it; no
 * state on the server.
 */

/** Long enough to write the answers, short enough that one form load is not a key a script keeps. */
export const FILL_TIME_MAX_AGE_MS = 2 * 60 * 60 * 1000;

/** A note posted back with the token it was issued to. */
export interface PostedNote {
  note: unknown;
  csrfToken: string;
}

export interface FillTimer {
  /**
   * The note for a form shown to the holder of `csrfToken`: shown now or, when `earlier` is the
   * genuine note of the same form under the visitor's previous token (a post the server refused,
   * whose answers the visitor still has in front of them), shown when that note says.
   */
  issue(csrfToken: string, earlier?: PostedNote): string;
  /**
   * Why a post with this note does not look like a person filling the form (missing, forged,
   * another visitor's, too fast, too old), or null when it does.
   */
  suspicion(note: unknown, csrfToken: string, minFillMs: number): string | null;
}

export function fillTimer(secret: string, clock: () => Date): FillTimer {
  const sign = (issuedAt: string, csrfToken: string) => createHmac('sha256', `${secret}:fill-time`).update(`${issuedAt}.${csrfToken}`).digest('base64url');
  const note = (issuedAt: string, csrfToken: string) => `${issuedAt}.${sign(issuedAt, csrfToken)}`;

  /** When the form was shown, if `posted` is a note this server issued to `csrfToken`; else why not. */
  const shownAt = (posted: unknown, csrfToken: string): number | string => {
    if (typeof posted !== 'string' || posted === '') return 'fill-time note missing';
    const [issuedAt, signature] = posted.split('.');
    if (!issuedAt || !signature || !/^\d{1,15}$/.test(issuedAt)) return 'fill-time note malformed';
    const expected = Buffer.from(sign(issuedAt, csrfToken));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'fill-time note forged or issued to another visitor';
    return Number(issuedAt);
  };

  return {
    issue(csrfToken, earlier) {
      // Keeping the first showing's time gives a script nothing it lacks: the earlier note only
      // verifies with the token it was issued to, and whoever holds both held the cookie they came
      // with and could go on posting all three. The age limit still counts from the first showing.
      const shown = earlier ? shownAt(earlier.note, earlier.csrfToken) : undefined;
      return note(typeof shown === 'number' ? String(shown) : String(clock().getTime()), csrfToken);
    },
    suspicion(posted, csrfToken, minFillMs) {
      const shown = shownAt(posted, csrfToken);
      if (typeof shown === 'string') return shown;
      const elapsed = clock().getTime() - shown;
      if (elapsed < minFillMs) return `sent ${elapsed} ms after the form was shown`;
      if (elapsed > FILL_TIME_MAX_AGE_MS) return `sent ${Math.round(elapsed / 60_000)} minutes after the form was shown`;
      return null;
    },
  };
}
