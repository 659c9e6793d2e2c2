import type { SiteCheckReport } from '../site-check/run-check';

/**
 * The business's name as its own site gives it, read from a site check's report: the first part
 * of the page's title ("Acme Plumbing" of "Acme Plumbing | Emergency plumbers in Leeds"); null
 * when the site gave no title (the probe then looks for its domain alone).
 */
export function brandFromSiteCheck(report: SiteCheckReport): string | null {
  const title = report.facts?.page.title?.trim();
  if (!title) return null;
  return title.split(/\s+[|–—:·-]\s+/)[0]?.trim() || null;
}
