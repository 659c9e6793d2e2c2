import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A signed note of when a form was shown. People take seconds to fill a form; a script that
 * posts at once is a bot, and is treated like one that fills the honeypot (told it succeeded,
 * nothing stored). Signed, so a bot cannot backdate it; no state on the server.
 */
export const MIN_FILL_MS = 3000;

export interface FillTimer {
  /** The token for a form shown now. */
  issue(): string;
  /** Milliseconds since the form was shown, or null when the token is missing or forged. */
  elapsed(token: unknown): number | null;
}

export function fillTimer(secret: string, clock: () => Date): FillTimer {
  const sign = (issuedAt: string) => createHmac('sha256', `${secret}:fill-time`).update(issuedAt).digest('base64url');
  return {
    issue() {
      const issuedAt = String(clock().getTime());
      return `${issuedAt}.${sign(issuedAt)}`;
    },
    elapsed(token) {
      if (typeof token !== 'string') return null;
      const [issuedAt, signature] = token.split('.');
      if (!issuedAt || !signature || !/^\d{1,15}$/.test(issuedAt)) return null;
      const expected = Buffer.from(sign(issuedAt));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      return clock().getTime() - Number(issuedAt);
    },
  };
}
