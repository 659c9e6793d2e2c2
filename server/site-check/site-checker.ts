import { SITE_CHECKER_PAGE_PATH } from '../../shared/site-check';
import { parseAllowlist } from './address-policy';
import { createFetcher, type Resolver } from './fetcher';
import { runSiteCheck, type SiteCheckReport } from './run-check';

/** The checker's robots.txt product token: the brand, then SiteCheck ("CitewiseSiteCheck"). */
function checkerAgent(brand: string): string {
  return `${brand.replace(/[^A-Za-z0-9]/g, '')}SiteCheck`;
}

/**
 * The one User-Agent every fetch sends: it names the site and links to the page that says what
 * the checker does and how to keep it out.
 */
export function checkerUserAgent(brand: string, siteUrl: string): string {
  return `Mozilla/5.0 (compatible; ${checkerAgent(brand)}/1.0; +${siteUrl}${SITE_CHECKER_PAGE_PATH})`;
}

export interface SiteCheckerOptions {
  brand: string;
  siteUrl: string;
  /** SITE_CHECK_ALLOW, as config.ts validated it. */
  allow: readonly string[];
  /** The robots.txt tokens of the AI agents to judge. */
  agents: readonly string[];
  clock: () => Date;
  /** Tests give one that answers for made-up names; the system's by default. */
  resolver?: Resolver;
  timeoutMs?: number;
  fetchTimeoutMs?: number;
}

export interface SiteChecker {
  readonly userAgent: string;
  check(url: string, onProgress?: (step: string) => void): Promise<SiteCheckReport>;
}

/** The fetcher and the analysers, put together once for the worker or the CLI. */
export function createSiteChecker(options: SiteCheckerOptions): SiteChecker {
  const userAgent = checkerUserAgent(options.brand, options.siteUrl);
  const fetcher = createFetcher({
    userAgent,
    allowlist: parseAllowlist(options.allow.join(',')),
    ...(options.resolver ? { resolver: options.resolver } : {}),
    ...(options.fetchTimeoutMs ? { fetchTimeoutMs: options.fetchTimeoutMs } : {}),
  });
  return {
    userAgent,
    check: (url, onProgress) =>
      runSiteCheck(url, {
        fetcher,
        agents: options.agents,
        checkerAgent: checkerAgent(options.brand),
        clock: options.clock,
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(onProgress ? { onProgress } : {}),
      }),
  };
}
