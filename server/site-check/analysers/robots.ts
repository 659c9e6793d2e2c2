import { namesAgent, parseRobotsTxt, verdicts } from './robots-txt';

/**
 * robots.txt as RFC 9309 and Google's parser read it (./robots-txt.ts): which AI agents may fetch
 * the page. How the file answered decides before any rule does: 2xx is parsed; any other 4xx
 * (404 above all) means no rules, everything allowed; redirects that cannot be followed to the
 * end (more than five, or to an address not fetched) mean the same, as Google reads them; 5xx or
 * no answer at all means the crawler must assume everything is disallowed.
 */
export interface RobotsAnalysis {
  /**
   * found: parsed; missing: 4xx, all allowed; not-followed: its redirects went past five or to an
   * address the checker does not fetch, read as missing, all allowed; unreachable: 5xx or no
   * answer, all disallowed.
   */
  state: 'found' | 'missing' | 'not-followed' | 'unreachable';
  /** One line on how robots.txt answered. */
  detail: string;
  /** Each agent's verdict for the page, in the order asked. */
  agents: { agent: string; allowed: boolean }[];
  /** The Sitemap: lines, as absolute URLs. */
  sitemaps: string[];
  /** Whether a group that names the checker itself (its opt-out) disallows the page. */
  checkerBlocked: boolean;
}

/**
 * What the fetch of robots.txt gave: an answer (its final URL, status and bytes); why its
 * redirects were not followed to the end; or why there was no answer.
 */
export type RobotsSource = { url: string; status: number; body: Uint8Array; truncated: boolean } | { notFollowed: string } | { unreachable: string };

/** RFC 9309 2.5: a crawler parses at least the first 500 KiB, and may ignore the rest. */
const PARSED_BYTES = 500 * 1024;

export function analyseRobots(source: RobotsSource, pageUrl: string, agents: readonly string[], checkerAgent: string): RobotsAnalysis {
  const verdictForAll = (allowed: boolean) => agents.map((agent) => ({ agent, allowed }));
  if ('notFollowed' in source) {
    return { state: 'not-followed', detail: `${source.notFollowed}: a crawler that cannot follow robots.txt to the end treats it as missing, as Google does, so every crawler may fetch every page and none of its rules apply`, agents: verdictForAll(true), sitemaps: [], checkerBlocked: false };
  }
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
  const robots = parseRobotsTxt(source.body.subarray(0, PARSED_BYTES));
  // RFC 9309 2.3.1.2: the rules apply to the authority first asked, wherever robots.txt was
  // redirected to. The page is judged at its own URL as it is fetched, path and query as the
  // URL parser encoded them, never rebuilt (a path that starts with // would name another host).
  const page = new URL(pageUrl);
  const [checkerAllowed, ...allowed] = verdicts(robots, page.pathname + page.search, [checkerAgent, ...agents]);
  const verdictsByAgent = agents.map((agent, index) => ({ agent, allowed: allowed[index]! }));
  const blocked = verdictsByAgent.filter((verdict) => !verdict.allowed).length;
  const sitemaps = robots.sitemaps.flatMap((sitemap) => {
    try {
      return [new URL(sitemap, source.url).href];
    } catch {
      return [];
    }
  });
  const cut = source.truncated || source.body.length > PARSED_BYTES ? ' (its first 500 KiB read, as RFC 9309 allows)' : '';
  return {
    state: 'found',
    detail: `robots.txt lets ${agents.length - blocked} of ${agents.length} AI agents fetch the page${cut}`,
    agents: verdictsByAgent,
    sitemaps,
    // The checker obeys only a group that names it: it runs because someone asked for this site's
    // audit, as assistants' user-triggered fetchers do, and a site that shuts out `*` is just the
    // site that needs the report. A group naming it is the owner's explicit opt-out.
    checkerBlocked: namesAgent(robots, checkerAgent) && !checkerAllowed,
  };
}
