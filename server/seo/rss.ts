import { absoluteUrl, escapeXml, newestDate, rfc822Date, type SeoSources } from './seo-sources';

/** /rss.xml: an RSS 2.0 feed of every article, newest first, with an atom:link to itself. */
export function buildRss({ siteUrl, articles, blog }: SeoSources): string {
  const newestFirst = [...articles].sort(
    (a, b) => b.published.localeCompare(a.published) || b.updated.localeCompare(a.updated) || a.path.localeCompare(b.path),
  );
  const items = newestFirst.map((article) => {
    const url = escapeXml(absoluteUrl(siteUrl, article.path));
    return [
      '    <item>',
      `      <title>${escapeXml(article.title)}</title>`,
      `      <link>${url}</link>`,
      `      <guid isPermaLink="true">${url}</guid>`,
      `      <description>${escapeXml(article.excerpt)}</description>`,
      `      <pubDate>${rfc822Date(article.published)}</pubDate>`,
      `      <category>${escapeXml(article.category)}</category>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(blog.title)}</title>`,
    `    <link>${escapeXml(absoluteUrl(siteUrl, '/blog'))}</link>`,
    `    <description>${escapeXml(blog.description)}</description>`,
    '    <language>en-gb</language>',
    `    <lastBuildDate>${rfc822Date(newestDate(articles.map((article) => article.updated)))}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(absoluteUrl(siteUrl, '/rss.xml'))}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
