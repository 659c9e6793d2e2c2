import { analyseBusinessFacts, mergeBusinessFacts, readPage, type PageFacts } from './analysers/business-facts';
import type { HomePageAnalysis } from './analysers/home-page';
import { decodeBody, type FetchedText } from './analysers/fetched-text';
import { analyseLlmsTxt } from './analysers/llms-txt';
import { analyseRobots, type RobotsSource } from './analysers/robots';
import { analyseSitemap, INDEX_CHILDREN_READ, sitemapText } from './analysers/sitemap';
import { normaliseSiteUrl, type CheckStatus, type SiteCheckReport } from './check-report';
import { FetchFailed, FetchRefused, MAX_BYTES, TooManyRedirects, type FetchedResponse, type FetchOptions, type SiteFetcher } from './fetcher';
import { scoreFindings, type MarkdownFacts, type SitemapFacts } from './scoring';

/** The longest a whole check may take, all its fetches together. */
const CHECK_TIMEOUT_MS = 30_000;

/** What a crawler reads of robots.txt at most (RFC 9309 2.5: at least 500 KiB). */
const ROBOTS_MAX_BYTES = 500 * 1024;

/** The longest address checked, once written out in full (percent-encoded): what browsers accept. */
const MAX_URL_LENGTH = 2083;

/** How long the contact page may still take once the rest of the check is done: it never holds a check up longer. */
const CONTACT_PAGE_GRACE_MS = 2000;

/** The longest address a report keeps as it was seen (a redirect may name a longer one). */
const URL_SHOWN = 500;

const shownUrl = (url: string) => (url.length > URL_SHOWN ? `${url.slice(0, URL_SHOWN - 1)}…` : url);

export interface CheckEnvironment {
  fetcher: SiteFetcher;
  /** The robots.txt product tokens of the AI agents to judge (server/ledger/ai-sources.json). */
  agents: readonly string[];
  /** The checker's own product token, whose robots.txt group is the site owner's opt-out. */
  checkerAgent: string;
  clock: () => Date;
  timeoutMs?: number;
  /** Told of each step as it starts ("fetching robots.txt"). */
  onProgress?: (step: string) => void;
}

function toText(response: FetchedResponse): FetchedText {
  const { contentType, text } = decodeBody(response.body, response.headers['content-type']);
  return { url: response.url, status: response.status, contentType, text, truncated: response.truncated };
}

/** A secondary fetch's failure in a person's words; the check's own time running out says so. */
function unreachable(error: unknown): string {
  if (error instanceof FetchRefused || error instanceof FetchFailed) return error.message;
  return 'the check ran out of time';
}

/**
 * Checks one site as an AI crawler sees it: robots.txt, then the page (no script run), then
 * llms.txt, the sitemap, a Markdown version and the contact page the page links side by side; the
 * business's facts are read from the page and its contact page. Every fetch goes through the
 * fetcher's rules; the whole check ends after `timeoutMs`. Never throws: a refusal or a failure
 * is a report too.
 */
export async function runSiteCheck(input: string, env: CheckEnvironment): Promise<SiteCheckReport> {
  const started = env.clock();
  const startedAt = performance.now();
  const url = normaliseSiteUrl(input);
  const host = url?.host.toLowerCase() ?? '';
  const report = (status: CheckStatus, reason: string | null, rest: Pick<SiteCheckReport, 'score' | 'findings' | 'facts'> = { score: null, findings: [], facts: null }): SiteCheckReport => ({
    status,
    reason,
    url: input.trim(),
    host,
    checkedAt: started.toISOString(),
    durationMs: Math.round(performance.now() - startedAt),
    ...rest,
  });
  if (!url) return report('refused', `"${input.trim().slice(0, 200)}" is not a web address`);
  // The path is what robots.txt's rules are matched against, at a cost that grows with its length.
  if (url.href.length > MAX_URL_LENGTH) return report('refused', `the address is longer than ${MAX_URL_LENGTH.toLocaleString('en-GB')} characters, more than browsers accept`);

  const deadline = new AbortController();
  const timeoutMs = env.timeoutMs ?? CHECK_TIMEOUT_MS;
  const timer = setTimeout(() => deadline.abort(new FetchFailed(`the check took longer than ${timeoutMs / 1000} s`)), timeoutMs);
  const { signal } = deadline;
  const fetch: Fetch = (target, options = {}) => env.fetcher.fetch(target, { signal, ...options });
  try {
    env.onProgress?.('fetching robots.txt');
    const robotsUrl = new URL('/robots.txt', url);
    let robotsSource: RobotsSource;
    try {
      const { url: finalUrl, status, body, truncated } = await fetch(robotsUrl, { accept: 'text/plain', maxBytes: ROBOTS_MAX_BYTES });
      robotsSource = { url: finalUrl, status, body, truncated };
    } catch (error) {
      // robots.txt's own address refused (a private address, a port): the page, on the same host, would be too.
      if (error instanceof FetchRefused && error.url === robotsUrl.href) return report('refused', error.message);
      if (signal.aborted) throw signal.reason;
      // RFC 9309 2.3.1.2: past five redirects a crawler may take robots.txt as unavailable, and
      // Google does, as it does when a redirect leads where it will not fetch. A redirect the
      // checker refuses is such a one: it is not an error of the site's server or network.
      if (error instanceof TooManyRedirects) robotsSource = { notFollowed: error.message };
      else if (error instanceof FetchRefused) robotsSource = { notFollowed: `robots.txt redirects to ${shownUrl(error.url)}, which the checker does not follow (${error.message})` };
      else robotsSource = { unreachable: unreachable(error) };
    }
    const robots = analyseRobots(robotsSource, url.href, env.agents, env.checkerAgent);
    if (robots.checkerBlocked) return report('refused', `${robotsUrl.host}'s robots.txt asks ${env.checkerAgent} not to fetch the site, so it was not checked`);

    env.onProgress?.('fetching the page');
    let pageResponse: FetchedResponse;
    try {
      pageResponse = await fetch(url);
    } catch (error) {
      if (error instanceof FetchRefused) return report('refused', error.message);
      if (error instanceof FetchFailed) return report('failed', error.message);
      throw error;
    }
    const { page: analysis, facts: homeFacts } = readPage(toText(pageResponse), pageResponse.headers, 'home page');
    const page = { ...analysis, url: shownUrl(analysis.url) };
    const origin = new URL(pageResponse.url).origin;
    // Sitemaps are read only where the site itself lives: the host asked for, or the one it redirected to.
    const ownHosts: ReadonlySet<string> = new Set([url.host, new URL(pageResponse.url).host]);
    const redirects = pageResponse.redirects.map((hop) => ({ ...hop, url: shownUrl(hop.url) }));

    env.onProgress?.('fetching llms.txt, the sitemap and a Markdown version');
    // The contact page is read beside them, and let go a little after they are done.
    const contactStop = new AbortController();
    const contactSignal = AbortSignal.any([signal, contactStop.signal]);
    const contactRead = readContactPage(homeFacts.contactLink, ownHosts, (target, options) => env.fetcher.fetch(target, { ...options, signal: contactSignal }));
    const [llmsTxt, sitemap, markdown] = await Promise.all([
      fetch(new URL('/llms.txt', origin), { accept: 'text/markdown, text/plain;q=0.9, */*;q=0.1' }).then(
        (response) => analyseLlmsTxt(toText(response)),
        (error: unknown) => analyseLlmsTxt({ unreachable: unreachable(error) }),
      ),
      readSitemap(robots.sitemaps[0] ?? new URL('/sitemap.xml', origin).href, robots.sitemaps.length > 0, ownHosts, fetch),
      findMarkdown(page, pageResponse.url, fetch),
    ]);
    const grace = setTimeout(() => contactStop.abort(), CONTACT_PAGE_GRACE_MS);
    const contact = await contactRead.finally(() => clearTimeout(grace));
    const business = mergeBusinessFacts(homeFacts, contact);
    const { score, findings } = scoreFindings({ robots, page, redirects, llmsTxt, sitemap, markdown });
    // The facts keep the first few Sitemap: lines robots.txt names, as a report shows them.
    const robotsFacts = { ...robots, sitemaps: robots.sitemaps.slice(0, INDEX_CHILDREN_READ).map(shownUrl) };
    return report('done', null, { score, findings, facts: { page, redirects, robots: robotsFacts, llmsTxt, sitemap, markdown, business } });
  } catch (error) {
    if (error instanceof FetchRefused) return report('refused', error.message);
    if (error instanceof FetchFailed) return report('failed', error.message);
    return report('failed', `the check stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

type Fetch = (target: string | URL, options?: Omit<FetchOptions, 'signal'>) => Promise<FetchedResponse>;

/**
 * The sitemap robots.txt names (or /sitemap.xml): whether it parses and how many URLs it lists.
 * Read only on the site's own hosts (`ownHosts`), redirects included: a robots.txt cannot send
 * the checker to fetch from anyone else.
 */
async function readSitemap(sitemapUrl: string, fromRobots: boolean, ownHosts: ReadonlySet<string>, fetch: Fetch): Promise<SitemapFacts> {
  const where = fromRobots ? `the sitemap robots.txt names (${shownUrl(sitemapUrl)})` : shownUrl(sitemapUrl);
  const read = async (target: string) => {
    const response = await fetch(target, { accept: 'application/xml, text/xml;q=0.9, */*;q=0.1', hosts: ownHosts });
    if (response.status < 200 || response.status >= 300) return { status: response.status, analysis: null };
    const { text, error } = sitemapText(response.body, MAX_BYTES);
    if (error) return { status: response.status, analysis: { kind: 'urlset' as const, entries: 0, sitemaps: [], error, truncated: false } };
    return { status: response.status, analysis: analyseSitemap({ text, truncated: response.truncated, url: response.url }) };
  };
  try {
    const { status, analysis } = await read(sitemapUrl);
    if (!analysis) return { url: sitemapUrl, fromRobots, urls: null, parses: false, detail: `no sitemap: ${where} answered ${status}` };
    if (analysis.error) return { url: sitemapUrl, fromRobots, urls: analysis.entries, parses: false, detail: `${where} does not parse: ${analysis.error}` };
    if (analysis.kind === 'urlset') {
      return { url: sitemapUrl, fromRobots, urls: analysis.entries, parses: true, detail: `${where} lists ${analysis.truncated ? 'at least ' : ''}${analysis.entries.toLocaleString('en-GB')} URLs` };
    }
    // An index: the URLs of its first few sitemaps are counted.
    const children = await Promise.all(analysis.sitemaps.map((child) => read(child).catch(() => ({ status: 0, analysis: null }))));
    const urls = children.reduce((sum, child) => sum + (child.analysis && !child.analysis.error && child.analysis.kind === 'urlset' ? child.analysis.entries : 0), 0);
    const counted = Math.min(analysis.sitemaps.length, INDEX_CHILDREN_READ);
    return {
      url: sitemapUrl,
      fromRobots,
      urls,
      parses: true,
      detail: `${where} is an index of ${analysis.entries} sitemaps; ${counted === analysis.entries ? 'they list' : `the first ${counted} list`} ${urls.toLocaleString('en-GB')} URLs`,
    };
  } catch (error) {
    return { url: sitemapUrl, fromRobots, urls: null, parses: false, detail: `no sitemap: ${where} could not be fetched (${unreachable(error)})` };
  }
}

/**
 * The contact page the home page links (`link`, on its own origin), and the facts it states: read
 * only on the site's own hosts, redirects included; null when there is none, or it does not answer
 * 2xx with HTML, or its fetch fails or is let go. It never fails the check.
 */
async function readContactPage(link: string | null, ownHosts: ReadonlySet<string>, fetch: Fetch): Promise<{ url: string; facts: PageFacts } | null> {
  if (link === null) return null;
  try {
    const response = await fetch(link, { hosts: ownHosts });
    const page = toText(response);
    const html = page.contentType === 'text/html' || page.contentType === 'application/xhtml+xml';
    if (response.status < 200 || response.status >= 300 || !html) return null;
    return { url: shownUrl(response.url), facts: analyseBusinessFacts(page, 'contact page') };
  } catch {
    return null;
  }
}

/** A Markdown version of the page: the alternate link it declares, or its answer to Accept: text/markdown. */
async function findMarkdown(page: HomePageAnalysis, pageUrl: string, fetch: Fetch): Promise<MarkdownFacts> {
  if (page.markdownLink) return { via: 'link', url: page.markdownLink };
  try {
    const response = await fetch(pageUrl, { accept: 'text/markdown' });
    const { contentType } = decodeBody(Buffer.alloc(0), response.headers['content-type']);
    return response.status >= 200 && response.status < 300 && contentType === 'text/markdown' ? { via: 'accept', url: shownUrl(response.url) } : { via: null, url: null };
  } catch {
    return { via: null, url: null };
  }
}
