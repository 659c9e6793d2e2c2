import request from 'supertest';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { articles } from '../../shared/generated/articles';
import { legalPages } from '../../shared/generated/legal';
import { site } from '../../shared/site';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { TEST_SITE_URL } from '../helpers/locations';

// The first request to each page renders it; a run over every page takes seconds on a busy machine.
jest.setTimeout(60_000);

let testApp: TestApp;
beforeAll(() => {
  testApp = createTestApp();
});
afterAll(() => testApp.close());

const get = (path: string) => request(testApp.app).get(path);

/** The pages a search engine should see, read straight from the route table. */
const indexablePaths = appRoutes
  .filter((route) => route.path !== NOT_FOUND_PATH && !route.noindex && route.sitemap !== false)
  .map((route) => route.path);

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A minimal well-formedness check, enough for a sitemap and a feed: an XML declaration, one root,
 * every element closed in order, quoted attributes and no raw `&` or `<` in text. Throws otherwise.
 */
function parseXml(source: string): XmlElement {
  let at = 0;
  const fail = (message: string): never => {
    throw new Error(`not well-formed XML: ${message} at offset ${at}`);
  };
  const decode = (raw: string): string => {
    if (/<|&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-fA-F]+);)/.test(raw)) fail(`unescaped character in "${raw.slice(0, 60)}"`);
    return raw.replace(/&(#x[\da-fA-F]+|#\d+|[a-z]+);/g, (_, entity: string) =>
      entity.startsWith('#x') ? String.fromCodePoint(parseInt(entity.slice(2), 16))
        : entity.startsWith('#') ? String.fromCodePoint(Number(entity.slice(1)))
          : (ENTITIES[entity] ?? ''),
    );
  };
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(source);
  if (!declaration) fail('no <?xml version="1.0" encoding="UTF-8"?> declaration');
  at = declaration?.[0].length ?? 0;

  const element = (): XmlElement => {
    const open = /<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
    open.lastIndex = at;
    const match = open.exec(source) ?? fail('expected a start tag');
    at = open.lastIndex;
    const node: XmlElement = { name: match[1] ?? '', attributes: {}, children: [], text: '' };
    for (const attribute of (match[2] ?? '').matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      const name = attribute[1] ?? '';
      if (name in node.attributes) fail(`duplicate attribute ${name}`);
      node.attributes[name] = decode(attribute[2] ?? attribute[3] ?? '');
    }
    if (match[3]) return node;
    for (;;) {
      const next = source.indexOf('<', at);
      if (next === -1) fail(`<${node.name}> is never closed`);
      node.text += decode(source.slice(at, next));
      at = next;
      if (source.startsWith('</', at)) {
        const close = new RegExp(`</${node.name.replace(/[.]/g, '\\.')}\\s*>`, 'y');
        close.lastIndex = at;
        if (!close.test(source)) fail(`expected </${node.name}>`);
        at = close.lastIndex;
        return node;
      }
      node.children.push(element());
    }
  };
  const root = element();
  if (source.slice(at).trim() !== '') fail('content after the root element');
  return root;
}

const children = (node: XmlElement | undefined, name: string) => node?.children.filter((child) => child.name === name) ?? [];
const childText = (node: XmlElement | undefined, name: string) => children(node, name)[0]?.text;

/** robots.txt groups: consecutive User-agent lines, then their rules (RFC 9309). */
function robotsGroups(text: string): { agents: string[]; rules: string[] }[] {
  const groups: { agents: string[]; rules: string[] }[] = [];
  let current: { agents: string[]; rules: string[] } | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line || /^sitemap:/i.test(line)) continue;
    const agent = /^user-agent:\s*(.+)$/i.exec(line);
    if (agent?.[1]) {
      if (!current || current.rules.length > 0) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(agent[1]);
    } else {
      current?.rules.push(line.replace(/\s*:\s*/, ': '));
    }
  }
  return groups;
}

describe('GET /sitemap.xml', () => {
  it('answers well-formed XML listing exactly the indexable routes of the route table, each with a lastmod', async () => {
    const response = await get('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');

    const urlset = parseXml(response.text);
    expect(urlset.name).toBe('urlset');
    expect(urlset.attributes.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const entries = children(urlset, 'url').map((url) => ({ loc: childText(url, 'loc'), lastmod: childText(url, 'lastmod') }));

    expect(entries.map((entry) => entry.loc).sort()).toEqual(indexablePaths.map((path) => `${TEST_SITE_URL}${path}`).sort());
    expect(entries).toHaveLength(new Set(entries.map((entry) => entry.loc)).size);
    for (const hidden of ['/thank-you', '/services/llm-seo', '/404', '*']) {
      expect(entries.map((entry) => entry.loc)).not.toContain(`${TEST_SITE_URL}${hidden}`);
    }
    expect(entries.map((entry) => entry.loc)).toContain(`${TEST_SITE_URL}/`);
    for (const entry of entries) expect(entry.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('dates each article and legal page by its own "updated"', async () => {
    const urlset = parseXml((await get('/sitemap.xml')).text);
    const lastmod = new Map(children(urlset, 'url').map((url) => [childText(url, 'loc'), childText(url, 'lastmod')]));
    for (const article of articles) expect(lastmod.get(`${TEST_SITE_URL}${article.path}`)).toBe(article.updated);
    for (const page of legalPages) expect(lastmod.get(`${TEST_SITE_URL}/${page.slug}`)).toBe(page.updated);
    const newestArticle = articles.map((article) => article.updated).sort().at(-1);
    expect(lastmod.get(`${TEST_SITE_URL}/blog`)).toBe(newestArticle);
  });

  it('lists only pages that answer 200 without a redirect', async () => {
    const urlset = parseXml((await get('/sitemap.xml')).text);
    for (const url of children(urlset, 'url')) {
      const path = (childText(url, 'loc') ?? '').slice(TEST_SITE_URL.length);
      expect([path, (await get(path)).status]).toEqual([path, 200]);
    }
  });
});

describe('GET /robots.txt', () => {
  it('allows every crawler with Crawl-delay 1 and names the sitemap at SITE_URL', async () => {
    const response = await get('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.text.split('\n')).toContain(`Sitemap: ${TEST_SITE_URL}/sitemap.xml`);

    const groups = robotsGroups(response.text);
    const all = groups.find((group) => group.agents.includes('*'));
    expect(all?.rules).toEqual(expect.arrayContaining(['Allow: /', 'Crawl-delay: 1', 'Disallow: /thank-you']));
  });

  it.each(['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-SearchBot', 'PerplexityBot', 'Google-Extended', 'Applebot-Extended'])(
    'has a group of its own for %s that repeats Allow and Crawl-delay (named groups do not inherit *)',
    async (agent) => {
      const groups = robotsGroups((await get('/robots.txt')).text);
      const group = groups.find((candidate) => candidate.agents.some((name) => name.toLowerCase() === agent.toLowerCase()));
      expect(group?.rules).toEqual(expect.arrayContaining(['Allow: /', 'Crawl-delay: 1', 'Disallow: /thank-you']));
    },
  );

  it('disallows only /thank-you: no public page is blocked for any crawler', async () => {
    const groups = robotsGroups((await get('/robots.txt')).text);
    const disallowed = new Set(groups.flatMap((group) => group.rules.filter((rule) => rule.startsWith('Disallow:'))));
    expect([...disallowed]).toEqual(['Disallow: /thank-you']);
    for (const path of indexablePaths) expect(path.startsWith('/thank-you')).toBe(false);
  });
});

describe('GET /llms.txt', () => {
  it('follows llmstxt.org: name, summary, paragraph, then Services, Articles and Optional', async () => {
    const response = await get('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.text.split('\n');
    expect(lines[0]).toBe(`# ${site.brand}`);
    const firstOther = lines.slice(1).find((line) => line.trim() !== '');
    expect(firstOther).toMatch(/^> \S/);
    const summaryAt = lines.indexOf(firstOther ?? '');
    const paragraph = lines.slice(summaryAt + 1).find((line) => line.trim() !== '');
    expect(paragraph).toMatch(/^[^#>\-\s]/);
    expect(lines.filter((line) => line.startsWith('#'))).toEqual([`# ${site.brand}`, '## Services', '## Articles', '## Optional']);
  });

  it('lists the main pages with descriptions, every article and the legal pages, as absolute URLs of their Markdown twins', async () => {
    const text = (await get('/llms.txt')).text;
    const section = (name: string) => text.split(`## ${name}\n`)[1]?.split('\n## ')[0] ?? '';
    const links = (body: string) =>
      body
        .split('\n')
        .filter((line) => line.startsWith('- '))
        .map((line) => {
          const match = /^- \[([^\]]+)\]\(([^)\s]+)\): (\S.*)$/.exec(line);
          // Names the line that is not "- [name](url): note".
          expect(match ? 'a link with a note' : line).toBe('a link with a note');
          return { name: match?.[1] ?? '', url: match?.[2] ?? '', note: match?.[3] ?? '' };
        });

    const services = links(section('Services'));
    expect(services.map((link) => link.url)).toEqual(
      ['/index.md', '/how-it-works.md', '/free-audit.md', '/ai-readiness-check.md', '/case-studies.md'].map((path) => `${TEST_SITE_URL}${path}`),
    );
    for (const link of services) expect(link.note.length).toBeGreaterThan(20);

    const listed = links(section('Articles'));
    expect(listed).toHaveLength(17);
    expect(listed).toEqual(
      articles.map((article) => ({ name: article.title, url: `${TEST_SITE_URL}${article.path}.md`, note: article.excerpt })),
    );

    const optional = links(section('Optional'));
    expect(optional.map((link) => link.url)).toEqual(legalPages.map((page) => `${TEST_SITE_URL}/${page.slug}.md`));
  });

  it('links only to pages that answer 200', async () => {
    const text = (await get('/llms.txt')).text;
    const urls = [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((match) => match[1] ?? '');
    expect(urls.length).toBeGreaterThanOrEqual(4 + 17 + 3);
    for (const url of urls) {
      expect(url.startsWith(`${TEST_SITE_URL}/`)).toBe(true);
      const path = url.slice(TEST_SITE_URL.length);
      expect([path, (await get(path)).status]).toEqual([path, 200]);
    }
  });
});

describe('GET /rss.xml', () => {
  it('is a well-formed RSS 2.0 feed of the 17 articles', async () => {
    const response = await get('/rss.xml');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/rss+xml; charset=utf-8');

    const rss = parseXml(response.text);
    expect(rss.name).toBe('rss');
    expect(rss.attributes.version).toBe('2.0');
    const channel = children(rss, 'channel')[0];
    expect(childText(channel, 'link')).toBe(`${TEST_SITE_URL}/blog`);
    expect(childText(channel, 'title')).toContain(site.brand);
    expect(childText(channel, 'description')?.length).toBeGreaterThan(20);
    expect(childText(channel, 'language')).toBe('en-gb');
    const newestUpdate = articles.map((article) => article.updated).sort().at(-1);
    expect(childText(channel, 'lastBuildDate')).toBe(new Date(`${newestUpdate}T00:00:00Z`).toUTCString());
    const self = children(channel, 'atom:link')[0];
    expect(self?.attributes).toEqual({ href: `${TEST_SITE_URL}/rss.xml`, rel: 'self', type: 'application/rss+xml' });
    expect(rss.attributes['xmlns:atom']).toBe('http://www.w3.org/2005/Atom');

    const items = children(channel, 'item');
    expect(items).toHaveLength(17);
    const byLink = new Map(items.map((item) => [childText(item, 'link'), item]));
    for (const article of articles) {
      const item = byLink.get(`${TEST_SITE_URL}${article.path}`);
      expect(childText(item, 'title')).toBe(article.title);
      expect(childText(item, 'description')).toBe(article.excerpt);
      expect(childText(item, 'category')).toBe(article.category);
      const guid = children(item, 'guid')[0];
      expect(guid?.attributes.isPermaLink).toBe('true');
      expect(guid?.text).toBe(`${TEST_SITE_URL}${article.path}`);
      // RFC 822 as RSS 2.0 requires, e.g. "Tue, 07 Jan 2025 00:00:00 GMT".
      const pubDate = childText(item, 'pubDate') ?? '';
      expect(pubDate).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(new Date(pubDate).toISOString().slice(0, 10)).toBe(article.published);
    }
    const published = items.map((item) => new Date(childText(item, 'pubDate') ?? '').getTime());
    expect(published).toEqual([...published].sort((a, b) => b - a));
  });
});

describe('all four files', () => {
  const files = ['/sitemap.xml', '/robots.txt', '/llms.txt', '/rss.xml'];

  it.each(files)('%s takes every URL from SITE_URL: a forged Host header changes nothing', async (path) => {
    const honest = await get(path);
    const forged = await get(path).set('Host', 'evil.example').set('X-Forwarded-Host', 'evil.example').set('X-Forwarded-Proto', 'http');
    expect(forged.status).toBe(200);
    expect(forged.text).toBe(honest.text);
    expect(forged.text).not.toContain('evil.example');
    expect(forged.text).toContain(TEST_SITE_URL);
  });

  it.each(files)('%s carries the security headers (CSP, nosniff, HSTS) like every response', async (path) => {
    const response = await get(path);
    const csp = response.headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it.each(files)('%s answers 304 to a request that names its strong ETag', async (path) => {
    const first = await get(path);
    const etag = first.headers.etag ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    const second = await get(path).set('If-None-Match', etag);
    expect(second.status).toBe(304);
    expect(second.text ?? '').toBe('');
    expect(second.headers.etag).toBe(etag);
    const changed = await get(path).set('If-None-Match', '"something-else"');
    expect(changed.status).toBe(200);
  });

  it.each(files)('%s is the same text compressed or not, with its length, and HEAD sends headers only', async (path) => {
    const plain = await get(path).set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.text));
    const gzip = await get(path).set('Accept-Encoding', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(plain.text);
    expect(gzip.headers.etag).not.toBe(plain.headers.etag);

    const head = await request(testApp.app).head(path).set('Accept-Encoding', 'identity');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(plain.headers['content-type']);
    expect(head.headers['content-length']).toBe(plain.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });
});
