import type { ArticleSummary } from '../../../shared/content-schema';
import { site } from '../../../shared/site';
import type { JsonLd } from '../../../shared/json-ld';

/**
 * schema.org Article for one blog post. Author and publisher point at the Organization block the
 * server adds to every page (same @id), so the graph names the agency once.
 */
export function articleJsonLd(siteUrl: string, summary: ArticleSummary): JsonLd {
  const url = `${siteUrl}${summary.path}`;
  const organization = { '@type': 'Organization', '@id': `${siteUrl}/#organization`, name: site.brand };
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    '@id': `${url}#article`,
    headline: summary.title,
    description: summary.excerpt,
    author: organization,
    publisher: { ...organization, logo: { '@type': 'ImageObject', url: `${siteUrl}/logo.png` } },
    datePublished: summary.published,
    dateModified: summary.updated,
    image: `${siteUrl}/og-image.png`,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    inLanguage: 'en-GB',
    wordCount: summary.wordCount,
    keywords: summary.keywords,
    articleSection: summary.category,
  };
}
