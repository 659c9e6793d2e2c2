import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';
import type { FetchedText } from './fetched-text';

/**
 * A sitemap (sitemaps.org): a <urlset> of <url><loc> entries, or a <sitemapindex> of further
 * sitemaps. Read by saxes, a strict XML parser, so a file that is not well-formed XML is
 * reported as such, with the line where it breaks.
 */
export interface SitemapAnalysis {
  kind: 'urlset' | 'index';
  /** <url> entries with a <loc> (a urlset), or the child sitemaps listed (an index). */
  entries: number;
  /** An index's first INDEX_CHILDREN_READ child sitemaps, as absolute URLs. */
  sitemaps: string[];
  /** The XML breaks here (null: it parses). */
  error: string | null;
  /** Reading stopped at the size limit: `entries` counts the part that was read. */
  truncated: boolean;
}

/** Child sitemaps of an index that are read to count URLs; the others are counted, not listed. */
export const INDEX_CHILDREN_READ = 3;

class StopParsing extends Error {}

/** The text of a sitemap body: sitemap.xml.gz files are gzip themselves (not a Content-Encoding). */
export function sitemapText(body: Uint8Array, maxBytes: number): { text: string; error: string | null } {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return { text: Buffer.from(body).toString('utf8'), error: null };
  try {
    return { text: gunzipSync(body, { maxOutputLength: maxBytes }).toString('utf8'), error: null };
  } catch {
    return { text: '', error: `the gzipped sitemap does not unpack within ${Math.round(maxBytes / 1024)} KB` };
  }
}

export function analyseSitemap(source: Pick<FetchedText, 'text' | 'truncated' | 'url'>): SitemapAnalysis {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const result: SitemapAnalysis = { kind: 'urlset', entries: 0, sitemaps: [], error: null, truncated: source.truncated };
  const path: string[] = [];
  let root: string | null = null;
  let loc = '';
  // Names without a namespace prefix: <urlset xmlns="..."> and <sm:urlset xmlns:sm="..."> alike.
  const local = (name: string) => name.slice(name.indexOf(':') + 1);
  parser.on('opentag', (tag) => {
    const name = local(tag.name);
    if (root === null) {
      root = name;
      if (name === 'sitemapindex') result.kind = 'index';
      else if (name !== 'urlset') {
        result.error = `the root element is <${tag.name}>, not <urlset> or <sitemapindex>`;
        throw new StopParsing();
      }
    }
    path.push(name);
    if (name === 'loc') loc = '';
  });
  parser.on('text', (text) => {
    if (path.at(-1) === 'loc') loc += text;
  });
  parser.on('cdata', (text) => {
    if (path.at(-1) === 'loc') loc += text;
  });
  parser.on('closetag', () => {
    const name = path.pop();
    const parent = path.at(-1);
    if (name !== 'loc' || loc.trim() === '') return;
    if (result.kind === 'urlset' && parent === 'url') result.entries += 1;
    if (result.kind === 'index' && parent === 'sitemap') {
      result.entries += 1;
      if (result.sitemaps.length >= INDEX_CHILDREN_READ) return;
      try {
        result.sitemaps.push(new URL(loc.trim(), source.url).href);
      } catch {
        // A <loc> that is no URL is not a sitemap to read.
      }
    }
  });
  parser.on('error', (error) => {
    // The parser may quote the document (an entity's name): a report keeps the first 200 characters.
    result.error = error.message.slice(0, 200);
    throw new StopParsing();
  });
  try {
    parser.write(source.text);
    // A body cut at the size limit ends mid-element: what was read is counted, the cut is no fault.
    if (!source.truncated) parser.close();
  } catch (error) {
    if (!(error instanceof StopParsing)) result.error = (error instanceof Error ? error.message : String(error)).slice(0, 200);
  }
  if (root === null && result.error === null) result.error = 'no XML root element';
  return result;
}
