import robotsParser from 'robots-parser';
import type { FetchedText } from './fetched-text';

/**
 * robots.txt as RFC 9309 reads it, through robots-parser (groups, `*` and `$` wildcards, the
 * longest match wins and Allow wins a tie, a byte-order mark and CRLF line ends): which AI agents
 * may fetch the page. How the file answered decides before any rule does: 2xx is parsed; any
 * other 4xx (404 above all) means no rules, everything allowed; 5xx or no answer at all means the
 * crawler must assume everything is disallowed.
 */
export interface RobotsAnalysis {
  /** found: parsed; missing: 4xx, all allowed; unreachable: 5xx or no answer, all disallowed. */
  state: 'found' | 'missing' | 'unreachable';
  /** One line on how robots.txt answered. */
  detail: string;
  /** Each agent's verdict for the page, in the order asked. */
  agents: { agent: string; allowed: boolean }[];
  /** The Sitemap: lines, as absolute URLs. */
  sitemaps: string[];
  /** Whether a group that names the checker itself (its opt-out) disallows the page. */
  checkerBlocked: boolean;
}

/** What the fetch of robots.txt gave: an answer, or why there was none. */
export type RobotsSource = FetchedText | { unreachable: string };

export function analyseRobots(source: RobotsSource, pageUrl: string, agents: readonly string[], checkerAgent: string): RobotsAnalysis {
  const verdictForAll = (allowed: boolean) => agents.map((agent) => ({ agent, allowed }));
  if ('unreachable' in source) {
    return { state: 'unreachable', detail: `robots.txt could not be fetched (${source.unreachable}), so crawlers must assume the whole site is off limits`, agents: verdictForAll(false), sitemaps: [], checkerBlocked: false };
  }
  if (source.status >= 500) {
    return { state: 'unreachable', detail: `robots.txt answered ${source.status}, so crawlers must assume the whole site is off limits (RFC 9309)`, agents: verdictForAll(false), sitemaps: [], checkerBlocked: false };
  }
  if (source.status >= 400) {
    return { state: 'missing', detail: `no robots.txt (it answered ${source.status}): every crawler may fetch every page`, agents: verdictForAll(true), sitemaps: [], checkerBlocked: false };
  }
  if (source.status < 200 || source.status >= 300) {
    return { state: 'unreachable', detail: `robots.txt answered ${source.status}, so crawlers must assume the whole site is off limits`, agents: verdictForAll(false), sitemaps: [], checkerBlocked: false };
  }
  // The rules at robots.txt's final address (after redirects) apply to the page's path there.
  const robots = robotsParser(source.url, source.text);
  const target = new URL(new URL(pageUrl).pathname + new URL(pageUrl).search, source.url).href;
  const allowed = (agent: string) => robots.isAllowed(target, agent) !== false;
  const verdicts = agents.map((agent) => ({ agent, allowed: allowed(agent) }));
  // The checker obeys only a group that names it: it runs because someone asked for this site's
  // audit, as assistants' user-triggered fetchers do, and a site that shuts out `*` is just the
  // site that needs the report. A group naming it is the owner's explicit opt-out.
  const ownGroup = robots.getMatchingLineNumber(target, checkerAgent) !== robots.getMatchingLineNumber(target, '*');
  const blocked = verdicts.filter((verdict) => !verdict.allowed).length;
  const sitemaps = robots.getSitemaps().flatMap((sitemap) => {
    try {
      return [new URL(sitemap, source.url).href];
    } catch {
      return [];
    }
  });
  return {
    state: 'found',
    detail: `robots.txt lets ${agents.length - blocked} of ${agents.length} AI agents fetch the page`,
    agents: verdicts,
    sitemaps,
    checkerBlocked: ownGroup && !allowed(checkerAgent),
  };
}
