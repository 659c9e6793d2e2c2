import { markdownTwins } from '../../shared/generated/markdown-twins';
import { twinPath, type MarkdownTwin } from '../../shared/markdown-twin';
import { site } from '../../shared/site';
import { precompress, type Representation, type ResponseMeta } from './representation';

const MARKDOWN = 'text/markdown; charset=utf-8';

/** Root-relative links made absolute: a twin is read away from the site, often pasted elsewhere. */
function absoluteLinks(markdown: string, siteUrl: string): string {
  return markdown.replace(/\]\((\/(?!\/)[^)\s]*)\)/g, (_link, path: string) => `](${siteUrl}${path})`);
}

/**
 * A twin as served: a short YAML header (title, description, canonical URL, dates, author), the
 * title, then the page's content with absolute links.
 */
export function twinText(twin: MarkdownTwin, siteUrl: string): string {
  const header = [
    '---',
    `title: ${JSON.stringify(twin.title)}`,
    `description: ${JSON.stringify(twin.description)}`,
    `canonical: ${siteUrl}${twin.path}`,
    ...(twin.published ? [`published: ${twin.published}`] : []),
    ...(twin.updated ? [`updated: ${twin.updated}`] : []),
    `author: ${JSON.stringify(`${site.brand} (${site.legalName})`)}`,
    '---',
  ];
  return [...header, '', `# ${twin.title}`, '', absoluteLinks(twin.body, siteUrl), ''].join('\n');
}

export interface TwinRepresentations {
  /** Served at the twin's own URL (/blog/x.md). */
  own: Representation;
  /** Served at the page's URL to a client that asks for text/markdown. */
  negotiated: Representation;
}

/**
 * Every page's twin, compressed once. Search engines keep one URL per page: a twin is noindex,
 * names the page as its canonical, and is left out of the sitemap.
 */
export function twinRepresentations(siteUrl: string, security: Record<string, string>): Map<string, TwinRepresentations> {
  const byPage = new Map<string, TwinRepresentations>();
  for (const twin of markdownTwins) {
    const body = Buffer.from(twinText(twin, siteUrl), 'utf8');
    const meta = (vary: string, extra: Record<string, string> = {}): ResponseMeta => ({
      status: 200,
      contentType: MARKDOWN,
      cacheControl: 'public, no-cache',
      headers: { ...security, Vary: vary, 'X-Robots-Tag': 'noindex', Link: `<${siteUrl}${twin.path}>; rel="canonical"`, ...extra },
    });
    byPage.set(twin.path, {
      own: precompress(body, meta('Accept-Encoding')),
      negotiated: precompress(body, meta('Accept, Accept-Encoding', { 'Content-Location': twinPath(twin.path) })),
    });
  }
  return byPage;
}
