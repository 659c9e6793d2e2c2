import { connect } from 'node:net';
import { parse } from 'node-html-parser';
import request from 'supertest';
import { articles } from '../../shared/generated/articles';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { readAssetManifest } from '../../server/pages/asset-manifest';
import { cspHash } from '../../server/http/security-headers';
import { PAGE_MODULES_ELEMENT_ID } from '../../shared/page-modules';
import { DESCRIPTION_LENGTH, TITLE_MAX_LENGTH } from '../../shared/search-snippet';
import { site } from '../../shared/site';
import { createTestApp, withBrokenPage, type TestApp } from '../helpers/test-app';
import { CLIENT_DIR, TEST_SITE_URL } from '../helpers/locations';

let testApp: TestApp;
beforeAll(() => {
  testApp = createTestApp();
});
afterAll(() => testApp.close());

const pagePaths = appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path);

async function getPage(path: string) {
  const response = await request(testApp.app).get(path);
  return { response, document: parse(response.text) };
}

describe('every route', () => {
  it('covers the fixed routes and the 17 articles', () => {
    expect(pagePaths).toEqual(
      expect.arrayContaining([
        '/', '/services/llm-seo', '/how-it-works', '/case-studies', '/blog', '/free-audit', '/thank-you',
        '/contact', '/privacy-policy', '/terms-conditions', '/refund-policy',
      ]),
    );
    expect(articles).toHaveLength(17);
    expect(pagePaths.filter((path) => path.startsWith('/blog/'))).toHaveLength(17);
  });

  it.each(pagePaths)('%s answers 200 with a complete server-rendered page', async (path) => {
    const { response, document } = await getPage(path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');

    const title = document.querySelector('head > title')?.text ?? '';
    expect(title.length).toBeGreaterThan(5);
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    const description = document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
    expect(description.length).toBeGreaterThan(20);

    expect(document.querySelector('meta[name="keywords"]')?.getAttribute('content')).toMatch(/\S/);
    const canonical = document.querySelector('link[rel="canonical"]')?.getAttribute('href');
    const expectedPath = path === '/services/llm-seo' ? '/' : path;
    expect(canonical).toBe(`${TEST_SITE_URL}${expectedPath}`);
    expect(document.querySelector('meta[property="og:url"]')?.getAttribute('content')).toBe(canonical);
    expect(document.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe(title);
    expect(document.querySelector('meta[property="og:description"]')?.getAttribute('content')).toBe(description);
    expect(document.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary_large_image');

    const header = document.querySelector('header');
    const headerLinks = header?.querySelectorAll('a').map((link) => [link.text.trim(), link.getAttribute('href')]);
    expect(headerLinks).toEqual(
      expect.arrayContaining([
        ['Home', '/'], ['How It Works', '/how-it-works'], ['Case Studies', '/case-studies'], ['Blog', '/blog'],
        ['Book Free Audit', '/free-audit'],
      ]),
    );
    const footer = document.querySelector('footer');
    const columnTitles = footer?.querySelectorAll('h2').map((heading) => heading.text);
    expect(columnTitles).toEqual(['Services', 'Resources', 'Contact']);
    expect(footer?.querySelector('a[href^="mailto:"]')).toBeTruthy();
    expect(footer?.text).toContain('London');
    for (const legal of ['/privacy-policy', '/terms-conditions', '/refund-policy']) {
      expect(footer?.querySelector(`a[href="${legal}"]`)).toBeTruthy();
    }
  });

  it('shows the home page at /services/llm-seo with the home page canonical URL', async () => {
    const home = await getPage('/');
    const alias = await getPage('/services/llm-seo');
    expect(alias.document.querySelector('h1')?.text).toBe(home.document.querySelector('h1')?.text);
    expect(alias.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${TEST_SITE_URL}/`);
  });

  it('gives each page its own title', async () => {
    const titles = await Promise.all(pagePaths.filter((path) => path !== '/services/llm-seo').map(async (path) => (await getPage(path)).document.querySelector('title')?.text));
    expect(new Set(titles).size).toBe(titles.length);
  });
});

describe('what a results page shows of each page', () => {
  it.each([...pagePaths, '/no-such-page'])(`%s: a <title> of at most ${TITLE_MAX_LENGTH} characters and a description of ${DESCRIPTION_LENGTH.min} to ${DESCRIPTION_LENGTH.max}`, async (path) => {
    const { document } = await getPage(path);
    const title = document.querySelector('head > title')?.text ?? '';
    const description = document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
    expect(title).not.toBe('');
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX_LENGTH);
    expect(description.length).toBeGreaterThanOrEqual(DESCRIPTION_LENGTH.min);
    expect(description.length).toBeLessThanOrEqual(DESCRIPTION_LENGTH.max);
  });

  it.each(articles.map((article) => [article.path, article] as const))('%s keeps its headline on the page, under a shorter <title> when its front matter gives one', async (path, article) => {
    const { document } = await getPage(path);
    expect(document.querySelector('h1')?.text).toBe(article.title);
    expect(document.querySelector('head > title')?.text).toBe(`${article.seoTitle ?? article.title} | ${site.brand}`);
  });

});

describe('canonical URLs come from SITE_URL', () => {
  it('ignores a forged Host header and X-Forwarded-Host', async () => {
    const response = await request(testApp.app).get('/blog').set('Host', 'evil.example').set('X-Forwarded-Host', 'evil.example');
    expect(response.status).toBe(200);
    expect(response.text).not.toContain('evil.example');
    expect(parse(response.text).querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${TEST_SITE_URL}/blog`);
  });
});

describe('unknown paths', () => {
  it('answer 404 with the not-found page', async () => {
    const { response, document } = await getPage('/no-such-page');
    expect(response.status).toBe(404);
    expect(document.querySelector('h1')?.text).toBe('404');
    expect(document.querySelector('main')?.text).toContain('Oops! Page not found');
    expect(document.querySelector('main a[href="/"]')).toBeTruthy();
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toContain('noindex');
    // No address is this page's own: a canonical would name one that is itself a 404.
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
  });

  it('redirect a trailing slash to the canonical path, never off-site', async () => {
    const response = await request(testApp.app).get('/blog/?page=2');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('/blog?page=2');
    const offsite = await request(testApp.app).get('//evil.example/');
    expect(offsite.status).toBe(301);
    expect(offsite.headers.location).toBe('/evil.example');
  });
});

describe('a route that throws', () => {
  const failing = createTestApp({
    routes: withBrokenPage(appRoutes, 'secret internal detail'),
  });
  afterAll(() => failing.close());

  it('answers 500 with the error page and no internals in production', async () => {
    const response = await request(failing.app).get('/broken');
    expect(response.status).toBe(500);
    const document = parse(response.text);
    expect(document.querySelector('h1')?.text).toBe('Unexpected Application Error!');
    expect(document.querySelector('main')?.text).toContain('500 Internal Server Error');
    expect(response.text).not.toContain('secret internal detail');
    expect(response.text).not.toMatch(/at .+\.tsx?:\d+/);
    // A broken page does not try to hydrate in the browser.
    expect(document.querySelector('script[type="module"]')).toBeNull();
  });

  it('shows the message (never the stack) outside production', async () => {
    const development = createTestApp({
      env: { NODE_ENV: 'development' },
      routes: withBrokenPage(appRoutes, 'what broke'),
    });
    const response = await request(development.app).get('/broken');
    development.close();
    expect(response.status).toBe(500);
    expect(response.text).toContain('what broke');
    expect(response.text).not.toMatch(/at .+\.tsx?:\d+/);
  });
});

describe('headers', () => {
  it('carry a strict CSP and no X-Powered-By on pages, errors and assets', async () => {
    const manifest = readAssetManifest(CLIENT_DIR);
    for (const path of ['/', '/no-such-page', manifest.app[0]?.file ?? '', '/healthz']) {
      const response = await request(testApp.app).get(path);
      expect(response.headers['x-powered-by']).toBeUndefined();
      const csp = response.headers['content-security-policy'] ?? '';
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toMatch(/^default-src 'none';/);
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('serve hashed assets as immutable for a year, with subresource integrity in the page', async () => {
    const { document } = await getPage('/');
    const app = document.querySelectorAll(`template#${PAGE_MODULES_ELEMENT_ID} link`).find((link) => link.getAttribute('href')?.startsWith('/assets/start-'));
    const src = app?.getAttribute('href') ?? '';
    expect(src).toMatch(/^\/assets\/start-[a-z0-9]+\.js$/);
    expect(app?.getAttribute('integrity')).toMatch(/^sha384-/);
    const asset = await request(testApp.app).get(src);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Sent compressed to a browser that accepts it, from bytes compressed once at start-up.
    const compressed = await request(testApp.app).get(src).set('Accept-Encoding', 'br, gzip');
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toBe('Accept-Encoding');
    expect(compressed.text).toBe(asset.text);
    expect((await request(testApp.app).get('/assets/no-such-file.js')).status).toBe(404);
  });

  it('request nothing before the first paint: the app\'s and the page\'s chunks wait, inert, for one inline script the CSP allows by its hash', async () => {
    const manifest = readAssetManifest(CLIENT_DIR);
    for (const path of ['/', articles[0]?.path ?? '', '/free-audit']) {
      const { document, response } = await getPage(path);
      // In the order the entry evaluates them (the libraries, the app, then the page's own chunks),
      // each with its integrity.
      const held = document.querySelectorAll(`template#${PAGE_MODULES_ELEMENT_ID} link[rel="modulepreload"]`).map((link) => [link.getAttribute('href'), link.getAttribute('integrity')]);
      const expected = [...manifest.app, ...(manifest.routes[path] ?? [])].map((chunk) => [chunk.file, chunk.integrity]);
      expect(manifest.routes[path]?.length).toBeGreaterThan(0);
      expect(held).toEqual(expected);
      // Nothing outside the template makes the browser fetch a script while it parses the page.
      expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(held.length);
      expect(document.querySelectorAll('link[rel="preload"], script[src]')).toHaveLength(0);
      const scripts = document.querySelectorAll('script').filter((script) => !['application/json', 'application/ld+json'].includes(script.getAttribute('type') ?? ''));
      expect(scripts.map((script) => script.text)).toEqual([manifest.entry.script]);
      expect(response.headers['content-security-policy']).toContain(cspHash(manifest.entry.script));
    }
  });

  it('answer 304 to a page request that names its ETag', async () => {
    const first = await request(testApp.app).get('/how-it-works');
    const etag = first.headers.etag ?? '';
    expect(etag).toMatch(/^"/);
    const second = await request(testApp.app).get('/how-it-works').set('If-None-Match', etag);
    expect(second.status).toBe(304);
  });
});

describe('GET /healthz', () => {
  it('answers 200 while the database can be read and 503 when it cannot', async () => {
    const app = createTestApp();
    expect((await request(app.app).get('/healthz')).status).toBe(200);
    app.db.close();
    const response = await request(app.app).get('/healthz');
    expect(response.status).toBe(503);
    app.close();
  });
});

describe('redirects built from a hostile request target', () => {
  let app: TestApp;
  let base: string;
  let server: import('node:http').Server;
  beforeAll(async () => {
    app = createTestApp();
    server = app.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    app.close();
  });

  /** Sends a raw request line, as a scanner would, and returns the status and Location. */
  const raw = (target: string) =>
    new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      const [host, port] = base.split(':');
      const socket = connect(Number(port), host, () => socket.end(`GET ${target} HTTP/1.1\r\nHost: ${base}\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), location: /\r\nLocation: ([^\r]*)/i.exec(text)?.[1] }));
      socket.on('error', reject);
    });

  it.each([
    ['http://evil.com//////', '/'],
    ['http://evil.com/blog/?x=1', '/blog?x=1'],
    ['//evil.com//', '/evil.com'],
    ['///evil.com/a//b/', '/evil.com/a/b'],
    // An escaped backslash stays escaped: a path on this site.
    ['/%5Cevil.com/', '/%5Cevil.com'],
  ])('GET %s redirects only to the path %s on this site', async (target, location) => {
    const answer = await raw(target);
    expect(answer).toEqual({ status: 301, location });
  });

  it.each(['/\\evil.com/', '/\\/evil.com/'])('GET %s is not redirected (a backslash is a slash to browsers)', async (target) => {
    const answer = await raw(target);
    expect(answer.location).toBeUndefined();
    expect(answer.status).toBe(404);
  });
});
