import { routesPaths } from '../../shared/site';
import { absoluteUrl, type SeoSources } from './seo-sources';

/**
 * AI crawlers and control tokens named in our robots.txt guide (content/articles/robots-llms-txt-guide.md).
 * Each gets a group of its own, so a stricter `*` rule added later cannot shut them out unnoticed.
 */
const AI_CRAWLERS = [
  'GPTBot', 'OAI-SearchBot', 'ChatGPT-User',
  'ClaudeBot', 'Claude-SearchBot', 'Claude-User',
  'PerplexityBot', 'Perplexity-User',
  'Google-Extended', 'Applebot-Extended',
  'CCBot', 'Meta-ExternalAgent', 'Amazonbot',
] as const;

/**
 * /robots.txt: the rules our home page recommends (allow all, Crawl-delay 1, the sitemap), with
 * the thank-you page (noindex, reached only after the form) kept out. A crawler obeys only the
 * most specific group that names it (RFC 9309), so each AI group repeats the rules in full.
 */
export function buildRobotsTxt({ siteUrl }: Pick<SeoSources, 'siteUrl'>): string {
  // Disallow before Allow: RFC 9309 picks the longest match anyway, and first-match parsers agree.
  const rules = [`Disallow: ${routesPaths.thankYou}`, 'Allow: /', 'Crawl-delay: 1'];
  const group = (agent: string) => [`User-agent: ${agent}`, ...rules, ''].join('\n');
  return [
    '# Open to search engines and AI crawlers.',
    '',
    group('*'),
    ...AI_CRAWLERS.map(group),
    `Sitemap: ${absoluteUrl(siteUrl, '/sitemap.xml')}`,
    '',
  ].join('\n');
}
