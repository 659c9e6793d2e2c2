import { readFileSync } from 'node:fs';
import path from 'node:path';
import jsonld, { type JsonLdDocument, type NodeObject } from 'jsonld';
import type { RemoteDocument } from 'jsonld/jsonld-spec';
import { parse, type HTMLElement } from 'node-html-parser';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { articles } from '../../shared/generated/articles';
import { site } from '../../shared/site';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { ROOT, TEST_SITE_URL } from '../helpers/locations';

/*
 * The JSON-LD of every page the built server sends, read as a search engine reads it: a real
 * JSON-LD processor (jsonld.js) expands each block in safe mode, which throws on anything it would
 * drop (a term the context does not define, a relative IRI, an empty node). The schema.org
 * context cannot be fetched here, so test/fixtures/schema-org-context.jsonld holds the
 * definitions of the terms the site uses, copied from schema.org's published context
 * (schemaorgcontext.jsonld) without its @vocab: with @vocab every unknown word would pass as a
 * schema.org term, so a misspelt property would go unnoticed. A new term needs its line there.
 */

jest.setTimeout(60_000);

const SCHEMA = 'http://schema.org/';
const ORGANIZATION_ID = `${TEST_SITE_URL}/#organization`;
const WEBSITE_ID = `${TEST_SITE_URL}/#website`;
const context = JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'schema-org-context.jsonld'), 'utf8')) as RemoteDocument['document'];

async function documentLoader(url: string): Promise<RemoteDocument> {
  if (!/^https?:\/\/schema\.org\/?$/.test(url)) throw new Error(`a JSON-LD block loads ${url}; only the schema.org context is expected`);
  return { contextUrl: undefined, documentUrl: url, document: context };
}
const expandOptions = { documentLoader, safe: true };

type Block = NodeObject;
type ExpandedNode = Record<string, unknown[]> & { '@id'?: string; '@type'?: string[] };

interface Page {
  path: string;
  document: HTMLElement;
  blocks: Block[];
}

const pagePaths = [...appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path), '/no-such-page'];
const pages = new Map<string, Page>();
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({ SITE_URL: TEST_SITE_URL, AI_LEDGER: 'off' });
  for (const pagePath of pagePaths) {
    const response = await fetch(`${server.url}${pagePath}`);
    expect([pagePath, response.status]).toEqual([pagePath, pagePath === '/no-such-page' ? 404 : 200]);
    const document = parse(await response.text());
    const blocks = document.querySelectorAll('script[type="application/ld+json"]').map((script) => JSON.parse(script.rawText) as Block);
    pages.set(pagePath, { path: pagePath, document, blocks });
  }
});
afterAll(async () => {
  await server?.stop();
});

const page = (pagePath: string): Page => {
  const found = pages.get(pagePath);
  if (!found) throw new Error(`${pagePath} was not fetched`);
  return found;
};

const graphs = new Map<string, Promise<ExpandedNode[]>>();
/**
 * Every block of the page expanded, then merged by @id (jsonld.flatten), as a crawler builds the
 * page's graph. Throws when a block does not expand without loss.
 */
function graphOf(pagePath: string): Promise<ExpandedNode[]> {
  let graph = graphs.get(pagePath);
  if (!graph) {
    graph = (async () => {
      const expanded: NodeObject[] = [];
      for (const block of page(pagePath).blocks) {
        const nodes = await jsonld.expand(block as JsonLdDocument, expandOptions);
        if (nodes.length === 0) throw new Error(`${pagePath}: a JSON-LD block expands to nothing`);
        expanded.push(...nodes);
      }
      return (await jsonld.flatten(expanded, undefined, expandOptions)) as unknown as ExpandedNode[];
    })();
    graphs.set(pagePath, graph);
  }
  return graph;
}

const ofType = (graph: ExpandedNode[], type: string) => graph.filter((node) => node['@type']?.includes(`${SCHEMA}${type}`));
/** The one value of an expanded property: a literal's @value or a reference's @id. */
const value = (node: ExpandedNode | undefined, property: string): unknown => {
  const [first] = node?.[`${SCHEMA}${property}`] ?? [];
  return first && typeof first === 'object' ? ('@value' in first ? first['@value'] : (first as { '@id'?: unknown })['@id']) : first;
};
const compactOfType = (blocks: Block[], type: string): Block[] =>
  blocks.flatMap((block) => (Array.isArray(block['@graph']) ? (block['@graph'] as Block[]) : [block])).filter((block) => block['@type'] === type);
/** A node with its blank-node labels blanked: they are numbered per page, so they differ between pages. */
const unlabelled = (node: ExpandedNode | undefined): unknown => JSON.parse(JSON.stringify(node ?? null).replace(/"_:b\d+"/g, '"_:"'));
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('every JSON-LD block on every page', () => {
  it.each(pagePaths)('%s: each block expands without loss (jsonld.js, safe mode)', async (pagePath) => {
    expect(page(pagePath).blocks.length).toBeGreaterThan(0);
    await expect(graphOf(pagePath)).resolves.not.toHaveLength(0);
  });
});

describe('testimonials in structured data', () => {
  // An invented testimonial published as a Review would be a fake review: every testimonial the
  // site ships is illustrative, so no page may hold a Review or a rating at all.
  it.each(pagePaths)('%s: no Review, AggregateRating or Rating node', async (pagePath) => {
    const graph = await graphOf(pagePath);
    const types = graph.flatMap((node) => node['@type'] ?? []);
    expect(types.filter((type) => /(Review|Rating)$/.test(type))).toEqual([]);
    expect(graph.flatMap((node) => Object.keys(node)).filter((key) => /(review|Rating)$/.test(key))).toEqual([]);
  });
});

describe('@ids across pages', () => {
  it('every page holds one Organization node, at the same @id and with the same statements', async () => {
    const organizations = await Promise.all(pagePaths.map(async (pagePath) => ofType(await graphOf(pagePath), 'Organization')));
    for (const [index, nodes] of organizations.entries()) {
      expect([pagePaths[index], nodes.map((node) => node['@id'])]).toEqual([pagePaths[index], [ORGANIZATION_ID]]);
    }
    const [home] = organizations[0] ?? [];
    expect(value(home, 'name')).toBe(site.brand);
    expect(value(home, 'url')).toBe(`${TEST_SITE_URL}/`);
    // Merged by @id with whatever else the page says of it (an article's author and publisher):
    // the same node everywhere, so no page contradicts another.
    for (const [index, nodes] of organizations.entries()) expect([pagePaths[index], unlabelled(nodes[0])]).toEqual([pagePaths[index], unlabelled(home)]);
  });

  it('every page holds one WebSite node, published by the Organization', async () => {
    for (const pagePath of pagePaths) {
      const websites = ofType(await graphOf(pagePath), 'WebSite');
      expect([pagePath, websites.map((node) => node['@id'])]).toEqual([pagePath, [WEBSITE_ID]]);
      expect(value(websites[0], 'publisher')).toBe(ORGANIZATION_ID);
      expect(value(websites[0], 'url')).toBe(`${TEST_SITE_URL}/`);
    }
  });

  it('the Service and each Article point at the Organization by its @id', async () => {
    for (const pagePath of ['/', '/how-it-works']) {
      expect(value(ofType(await graphOf(pagePath), 'Service')[0], 'provider')).toBe(ORGANIZATION_ID);
    }
    for (const article of articles) {
      const [node] = ofType(await graphOf(article.path), 'Article');
      expect([article.slug, value(node, 'author'), value(node, 'publisher'), value(node, 'isPartOf')]).toEqual([article.slug, ORGANIZATION_ID, ORGANIZATION_ID, WEBSITE_ID]);
    }
  });
});

describe('Article', () => {
  const iso8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

  it.each(articles.map((article) => [article.slug, article] as const))('/blog/%s: headline, image, author, publisher and dates as rich results need them', (slug, article) => {
    const blocks = compactOfType(page(article.path).blocks, 'Article');
    expect(blocks).toHaveLength(1);
    const [data] = blocks;
    expect(data?.headline).toBe(article.title);
    expect(String(data?.headline).length).toBeLessThanOrEqual(110);
    expect(data?.image).toBe(`${TEST_SITE_URL}/social/${slug}.png`);
    for (const role of ['author', 'publisher']) {
      expect(data?.[role]).toMatchObject({ '@type': 'Organization', '@id': ORGANIZATION_ID, name: site.brand, url: `${TEST_SITE_URL}/` });
    }
    expect(data?.publisher).toMatchObject({ logo: { '@type': 'ImageObject', url: `${TEST_SITE_URL}/logo.png` } });
    for (const date of [data?.datePublished, data?.dateModified]) {
      expect(String(date)).toMatch(iso8601);
      expect(Number.isNaN(Date.parse(String(date)))).toBe(false);
    }
    expect(Date.parse(String(data?.dateModified))).toBeGreaterThanOrEqual(Date.parse(String(data?.datePublished)));
  });
});

describe('FAQPage', () => {
  /** The questions the page shows (each <details>), with the answer as a reader sees it. */
  function visibleFaq(document: HTMLElement): { question: string; answer: string }[] {
    return document.querySelectorAll('main details').map((details) => {
      for (const hidden of details.querySelectorAll('.visually-hidden')) hidden.remove();
      const summary = details.querySelector('summary');
      const question = normalise(summary?.text ?? '');
      summary?.remove();
      return { question, answer: normalise(details.text) };
    });
  }

  const faqPages = () => pagePaths.filter((pagePath) => compactOfType(page(pagePath).blocks, 'FAQPage').length > 0);

  it('is on the home page and on the articles with a FAQ', () => {
    expect(faqPages()).toEqual(expect.arrayContaining(['/', '/blog/surrey-electrical-safety-case-study']));
  });

  it('answers match the visible FAQ word for word, question by question', () => {
    for (const pagePath of faqPages()) {
      const [faq] = compactOfType(page(pagePath).blocks, 'FAQPage');
      const published = (faq?.mainEntity as { name: string; acceptedAnswer: { text: string } }[]).map((item) => ({ question: item.name, answer: item.acceptedAnswer.text }));
      expect([pagePath, published]).toEqual([pagePath, visibleFaq(page(pagePath).document)]);
    }
  });
});

describe('BreadcrumbList', () => {
  it('items are absolute URLs on the site, numbered from 1, ending at the page itself', () => {
    let trails = 0;
    for (const pagePath of pagePaths) {
      for (const breadcrumb of compactOfType(page(pagePath).blocks, 'BreadcrumbList')) {
        trails += 1;
        const items = breadcrumb.itemListElement as { position: number; item: string }[];
        expect(items.map((crumb) => crumb.position)).toEqual(items.map((_crumb, index) => index + 1));
        for (const crumb of items) expect([pagePath, new URL(crumb.item).origin]).toEqual([pagePath, TEST_SITE_URL]);
        const canonical = page(pagePath).document.querySelector('link[rel="canonical"]')?.getAttribute('href');
        expect([pagePath, items.at(-1)?.item]).toEqual([pagePath, canonical]);
      }
    }
    expect(trails).toBeGreaterThan(articles.length);
  });
});
