import { escapeHtml } from '../../shared/escape-html';
import { absoluteUrl, newestDate, rfc822Date, type SeoSources } from './seo-sources';

/** /rss.xml: an RSS 2.0 feed of every article, newest first, with an atom:link to itself. */
export function buildRss({ siteUrl, articles, blog }: SeoSources): string {
  const newestFirst = [...articles].sort(
    (a, b) => b.published.localeCompare(a.published) || b.updated.localeCompare(a.updated) || a.path.localeCompare(b.path),
  );
  const items = newestFirst.map((article) => {
    const url = escapeHtml(absoluteUrl(siteUrl, article.path));
    return [
      '    <item>',
      `      <title>${escapeHtml(article.title)}</title>`,
      `      <link>${url}</link>`,
      `      <guid isPermaLink="true">${url}</guid>`,
      `      <description>${escapeHtml(article.excerpt)}</description>`,
      `      <pubDate>${rfc822Date(article.published)}</pubDate>`,
      `      <category>${escapeHtml(article.category)}</category>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeHtml(blog.title)}</title>`,
    `    <link>${escapeHtml(absoluteUrl(siteUrl, '/blog'))}</link>`,
    `    <description>${escapeHtml(blog.description)}</description>`,
    '    <language>en-gb</language>',
    `    <lastBuildDate>${rfc822Date(newestDate(articles.map((article) => article.updated)))}</lastBuildDate>`,
    `    <atom:link href="${escapeHtml(absoluteUrl(siteUrl, '/rss.xml'))}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
