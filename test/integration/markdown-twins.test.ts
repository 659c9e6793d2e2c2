import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'node-html-parser';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { articles } from '../../shared/generated/articles';
import { twinPath } from '../../shared/markdown-twin';
import { createHttpServer } from '../../server/http-server';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { TEST_SITE_URL } from '../helpers/locations';

/*
 * Every public page is also served as Markdown, for AI assistants and crawlers that read text:
 * at its own URL, and at the page's URL to a client that asks for text/markdown. Search engines
 * keep one URL per page: a twin is noindex, names the page as canonical, and is not in the sitemap.
 */

let app: TestApp;
let server: Server;
let base: string;
beforeAll(async () => {
  app = createTestApp();
  await app.app.warmPages();
  server = createHttpServer(app.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  app.close();
});

const publicPages = appRoutes.filter((route) => route.path !== NOT_FOUND_PATH && !route.noindex && route.sitemap !== false).map((route) => route.path);
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** The YAML header and the Markdown after it. */
function splitTwin(text: string): { header: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`no YAML header in:\n${text.slice(0, 200)}`);
  return { header: parseYaml(match[1] ?? '') as Record<string, unknown>, body: match[2] ?? '' };
}

describe('the Markdown twin of every public page', () => {
  it.each(publicPages)('%s: served at its .md URL as Markdown, noindex, canonical to the page', async (pagePath) => {
    const response = await request(app.app).get(twinPath(pagePath));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.headers.link).toBe(`<${TEST_SITE_URL}${pagePath}>; rel="canonical"`);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const { header, body } = splitTwin(response.text);
    expect(header).toMatchObject({ canonical: `${TEST_SITE_URL}${pagePath}`, author: expect.stringContaining('Citewise') });
    expect(typeof header.title).toBe('string');
    expect(typeof header.description).toBe('string');
    expect(body.startsWith(`# ${String(header.title)}\n`)).toBe(true);
    // Links to the site are absolute: a twin is read away from the site.
    expect(body).not.toMatch(/\]\(\/(?!\/)/);
    // The page links its twin for whoever reads the HTML.
    const page = parse((await request(app.app).get(pagePath)).text);
    expect(page.querySelector('link[rel="alternate"][type="text/markdown"]')?.getAttribute('href')).toBe(`${TEST_SITE_URL}${twinPath(pagePath)}`);
  });

  it.each(articles.map((article) => article.slug))('/blog/%s.md holds the article: its dates, headings, text and blocks as Markdown', async (slug) => {
    const summary = articles.find((article) => article.slug === slug)!;
    const twin = splitTwin((await request(app.app).get(`/blog/${slug}.md`)).text);
    expect(twin.header).toMatchObject({ title: summary.title, description: summary.excerpt, published: summary.published, updated: summary.updated });
    const html = parse((await request(app.app).get(summary.path)).text);
    const article = html.querySelector('article');
    for (const heading of article?.querySelectorAll('[data-prose] h2, [data-prose] h3') ?? []) expect(twin.body).toContain(`# ${heading.text.trim()}`);
    // Every paragraph of the prose, word for word (Markdown's marks and links aside; the HTML's
    // "opens in a new tab" is for screen readers only).
    const words = (text: string) => text.replace(/[*`]/g, '').replace(/\s+/g, ' ').trim();
    const plain = words(twin.body.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    for (const paragraph of article?.querySelectorAll('[data-prose] > p') ?? []) {
      for (const hidden of paragraph.querySelectorAll('.visually-hidden')) hidden.remove();
      expect(plain).toContain(words(paragraph.text));
    }
    for (const sample of article?.querySelectorAll('pre') ?? []) {
      const firstLine = sample.innerHTML.replace(/<[^>]*>/g, '').trim().split('\n')[0] ?? '';
      expect(twin.body).toContain(parse(firstLine).text);
    }
  });

  it('are left out of the sitemap', async () => {
    const sitemap = (await request(app.app).get('/sitemap.xml')).text;
    expect(sitemap).not.toContain('.md<');
  });

  it('noindex pages have none', async () => {
    for (const pagePath of ['/thank-you', '/no-such-page']) {
      const page = parse((await request(app.app).get(pagePath)).text);
      expect(page.querySelector('link[type="text/markdown"]')).toBeNull();
    }
    expect((await request(app.app).get('/thank-you.md')).status).toBe(404);
  });
});

describe('content negotiation on a page URL', () => {
  it.each(['/', '/blog/what-is-llm-seo', '/privacy-policy', '/free-audit'])('%s answers text/markdown to a client that asks for it, on the fast path and through Express', async (pagePath) => {
    for (const via of ['fast path', 'express'] as const) {
      const headers = { Accept: 'text/markdown, text/plain;q=0.5' };
      const response = via === 'fast path' ? await fetch(`${base}${pagePath}`, { headers }) : await request(app.app).get(pagePath).set(headers).then((res) => ({ status: res.status, headers: new Headers(res.headers as Record<string, string>), text: async () => res.text }));
      expect({ via, status: response.status, type: response.headers.get('content-type') }).toEqual({ via, status: 200, type: 'text/markdown; charset=utf-8' });
      expect(response.headers.get('vary')).toBe('Accept, Accept-Encoding');
      expect(response.headers.get('content-location')).toBe(twinPath(pagePath));
      expect(await response.text()).toContain(`canonical: ${TEST_SITE_URL}${pagePath}`);
    }
  });

  it('leaves browsers with the page, and tells caches that the answer depends on Accept', async () => {
    for (const pagePath of ['/', '/blog/what-is-llm-seo']) {
      const response = await fetch(`${base}${pagePath}`, { headers: { Accept: BROWSER_ACCEPT } });
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Accept, Accept-Encoding');
    }
    const noAccept = await fetch(`${base}/how-it-works`);
    expect(noAccept.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('compresses a twin and answers 304 to its ETag', async () => {
    const first = await fetch(`${base}/blog/what-is-llm-seo.md`, { headers: { 'Accept-Encoding': 'br' } });
    expect(first.headers.get('content-encoding')).toBe('br');
    const again = await fetch(`${base}/blog/what-is-llm-seo.md`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': first.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });
});

describe('/llms-full.txt', () => {
  it('holds every article in full, each with its own header', async () => {
    const response = await request(app.app).get('/llms-full.txt');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    for (const article of articles) {
      expect(response.text).toContain(`canonical: ${TEST_SITE_URL}${article.path}\n`);
      expect(response.text).toContain(`\n# ${article.title}\n`);
      const twin = (await request(app.app).get(`${article.path}.md`)).text;
      expect(response.text).toContain(twin);
    }
  });
});
