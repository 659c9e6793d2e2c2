import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { get as httpGet, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { parse } from 'node-html-parser';
import request from 'supertest';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { readAssetManifest } from '../../server/pages/asset-manifest';
import { articles } from '../../shared/generated/articles';
import { openForm, postForm, validAudit } from '../helpers/forms';
import { startServerProcess } from '../helpers/server-process';
import { createTestApp, withBrokenPage, type TestApp } from '../helpers/test-app';
import { CLIENT_DIR, ROOT, TEST_SITE_URL } from '../helpers/locations';

jest.setTimeout(60_000);

/**
 * Every kind of response the server gives carries the security headers, and the
 * MDN HTTP Observatory's own tests find nothing to penalise on our pages.
 */

const manifest = readAssetManifest(CLIENT_DIR);

/** Features the site never uses; the Permissions-Policy must deny at least these. */
const DENIED_FEATURES = ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'display-capture', 'browsing-topics'];

/** The directives of a CSP header, each with its sources. */
function parseCsp(header: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    // A second copy of a directive is ignored by browsers; here it fails the test.
    expect(directives.has(name.toLowerCase())).toBe(false);
    directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

function expectSecurityHeaders(headers: IncomingHttpHeaders, https: boolean) {
  const policy = headers['content-security-policy'];
  expect(typeof policy).toBe('string');
  // One policy: two headers would be joined with ", " and both would apply.
  expect(String(policy).match(/default-src/g)).toHaveLength(1);
  const csp = parseCsp(String(policy));
  // Nothing is allowed that a directive below does not name.
  expect(csp.get('default-src')).toEqual(["'none'"]);
  // No web fonts (the system's are used) and no data: URLs: default-src refuses both.
  for (const directive of ['img-src', 'connect-src']) expect(csp.get(directive)).toEqual(["'self'"]);
  expect([...csp.keys()].sort()).toEqual(
    ['default-src', 'script-src', 'style-src', 'img-src', 'connect-src', 'base-uri', 'form-action', 'frame-ancestors', ...(https ? ['upgrade-insecure-requests'] : [])].sort(),
  );
  for (const directive of ['script-src', 'style-src']) {
    const sources = csp.get(directive);
    expect(sources).toEqual(expect.arrayContaining(["'self'"]));
    expect(sources).not.toContain("'unsafe-inline'");
    expect(sources).not.toContain("'unsafe-eval'");
    expect(sources).not.toContain('data:');
    expect(sources).not.toContain('*');
    // Anything beyond 'self' is a hash of one inline tag.
    for (const source of sources ?? []) expect(source).toMatch(/^'self'$|^'sha256-[A-Za-z0-9+/]{43}='$/);
  }
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);

  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  if (https) expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  else expect(headers['strict-transport-security']).toBeUndefined();
  const permissions = String(headers['permissions-policy'] ?? '');
  for (const feature of DENIED_FEATURES) expect(permissions.split(/,\s*/)).toContain(`${feature}=()`);
  expect(headers['x-powered-by']).toBeUndefined();
}

/** Every kind of response the server gives (pages, files, errors, form answers, redirects), with the status it must have. */
const responseKinds: [string, number, (app: TestApp) => Promise<request.Response>][] = [
  ['a page', 200, (app) => request(app.app).get('/')],
  ['a page (HEAD)', 200, (app) => request(app.app).head('/how-it-works')],
  ['a page answered 304', 304, async (app) => {
    const first = await request(app.app).get('/case-studies');
    return request(app.app).get('/case-studies').set('If-None-Match', first.headers.etag ?? '');
  }],
  ['an article', 200, (app) => request(app.app).get(appRoutes.find((route) => route.path.startsWith('/blog/'))?.path ?? '/blog')],
  ['a form page', 200, (app) => request(app.app).get('/free-audit')],
  ['the contact page after sending', 200, (app) => request(app.app).get('/contact?sent=1')],
  ['a script asset', 200, (app) => request(app.app).get(manifest.app[0]?.file ?? '')],
  ['a public file', 200, (app) => request(app.app).get('/favicon.svg')],
  ["an article's social card", 200, (app) => request(app.app).get(`/social/${articles[0]?.slug}.png`)],
  ["an article's social card answered 304", 304, async (app) => {
    const first = await request(app.app).get(`/social/${articles[0]?.slug}.png`);
    return request(app.app).get(`/social/${articles[0]?.slug}.png`).set('If-None-Match', first.headers.etag ?? '');
  }],
  ['a missing asset', 404, (app) => request(app.app).get('/assets/no-such-file.js')],
  // Asset names are matched as sent, undecoded: a malformed escape names no asset.
  ['a malformed asset path', 404, (app) => request(app.app).get('/assets/%')],
  ['an unknown page', 404, (app) => request(app.app).get('/no-such-page')],
  ['a method a page does not allow (POST /)', 405, (app) => request(app.app).post('/').type('form').send('a=1')],
  ['a method on an unknown path (POST /no-such-page)', 404, (app) => request(app.app).post('/no-such-page').type('form').send('a=1')],
  ['a redirect', 301, (app) => request(app.app).get('/blog/')],
  ['robots.txt', 200, (app) => request(app.app).get('/robots.txt')],
  ['sitemap.xml', 200, (app) => request(app.app).get('/sitemap.xml')],
  ['llms.txt', 200, (app) => request(app.app).get('/llms.txt')],
  ['rss.xml', 200, (app) => request(app.app).get('/rss.xml')],
  ['/healthz', 200, (app) => request(app.app).get('/healthz')],
  ['/csrf-token', 200, (app) => request(app.app).get('/csrf-token')],
  ['OPTIONS on a page', 405, (app) => request(app.app).options('/')],
  ['a form accepted', 303, async (app) => (await postForm(app, '/free-audit', validAudit)).response],
  ['a form refused as invalid (page)', 400, async (app) => (await postForm(app, '/free-audit', { ...validAudit, email: 'nope' })).response],
  ['a form refused as invalid (JSON)', 400, async (app) => (await postForm(app, '/contact', { email: 'nope' }, { json: true })).response],
  ['a form without its token', 403, (app) => request(app.app).post('/free-audit').type('form').send(validAudit)],
  ['a form in the wrong content type', 415, (app) => request(app.app).post('/free-audit').set('Content-Type', 'text/plain').send('a=1')],
  ['a form over the size limit', 413, (app) => request(app.app).post('/free-audit').type('form').send({ main_goal: 'x'.repeat(200_000) })],
];

describe.each([
  ['https', TEST_SITE_URL],
  ['http', 'http://localhost:3000'],
])('every kind of response, SITE_URL %s', (scheme, siteUrl) => {
  const https = scheme === 'https';
  let testApp: TestApp;
  let failing: TestApp;
  beforeAll(() => {
    testApp = createTestApp({ env: { SITE_URL: siteUrl }, formRateLimit: { limit: 1000, windowMs: 60_000 } });
    failing = createTestApp({
      env: { SITE_URL: siteUrl },
      routes: withBrokenPage(appRoutes),
    });
  });
  afterAll(() => {
    testApp.close();
    failing.close();
  });

  it.each(responseKinds)('%s (%i) carries every security header', async (_kind, status, send) => {
    const response = await send(testApp);
    expect(response.status).toBe(status);
    expectSecurityHeaders(response.headers, https);
  });

  it('a server error (500) carries every security header', async () => {
    const response = await request(failing.app).get('/broken');
    expect(response.status).toBe(500);
    expectSecurityHeaders(response.headers, https);
  });

  it('the rate limit answer (429) carries every security header', async () => {
    const limited = createTestApp({ env: { SITE_URL: siteUrl }, formRateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      const { agent, hidden } = await openForm(limited.app, '/free-audit');
      await agent.post('/free-audit').type('form').send({ ...validAudit, ...hidden });
      const response = await agent.post('/free-audit').type('form').send({ ...validAudit, ...hidden });
      expect(response.status).toBe(429);
      expectSecurityHeaders(response.headers, https);
    } finally {
      limited.close();
    }
  });
});

describe('subresource integrity', () => {
  let testApp: TestApp;
  beforeAll(() => {
    testApp = createTestApp();
  });
  afterAll(() => testApp.close());

  const pagePaths = [...appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path), '/no-such-page'];

  it.each(pagePaths)('%s: every script the page loads (its module preloads) names the sha384 of the file served', async (pagePath) => {
    const page = await request(testApp.app).get(pagePath);
    const document = parse(page.text);
    const loaded = [...document.querySelectorAll('script[src]'), ...document.querySelectorAll('link[rel="modulepreload"]')];
    expect(loaded.length).toBeGreaterThan(0);
    for (const element of loaded) {
      const src = element.getAttribute('src') ?? element.getAttribute('href') ?? '';
      const integrity = element.getAttribute('integrity') ?? '';
      expect({ src, integrity }).toEqual({ src, integrity: expect.stringMatching(/^sha384-/) });
      const asset = await request(testApp.app).get(src).buffer(true).parse((res, callback) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => callback(null, Buffer.concat(chunks)));
      });
      expect(asset.status).toBe(200);
      expect(integrity).toBe(`sha384-${createHash('sha384').update(asset.body as Buffer).digest('base64')}`);
    }
  });
});

interface Captured {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request to the real process, as the Observatory's retriever makes it (no compression). */
function capture(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const handle = (res: import('node:http').IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    };
    const headers = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', ...options.headers };
    const req = options.method ? httpRequest(url, { method: options.method, headers }, handle) : httpGet(url, { headers }, handle);
    req.on('error', reject);
    req.end();
  });
}

interface ObservatoryTest {
  test: string;
  result: string;
  pass: boolean;
  scoreModifier: number;
  description: string;
}

describe('the MDN HTTP Observatory', () => {
  it('gives no penalty on any header test for a page and a form page served by the real process', async () => {
    const server = await startServerProcess({ SITE_URL: TEST_SITE_URL });
    let results: { path: string; tests: ObservatoryTest[] }[];
    let corsOrigin: string;
    try {
      const pages = [];
      for (const pagePath of ['/', '/free-audit']) {
        const page = await capture(`${server.url}${pagePath}`);
        expect(page.status).toBe(200);
        // The retriever also fetches robots.txt (for cookies) and sends a CORS preflight.
        const robots = await capture(`${server.url}/robots.txt`, { headers: { Accept: 'text/plain,*/*;q=0.8' } });
        const cors = await capture(`${server.url}${pagePath}`, {
          method: 'OPTIONS',
          headers: { 'Access-Control-Request-Method': 'GET', Origin: 'https://http-observatory.security.mozilla.org' },
        });
        pages.push({ path: pagePath, page, robots, cors });
      }
      const analysis = spawnSync(process.execPath, [path.join(ROOT, 'test', 'helpers', 'observatory-analyze.mjs')], {
        cwd: ROOT,
        input: JSON.stringify({ siteUrl: TEST_SITE_URL, pages }),
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
      });
      expect(analysis.stderr).toBe('');
      expect(analysis.status).toBe(0);
      ({ results, corsOrigin } = JSON.parse(analysis.stdout) as { results: typeof results; corsOrigin: string });
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(corsOrigin).toBe('https://http-observatory.security.mozilla.org');

    // Every header test ran on both pages (redirection is the TLS proxy's, see the script).
    const expectedTests = [
      'content-security-policy', 'cookies', 'cross-origin-resource-sharing', 'referrer-policy', 'strict-transport-security',
      'subresource-integrity', 'x-content-type-options', 'x-frame-options', 'cross-origin-resource-policy',
    ];
    for (const { tests } of results) expect(tests.map((test) => test.test).sort()).toEqual([...expectedTests].sort());

    // No penalty anywhere; on failure this lists the test, its result and the Observatory's reason.
    const penalties = results.flatMap(({ path: pagePath, tests }) =>
      tests.filter((test) => test.scoreModifier < 0 || !test.pass).map((test) => ({ page: pagePath, ...test })),
    );
    expect(penalties).toEqual([]);

    const byTest = (pagePath: string) => Object.fromEntries((results.find((entry) => entry.path === pagePath)?.tests ?? []).map((test) => [test.test, test.result]));
    const common = {
      'content-security-policy': 'csp-implemented-with-no-unsafe-default-src-none',
      'cross-origin-resource-sharing': 'cross-origin-resource-sharing-not-implemented',
      'referrer-policy': 'referrer-policy-private',
      'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
      // The Observatory reads only <script src>, and a page has none: its one script is inline
      // (allowed by its hash), and the modules it loads are preloads that carry their integrity
      // (checked above). No penalty, and no bonus to earn.
      'subresource-integrity': 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
      'x-content-type-options': 'x-content-type-options-nosniff',
      'x-frame-options': 'x-frame-options-implemented-via-csp',
      'cross-origin-resource-policy': 'corp-implemented-with-same-origin',
    };
    expect(byTest('/')).toEqual({ ...common, cookies: 'cookies-not-found' });
    // The form page sets the CSRF cookie: Secure, HttpOnly, SameSite=Strict earns the bonus.
    expect(byTest('/free-audit')).toEqual({ ...common, cookies: 'cookies-secure-with-httponly-sessions-and-samesite' });
    // The Observatory's grade starts at 100 and adds each test's modifier: every bonus open to a
    // site behind a TLS proxy whose pages load no <script src> is earned (the form page's cookie
    // earns its own).
    const score = (pagePath: string) => 100 + (results.find((entry) => entry.path === pagePath)?.tests ?? []).reduce((sum, test) => sum + test.scoreModifier, 0);
    expect([score('/'), score('/free-audit')]).toEqual([130, 135]);
  });
});
