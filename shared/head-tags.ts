import { scriptSafeJson, type JsonLd } from './json-ld';
import { twinPath } from './markdown-twin';
import { site } from './site';

/** Everything a page puts in <head>. */
export interface HeadData {
  title: string;
  description: string;
  /**
   * Path of the canonical URL; joined to SITE_URL, never to the request's Host. Absent on what is
   * not a page of its own (the not-found and error pages): a canonical there would name an
   * address that answers with an error.
   */
  canonicalPath?: string;
  keywords?: string[];
  ogType?: 'website' | 'article';
  /** Page-specific JSON-LD; the Organization block is added to every page by the document. */
  jsonLd?: JsonLd[];
  /** Set on pages that must not be indexed (404, thank-you). */
  noindex?: boolean;
  article?: { publishedTime: string; modifiedTime: string; section: string };
  /** The 1200x630 share image: an article's own card; every other page, the site's. */
  image?: { path: string; alt: string };
}

const SITE_IMAGE = { path: '/og-image.png', alt: `${site.brand}: ${site.tagline}` };

export interface HeadTag {
  name: 'meta' | 'link' | 'script';
  attributes: Record<string, string>;
  text?: string;
}

/** The tags after <title>, shared by the server's document and the browser's updates. */
export function headTags(head: HeadData, siteUrl: string): HeadTag[] {
  const url = head.canonicalPath === undefined ? undefined : `${siteUrl}${head.canonicalPath}`;
  const image = head.image ?? SITE_IMAGE;
  const imageUrl = `${siteUrl}${image.path}`;
  const meta = (key: 'name' | 'property', name: string, content: string): HeadTag => ({
    name: 'meta',
    attributes: { [key]: name, content },
  });
  const tags: HeadTag[] = [meta('name', 'description', head.description)];
  if (url) tags.push({ name: 'link', attributes: { rel: 'canonical', href: url } });
  if (head.keywords && head.keywords.length > 0) tags.push(meta('name', 'keywords', head.keywords.join(', ')));
  if (head.noindex) tags.push(meta('name', 'robots', 'noindex, follow'));
  // The same page as Markdown, for AI assistants and crawlers (every indexable page has one).
  else if (head.canonicalPath !== undefined) {
    tags.push({ name: 'link', attributes: { rel: 'alternate', type: 'text/markdown', href: `${siteUrl}${twinPath(head.canonicalPath)}` } });
  }
  tags.push(
    meta('property', 'og:type', head.ogType ?? 'website'),
    meta('property', 'og:site_name', site.brand),
    meta('property', 'og:locale', 'en_GB'),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    ...(url ? [meta('property', 'og:url', url)] : []),
    meta('property', 'og:image', imageUrl),
    meta('property', 'og:image:width', '1200'),
    meta('property', 'og:image:height', '630'),
    meta('property', 'og:image:alt', image.alt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', imageUrl),
    meta('name', 'twitter:image:alt', image.alt),
  );
  if (head.article) {
    tags.push(
      meta('property', 'article:published_time', head.article.publishedTime),
      meta('property', 'article:modified_time', head.article.modifiedTime),
      meta('property', 'article:section', head.article.section),
    );
  }
  for (const block of head.jsonLd ?? []) {
    tags.push({ name: 'script', attributes: { type: 'application/ld+json' }, text: scriptSafeJson(block) });
  }
  return tags;
}
