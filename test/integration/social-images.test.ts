import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import sharp from 'sharp';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { articles } from '../../shared/generated/articles';
import { site } from '../../shared/site';
import { renderSocialImage } from '../../scripts/lib/social-images';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { ROOT, TEST_SITE_URL } from '../helpers/locations';

/*
 * Each article has its own share card, drawn by the build and served by the built server; the
 * article's head and its Article JSON-LD point at it, every other page keeps the site's card.
 */

jest.setTimeout(60_000);

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess({ SITE_URL: TEST_SITE_URL, AI_LEDGER: 'off' });
});
afterAll(async () => {
  await server?.stop();
});

async function image(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

async function head(pagePath: string): Promise<HTMLElement> {
  const response = await fetch(`${server.url}${pagePath}`);
  expect([pagePath, response.status]).toEqual([pagePath, 200]);
  const document = parse(await response.text());
  const found = document.querySelector('head');
  if (!found) throw new Error(`${pagePath} has no head`);
  return found;
}

const content = (element: HTMLElement, selector: string) => element.querySelector(selector)?.getAttribute('content');

describe('the social card of each article', () => {
  it.each(articles.map((article) => article.slug))('/social/%s.png is a 1200x630 PNG, served like the other static files', async (slug) => {
    // A browser's Accept-Encoding: a PNG is compressed already, so it goes as it is.
    const { response, body } = await image(`${server.url}/social/${slug}.png`, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    const metadata = await sharp(body).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 1200, 630]);

    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/social/${slug}.png`, { headers: { 'If-None-Match': etag ?? '' } });
    expect(again.status).toBe(304);
  });

  it('is one distinct image per article, and no other name is served', async () => {
    const hashes = new Set<string>();
    for (const article of articles) {
      const { body } = await image(`${server.url}/social/${article.slug}.png`);
      hashes.add(createHash('sha256').update(body).digest('hex'));
    }
    expect(hashes.size).toBe(articles.length);
    const missing = await fetch(`${server.url}/social/no-such-article.png`);
    expect(missing.status).toBe(404);
  });

  it('fits the longest title the content schema allows (110 characters) in its band', async () => {
    const title = 'Recommendations Explained: Why Conversational Assistants Overlook Established Independent Businesses in Bangor';
    expect(title).toHaveLength(110);
    const brand = { name: site.brand, tagline: site.tagline, markSvg: readFileSync(path.join(ROOT, 'client', 'public', 'favicon.svg'), 'utf8') };
    const png = await renderSocialImage({ slug: 'longest', title, category: 'Comparison Guide' }, brand);
    const metadata = await sharp(png).metadata();
    expect([metadata.width, metadata.height]).toEqual([1200, 630]);
  });
});

describe('the share tags', () => {
  it.each(articles.map((article) => [article.slug, article] as const))('/blog/%s names its own card, absolute, with size and alt text', async (slug, article) => {
    const tags = await head(article.path);
    const card = `${TEST_SITE_URL}/social/${slug}.png`;
    expect(content(tags, 'meta[property="og:image"]')).toBe(card);
    expect(content(tags, 'meta[name="twitter:image"]')).toBe(card);
    expect(content(tags, 'meta[property="og:image:width"]')).toBe('1200');
    expect(content(tags, 'meta[property="og:image:height"]')).toBe('630');
    const alt = content(tags, 'meta[property="og:image:alt"]');
    expect(alt).toContain(article.title);
    expect(alt).toContain(article.category);
    expect(content(tags, 'meta[name="twitter:image:alt"]')).toBe(alt);
  });

  const otherPages = appRoutes.filter((route) => route.path !== NOT_FOUND_PATH && !route.path.startsWith('/blog/') && (route.status ?? 200) === 200).map((route) => route.path);

  it.each(otherPages)('%s keeps the site card', async (pagePath) => {
    const tags = await head(pagePath);
    expect(content(tags, 'meta[property="og:image"]')).toBe(`${TEST_SITE_URL}/og-image.png`);
    expect(content(tags, 'meta[name="twitter:image"]')).toBe(`${TEST_SITE_URL}/og-image.png`);
    expect(content(tags, 'meta[property="og:image:alt"]')).toBe(`${site.brand}: ${site.tagline}`);
    expect(content(tags, 'meta[name="twitter:image:alt"]')).toBe(`${site.brand}: ${site.tagline}`);
  });
});
