import { escapeHtml } from '../../shared/escape-html';
import { routesPaths } from '../../shared/site';
import { absoluteUrl, indexablePaths, newestDate, type SeoSources } from './seo-sources';

/**
 * /sitemap.xml (sitemaps.org 0.9): every indexable route with its last-modified day. Articles and
 * legal pages carry their own `updated`; the blog index changes when an article does. Other pages
 * have no date of their own, so they take the newest content date: derived from content, never
 * from the clock, so every build of the same content writes the same file.
 */
export function buildSitemap({ siteUrl, routes, articles, legalPages }: SeoSources): string {
  const dated = new Map<string, string>([
    ...articles.map((article): [string, string] => [article.path, article.updated]),
    ...legalPages.map((page): [string, string] => [`/${page.slug}`, page.updated]),
  ]);
  const newestArticle = newestDate(articles.map((article) => article.updated));
  const newestContent = newestDate([...dated.values()]);
  const urls = indexablePaths(routes).map((path) => {
    const lastmod = dated.get(path) ?? (path === routesPaths.blog ? newestArticle : newestContent);
    return `  <url>\n    <loc>${escapeHtml(absoluteUrl(siteUrl, path))}</loc>\n    <lastmod>${lastmod}</lastmod>\n  </url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
