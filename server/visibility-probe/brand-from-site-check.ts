import type { SiteCheckReport } from '../site-check/run-check';

/**
 * The business's name as its own site gives it, read by the site check: the name its structured
 * data or og:site_name declares; else the first part of the page's title ("Acme Plumbing" of
 * "Acme Plumbing | Emergency plumbers in Leeds"), which a home page's title starts with more
 * often than not. Null when the site says none (the probe then looks for its domain alone).
 */
export function brandFromSiteCheck(report: SiteCheckReport): string | null {
  const page = report.facts?.page;
  if (!page?.brand) return null;
  if (page.brand !== page.title) return page.brand;
  return page.brand.split(/\s+[|–—:·-]\s+/)[0]?.trim() || null;
}
