import { routesPaths } from './route-paths';

/**
 * What the thank-you page and the server share about the instant site check of a prospect's
 * website: where its token travels, where the page asks for news, and what it shows.
 */

/** The query parameter of the thank-you page that carries a request's check token. */
export const SITE_CHECK_PARAM = 'check';

/** Where the thank-you page asks, with the same token, whether the check is ready (JSON). */
export const SITE_CHECK_STATUS_PATH = '/site-check/status';

/** The page that tells site owners what the checker fetches and how to keep it out. */
export const SITE_CHECKER_PAGE_PATH = '/site-checker';

/** The thank-you page that shows one request's check. */
export function thankYouWithCheck(token: string): string {
  return `${routesPaths.thankYou}?${SITE_CHECK_PARAM}=${encodeURIComponent(token)}`;
}

/** The public AI-readiness check's result page for one check. */
export function readinessResult(token: string): string {
  return `${routesPaths.aiReadinessResult}?${SITE_CHECK_PARAM}=${encodeURIComponent(token)}`;
}

/** The query parameter of the audit form that fills its website field in (from a check's result). */
export const AUDIT_WEBSITE_PARAM = 'website';

/** A finding as the prospect sees it: what was checked, how it went, and one line on why it matters or what to fix. */
interface SiteCheckViewFinding {
  title: string;
  verdict: 'pass' | 'warn' | 'fail';
  /** What the checker saw. */
  detail: string;
  /** Why it matters, or what to fix. */
  advice: string;
}

/** The business's name as its home page gives it (null: none of its own), and where it was read ("from the title and the footer's copyright line"). */
interface BusinessNameView {
  name: string | null;
  from: string;
}

/**
 * One check as its page shows it (the thank-you page, the public check's result): the site, as
 * typed and by its host; still running, or done with a score and findings, or refused, failed or
 * skipped with the reason in one line.
 */
export type SiteCheckView = { host: string; url: string } & (
  | { status: 'pending' }
  | { status: 'done'; score: number; findings: SiteCheckViewFinding[]; business?: BusinessNameView }
  | { status: 'refused' | 'failed' | 'skipped'; reason: string }
);
