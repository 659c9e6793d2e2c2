import type { HomePageAnalysis } from './analysers/home-page';
import { declaresOrganization } from './analysers/home-page';
import type { LlmsTxtAnalysis } from './analysers/llms-txt';
import type { RobotsAnalysis } from './analysers/robots';

/**
 * The score out of 100: the one place its weights are written. Each line is one finding; a
 * finding earns its weight in full (pass), in part (warn) or not at all (fail). The weights add
 * up to 100, and the site itself, checked like any other, scores 100.
 */
export const SCORE_WEIGHTS = {
  /** robots.txt: share of the AI agents that may fetch the page. */
  aiCrawlers: 20,
  /** Readable words in the HTML itself: 200 or more in full, 50 to 199 half. */
  textInHtml: 20,
  /** No noindex in a robots meta tag or X-Robots-Tag. */
  indexable: 10,
  /** JSON-LD declares an Organization, LocalBusiness or another type below Organization. */
  organization: 10,
  /** llms.txt present and well formed in full; present but incomplete half. */
  llmsTxt: 7,
  https: 5,
  title: 5,
  metaDescription: 5,
  /** A sitemap found that parses with at least one URL; found but broken or empty half. */
  sitemap: 5,
  canonical: 3,
  /** og:title, og:description and og:image in full; some of them half. */
  openGraph: 3,
  /** A Markdown version: a text/markdown alternate link or an answer to Accept: text/markdown. */
  markdown: 3,
  language: 2,
  /** At least one JSON-LD block, and every block parses. */
  structuredDataParses: 2,
} as const;

type FindingId = keyof typeof SCORE_WEIGHTS;

const WORDS_FOR_FULL_MARKS = 200;
const WORDS_FOR_HALF_MARKS = 50;

export interface Finding {
  id: FindingId;
  title: string;
  verdict: 'pass' | 'warn' | 'fail';
  /** What the checker saw, in one line. */
  detail: string;
  /** Why it matters, or what to fix, in one line. */
  advice: string;
  points: number;
  maxPoints: number;
}

export interface SitemapFacts {
  /** Where it was looked for, and whether robots.txt named it. */
  url: string;
  fromRobots: boolean;
  /** null: not found (or not fetched); the reason is in detail. */
  urls: number | null;
  parses: boolean;
  detail: string;
}

export interface MarkdownFacts {
  via: 'link' | 'accept' | null;
  url: string | null;
}

/** Everything the score reads: the analysers' output for one site. */
export interface ScoredFacts {
  robots: RobotsAnalysis;
  page: HomePageAnalysis;
  /** The redirects followed to the page: each address that answered one, and its status. */
  redirects: { url: string; status: number }[];
  llmsTxt: LlmsTxtAnalysis;
  sitemap: SitemapFacts;
  markdown: MarkdownFacts;
}

const plural = (count: number, word: string) => `${count.toLocaleString('en-GB')} ${word}${count === 1 ? '' : 's'}`;

/** One finding: `share` of its weight (1 pass, 0 fail, between them warn). */
function finding(id: FindingId, title: string, share: number, detail: string, passAdvice: string, fixAdvice: string): Finding {
  const maxPoints = SCORE_WEIGHTS[id];
  const verdict = share >= 1 ? 'pass' : share <= 0 ? 'fail' : 'warn';
  return { id, title, verdict, detail, advice: verdict === 'pass' ? passAdvice : fixAdvice, points: Math.round(maxPoints * Math.max(0, Math.min(1, share)) * 10) / 10, maxPoints };
}

/** Why a page-level fact could not be read: the page is not an HTML document that answered 200. */
export function pageUnreadable(page: HomePageAnalysis): string | null {
  if (page.status < 200 || page.status >= 300) return `the page answered ${page.status}`;
  if (!page.html) return `the page is ${page.contentType || 'of no declared type'}, not HTML`;
  return null;
}

export function scoreFindings({ robots, page, redirects, llmsTxt, sitemap, markdown }: ScoredFacts): { score: number; findings: Finding[] } {
  const unreadable = pageUnreadable(page);
  const blocked = robots.agents.filter((agent) => !agent.allowed).map((agent) => agent.agent);
  const allowedShare = robots.agents.length === 0 ? 1 : (robots.agents.length - blocked.length) / robots.agents.length;
  const organization = declaresOrganization(page.jsonLdTypes);
  const ogCount = [page.openGraph.title, page.openGraph.description, page.openGraph.image].filter(Boolean).length;
  const words = page.textWords;

  const findings: Finding[] = [
    finding(
      'aiCrawlers',
      'AI crawlers allowed by robots.txt',
      allowedShare,
      robots.state === 'found' && blocked.length > 0 ? `${robots.detail}; it blocks ${blocked.join(', ')}` : robots.detail,
      robots.state === 'not-followed'
        ? 'AI assistants can fetch the page, but robots.txt itself goes unread: serve it at /robots.txt, or redirect it in at most five steps to a public web address, if its rules are meant to count.'
        : 'AI assistants can fetch the page, so they can read, quote and recommend it.',
      'An AI agent that robots.txt blocks cannot read the page, so it cannot quote or recommend it: allow the agents you want to be found by.',
    ),
    finding(
      'textInHtml',
      'Readable text in the HTML',
      unreadable ? 0 : words >= WORDS_FOR_FULL_MARKS ? 1 : words >= WORDS_FOR_HALF_MARKS ? 0.5 : 0,
      unreadable ?? (words < WORDS_FOR_HALF_MARKS ? `only ${plural(words, 'word')} without running JavaScript: the page looks like an empty shell that a script fills in` : `${plural(words, 'word')} of text in the HTML as served${page.truncated ? ' (in its first 1 MB)' : ''}`),
      'Crawlers that run no JavaScript, as most AI crawlers do, still read the whole page.',
      'Most AI crawlers do not run JavaScript: render the text on the server (or pre-render the page) so that the HTML itself carries it.',
    ),
    finding(
      'indexable',
      'Open to indexing',
      unreadable ? 0 : page.noindex ? 0 : 1,
      unreadable ?? (page.noindex === 'meta' ? 'a robots meta tag says noindex' : page.noindex === 'header' ? 'the X-Robots-Tag header says noindex' : 'no noindex in a robots meta tag or X-Robots-Tag header'),
      'Search engines and AI search may list the page.',
      'noindex asks search engines and AI search to leave the page out: remove it from every page you want to be found.',
    ),
    finding(
      'organization',
      'Says who the business is (structured data)',
      unreadable ? 0 : organization ? 1 : 0,
      unreadable ?? (page.jsonLdTypes.length > 0 ? `JSON-LD types: ${page.jsonLdTypes.join(', ')}` : 'no JSON-LD structured data'),
      'Assistants can tie the site to the business by its declared name, address and profiles.',
      'Add JSON-LD with an Organization or LocalBusiness node (name, url, logo, address, phone, sameAs links) so that assistants can tell exactly who the business is.',
    ),
    finding(
      'llmsTxt',
      'llms.txt',
      llmsTxt.wellFormed ? 1 : llmsTxt.present ? 0.5 : 0,
      llmsTxt.detail,
      'AI tools get a short, curated map of the site.',
      'Publish /llms.txt: an H1 with the name, a > summary line, then ## sections listing your key pages as Markdown links.',
    ),
    finding(
      'https',
      'Served over HTTPS',
      page.https ? 1 : 0,
      `${page.https ? `the page is served from ${page.url}` : `the page is served over plain http (${page.url})`}${
        redirects.length === 0 ? '' : `, after ${redirects.length} redirect${redirects.length === 1 ? '' : 's'} (${redirects.map((hop) => `${hop.status} from ${hop.url}`).join(', ')})`
      }; it answered ${page.status}`,
      'Crawlers and browsers trust the page and its links.',
      'Serve the site over HTTPS and redirect http to it: browsers flag plain http as not secure, and search ranks it lower.',
    ),
    finding(
      'title',
      'Page title',
      unreadable ? 0 : page.title ? 1 : 0,
      unreadable ?? (page.title ? `"${page.title}"` : 'no <title>'),
      'The title is the name assistants and search results show for the page.',
      'Give every page a <title> that names the business and what the page offers.',
    ),
    finding(
      'metaDescription',
      'Meta description',
      unreadable ? 0 : page.metaDescription ? 1 : 0,
      unreadable ?? (page.metaDescription ? `"${page.metaDescription.length > 160 ? `${page.metaDescription.slice(0, 157)}...` : page.metaDescription}"` : 'no meta description'),
      'A one-line summary that assistants and search results can quote.',
      'Add a meta description of one or two sentences that says what the business does and for whom.',
    ),
    finding(
      'sitemap',
      'XML sitemap',
      sitemap.parses && (sitemap.urls ?? 0) > 0 ? 1 : sitemap.urls !== null || sitemap.parses ? 0.5 : 0,
      sitemap.detail,
      'Crawlers find every page, including the ones few links point to.',
      'Publish a sitemap.xml that lists every page and name it in robots.txt with a Sitemap: line.',
    ),
    finding(
      'canonical',
      'Canonical URL',
      unreadable ? 0 : page.canonical ? 1 : 0,
      unreadable ?? (page.canonical ? `canonical: ${page.canonical}` : 'no canonical link'),
      'Every copy of the page (with tracking tags, http or www) counts as this one address.',
      'Add <link rel="canonical"> with the page\'s preferred address, so that its copies are not counted apart.',
    ),
    finding(
      'openGraph',
      'Open Graph tags',
      unreadable ? 0 : ogCount / 3,
      unreadable ?? (ogCount === 3 ? 'og:title, og:description and og:image are set' : ogCount === 0 ? 'no Open Graph tags' : `missing: ${[!page.openGraph.title && 'og:title', !page.openGraph.description && 'og:description', !page.openGraph.image && 'og:image'].filter(Boolean).join(', ')}`),
      'Links to the page show a proper title, summary and picture wherever they are shared.',
      'Add og:title, og:description and og:image, which chat apps and social sites show when the page is shared.',
    ),
    finding(
      'markdown',
      'Markdown version for AI',
      markdown.via ? 1 : 0,
      markdown.via === 'link' ? `a text/markdown alternate link: ${markdown.url}` : markdown.via === 'accept' ? 'the page answers Accept: text/markdown with Markdown' : 'no Markdown version (no text/markdown alternate link, no answer to Accept: text/markdown)',
      'Assistants can read the page as clean Markdown, without navigation and markup.',
      'Offer each page as Markdown (a .md twin linked with rel="alternate" type="text/markdown"): AI tools read it with far less noise.',
    ),
    finding(
      'language',
      'Language declared',
      unreadable ? 0 : page.lang ? 1 : 0,
      unreadable ?? (page.lang ? `lang="${page.lang}"` : 'no lang attribute on <html>'),
      'Assistants know which language and region the page is written for.',
      'Set <html lang="en-GB"> (or the page\'s language), so that the page is matched with the right audience.',
    ),
    finding(
      'structuredDataParses',
      'Structured data parses',
      unreadable ? 0 : page.jsonLdBlocks > 0 && page.jsonLdInvalid === 0 ? 1 : 0,
      unreadable ??
        (page.jsonLdBlocks === 0
          ? 'no JSON-LD blocks'
          : page.jsonLdInvalid === 0
            ? `${plural(page.jsonLdBlocks, 'JSON-LD block')}, all valid JSON`
            : `${page.jsonLdInvalid} of ${plural(page.jsonLdBlocks, 'JSON-LD block')} ${page.jsonLdInvalid === 1 ? 'does' : 'do'} not parse: ${page.jsonLdErrors[0]}`),
      'Machines can read every structured-data block.',
      'A JSON-LD block that is not valid JSON is ignored whole: fix it (a trailing comma or an unescaped quote is the usual cause).',
    ),
  ];
  const score = Math.round(findings.reduce((sum, item) => sum + item.points, 0));
  return { score, findings };
}
