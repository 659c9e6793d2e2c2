import type { BusinessFacts } from '../business/business-facts';
import type { HomePageAnalysis } from './analysers/home-page';
import type { LlmsTxtAnalysis } from './analysers/llms-txt';
import type { RobotsAnalysis } from './analysers/robots';
import type { FetchedResponse } from './fetcher';
import type { Finding, MarkdownFacts, SitemapFacts } from './scoring';

/*
 * A site check's report as plain data, and the addresses it is kept by. The server stores, mails
 * and shows reports; only the check's own process fetches and parses a site, so this module,
 * unlike run-check.ts, loads none of the parsers.
 */

/** done: checked; refused: the rules do not let it be fetched; failed: no answer; skipped: not run (a budget, a full queue). */
export type CheckStatus = 'done' | 'refused' | 'failed' | 'skipped';

/** What one check found: stored beside the request, mailed, shown to the prospect, printed by the CLI. */
export interface SiteCheckReport {
  status: CheckStatus;
  /** Why a check was refused or failed, in one line (null when done). */
  reason: string | null;
  /** The address as asked. */
  url: string;
  /** The host it names ("www.example.co.uk"; with a port when it has one). */
  host: string;
  checkedAt: string;
  durationMs: number;
  score: number | null;
  findings: Finding[];
  /** What the analysers read, for ops and scripts. */
  facts: {
    page: HomePageAnalysis;
    redirects: FetchedResponse['redirects'];
    robots: RobotsAnalysis;
    llmsTxt: LlmsTxtAnalysis;
    sitemap: SitemapFacts;
    markdown: MarkdownFacts;
    /** What the business's home page (and its contact page) state about it; absent from checks stored before they were read. */
    business?: BusinessFacts;
  } | null;
}

/** A web address from what a person typed: "example.co.uk" is https://example.co.uk/. */
export function normaliseSiteUrl(input: string): URL | null {
  const trimmed = input.trim();
  if (trimmed === '') return null;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return null;
  }
}

/**
 * The address a check is of, whichever way it was typed ("Example.co.uk" and
 * "https://example.co.uk/#top" are one): a recent result is reused by it. '' when it is no address.
 */
export function urlKeyOf(input: string): string {
  const url = normaliseSiteUrl(input);
  if (!url) return '';
  url.hash = '';
  return url.href;
}

/** The host of a typed address, for grouping checks and naming them; '' when it is no address. */
export function hostOf(input: string): string {
  return normaliseSiteUrl(input)?.host.toLowerCase() ?? '';
}

/** The report of a check that has no findings: not run, or ended before it had any. */
export function reportWithoutFacts(input: string, status: Exclude<CheckStatus, 'done'>, reason: string, checkedAt: Date, durationMs = 0): SiteCheckReport {
  return { status, reason, url: input.trim(), host: hostOf(input), checkedAt: checkedAt.toISOString(), durationMs, score: null, findings: [], facts: null };
}
