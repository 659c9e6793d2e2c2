import type { ArticleSummary } from '../../../shared/content-schema';
import type { JsonLd } from '../../../shared/json-ld';
import { logoJsonLd, organizationReference, websiteId } from '../../../shared/site-json-ld';
import { socialImagePath } from '../../../shared/social-image';

/**
 * schema.org Article for one blog post. Author and publisher are the agency's Organization node
 * (the same @id, name and url as the block the server adds to every page), so the graph names
 * the agency once; the image is the article's own social card.
 */
export function articleJsonLd(siteUrl: string, summary: ArticleSummary): JsonLd {
  const url = `${siteUrl}${summary.path}`;
  const organization = organizationReference(siteUrl);
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    '@id': `${url}#article`,
    headline: summary.title,
    description: summary.excerpt,
    author: organization,
    publisher: { ...organization, logo: logoJsonLd(siteUrl) },
    datePublished: summary.published,
    dateModified: summary.updated,
    image: `${siteUrl}${socialImagePath(summary.slug)}`,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    isPartOf: { '@id': websiteId(siteUrl) },
    url,
    inLanguage: 'en-GB',
    wordCount: summary.wordCount,
    keywords: summary.keywords,
    articleSection: summary.category,
  };
}
