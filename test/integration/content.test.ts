import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import request from 'supertest';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { compileContent, PAGE_IDS } from '../../scripts/lib/content';
import { articles } from '../../shared/generated/articles';
import { countWords, readingMinutes } from '../../shared/reading-time';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT, TEST_SITE_URL } from '../helpers/locations';
import { articleHeadingIds, headingIds } from '../helpers/heading-ids';

const CONTENT_DIR = path.join(ROOT, 'content');
// Compiled afresh from content/, so these tests hold for the source files, not only the generated copy.
const content = compileContent(CONTENT_DIR);
const compiled = new Map(content.articles.map(({ summary }) => [summary.slug, summary]));

/** Every article's slug, each served at /blog/<slug>. */
const ARTICLE_SLUGS = [
  'what-is-llm-seo', 'claude-case-study', 'why-google-seo-is-not-enough-2025', 'ai-tools-recommendation',
  'ai-friendly-website', 'brand-mentions-llm-seo', 'perplexity-seo', 'llm-seo-vs-traditional-seo',
  'blog-post-ai-structure', 'citewise-method', 'surrey-electrical-safety-case-study', 'complete-llm-seo-guide',
  'ai-vs-google-search-revolution', 'reddit-quora-medium-ai-training', 'prompt-engineering-for-business',
  'best-llm-seo-agencies-uk', 'robots-llms-txt-guide',
];

/** The read times these articles were written to, in minutes. */
const STATED_READ_MINUTES: Record<string, number> = {
  'prompt-engineering-for-business': 10,
  'best-llm-seo-agencies-uk': 8,
  'robots-llms-txt-guide': 8,
  'what-is-llm-seo': 6,
  'claude-case-study': 7,
  'why-google-seo-is-not-enough-2025': 9,
  'ai-friendly-website': 11,
  'brand-mentions-llm-seo': 8,
  'perplexity-seo': 7,
  'llm-seo-vs-traditional-seo': 6,
  'blog-post-ai-structure': 9,
  'citewise-method': 10,
  'surrey-electrical-safety-case-study': 12,
};

/** Two articles have their own publish date; every other one was published 2025-01-07. */
const statedPublished = (slug: string) =>
  ({ 'best-llm-seo-agencies-uk': '2025-08-07', 'robots-llms-txt-guide': '2025-01-13' })[slug] ?? '2025-01-07';

// The first request to each page renders it; a run over every page takes seconds on a busy machine.
jest.setTimeout(60_000);

let testApp: TestApp;
beforeAll(() => {
  testApp = createTestApp();
});
afterAll(() => testApp.close());

async function getPage(pagePath: string): Promise<HTMLElement> {
  const response = await request(testApp.app).get(pagePath);
  expect([pagePath, response.status]).toEqual([pagePath, pagePath === '/no-such-page' ? 404 : 200]);
  // <pre> parsed as markup (node-html-parser keeps it raw by default), so that its <code> can be read.
  return parse(response.text, { blockTextElements: { script: true, noscript: true, style: true } });
}

type JsonLd = Record<string, unknown> & { '@type': string };

/** Every JSON-LD object on the page; a block's @graph counts as its members. */
function jsonLdBlocks(document: HTMLElement): JsonLd[] {
  return document
    .querySelectorAll('script[type="application/ld+json"]')
    .map((script) => JSON.parse(script.rawText) as JsonLd & { '@graph'?: JsonLd[] })
    .flatMap((block) => block['@graph'] ?? [block]);
}

const ofType = (blocks: JsonLd[], type: string) => blocks.filter((block) => block['@type'] === type);

/** An article's Markdown body as the reader sees it: front matter gone, placeholders filled. */
function articleBody(slug: string): string {
  const source = readFileSync(path.join(CONTENT_DIR, 'articles', `${slug}.md`), 'utf8').replace(/\r\n/g, '\n');
  const body = source.replace(/^---\n[\s\S]*?\n---\n?/, '');
  return body.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (_, name: string) => String(content.site[name as keyof typeof content.site]));
}

describe('the articles', () => {
  it('are 17, at exactly the expected slugs, each with its route', () => {
    expect([...compiled.keys()].sort()).toEqual([...ARTICLE_SLUGS].sort());
    expect(articles.map((article) => article.slug)).toEqual(content.articles.map(({ summary }) => summary.slug));
    const routePaths = appRoutes.map((route) => route.path);
    for (const slug of ARTICLE_SLUGS) expect(routePaths).toContain(`/blog/${slug}`);
  });

  it('have exactly one featured article, and it comes first', () => {
    const featured = content.articles.filter(({ summary }) => summary.featured);
    expect(featured).toHaveLength(1);
    expect(content.articles[0]?.summary.slug).toBe(featured[0]?.summary.slug);
    expect(articles[0]?.featured).toBe(true);
  });

  it.each(Object.entries(STATED_READ_MINUTES))('%s reads in %i minutes, counted from its words and shown on its page', async (slug, minutes) => {
    expect(readingMinutes(countWords(articleBody(slug)))).toBe(minutes);
    expect(compiled.get(slug)?.readMinutes).toBe(minutes);
    const document = await getPage(`/blog/${slug}`);
    expect(document.querySelector('main article')?.text.match(/(\d+) min read/)?.[1]).toBe(String(minutes));
  });

  it('all read in 5 to 15 minutes', () => {
    for (const { summary } of content.articles) {
      expect([summary.slug, readingMinutes(countWords(articleBody(summary.slug)))]).toEqual([summary.slug, summary.readMinutes]);
      expect([summary.slug, summary.readMinutes >= 5 && summary.readMinutes <= 15]).toEqual([summary.slug, true]);
    }
  });

  it.each(ARTICLE_SLUGS)('%s has its stated publish date, in its content, its page and its structured data', async (slug) => {
    const published = statedPublished(slug);
    expect(compiled.get(slug)?.published).toBe(published);
    const document = await getPage(`/blog/${slug}`);
    expect(document.querySelector('main article time')?.getAttribute('datetime')).toBe(published);
    expect(document.querySelector('meta[property="article:published_time"]')?.getAttribute('content')).toBe(published);
    expect(ofType(jsonLdBlocks(document), 'Article')[0]?.datePublished).toBe(published);
  });
});

describe('the blog index', () => {
  it('shows 17 cards: the featured article first, then 16 under "Latest Articles"', async () => {
    const document = await getPage('/blog');
    const main = document.querySelector('main');
    const cards = main?.querySelectorAll('article') ?? [];
    expect(cards).toHaveLength(17);

    const featuredSection = main?.querySelector('section[aria-labelledby="featured-title"]');
    const featuredCards = featuredSection?.querySelectorAll('article') ?? [];
    expect(featuredCards).toHaveLength(1);
    const featured = content.articles.find(({ summary }) => summary.featured)?.summary;
    expect(featuredCards[0]?.querySelector('h3 a')?.getAttribute('href')).toBe(featured?.path);
    expect(cards[0]?.querySelector('h3 a')?.getAttribute('href')).toBe(featured?.path);

    const latestSection = main?.querySelector('section[aria-labelledby="latest-title"]');
    expect(latestSection?.querySelector('#latest-title')?.text.trim()).toBe('Latest Articles');
    const latest = latestSection?.querySelectorAll('article') ?? [];
    expect(latest).toHaveLength(16);
    expect(latest.map((card) => card.querySelector('h3 a')?.getAttribute('href'))).toEqual(articles.slice(1).map((article) => article.path));
  });

  it('gives each card its category, title, excerpt, read time and a Read More link', async () => {
    const cards = (await getPage('/blog')).querySelectorAll('main article');
    cards.forEach((card, index) => {
      const article = articles[index];
      const text = card.text.replace(/\s+/g, ' ');
      expect(text).toContain(article?.category);
      expect(card.querySelector('h3')?.text.trim()).toBe(article?.title);
      expect(text).toContain(article?.excerpt);
      expect(text).toContain(`${article?.readMinutes} min read`);
      const readMore = card.querySelectorAll('a').find((link) => link.text.trim().startsWith('Read More'));
      expect(readMore?.getAttribute('href')).toBe(article?.path);
    });
  });
});

describe('structured data parsed from the served HTML', () => {
  const pagePaths = [...appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path), '/no-such-page'];

  it.each(pagePaths)('%s names the Organization', async (pagePath) => {
    const organization = ofType(jsonLdBlocks(await getPage(pagePath)), 'Organization');
    expect(organization).toHaveLength(1);
    expect(organization[0]?.name).toBe(content.site.brand);
    expect(organization[0]?.url).toBe(`${TEST_SITE_URL}/`);
  });

  it.each(['/', '/how-it-works'])('%s describes the Service', async (pagePath) => {
    const service = ofType(jsonLdBlocks(await getPage(pagePath)), 'Service');
    expect(service).toHaveLength(1);
    expect(service[0]?.provider).toEqual({ '@id': `${TEST_SITE_URL}/#organization` });
  });

  it('/ has a FAQPage of the 8 questions the page shows', async () => {
    const document = await getPage('/');
    const faq = ofType(jsonLdBlocks(document), 'FAQPage');
    expect(faq).toHaveLength(1);
    const questions = (faq[0]?.mainEntity as { name: string }[]).map((question) => question.name);
    expect(questions).toEqual(content.faq.items.map((item) => item.question));
    expect(questions).toHaveLength(8);
    const visible = document.querySelector('#faq')?.text ?? '';
    for (const question of questions) expect(visible).toContain(question);
  });

  it.each(articles.map((article) => [article.slug, article] as const))('/blog/%s has Article and BreadcrumbList', async (_slug, article) => {
    const blocks = jsonLdBlocks(await getPage(article.path));
    const [data] = ofType(blocks, 'Article');
    expect(data).toMatchObject({
      headline: article.title,
      description: article.excerpt,
      datePublished: article.published,
      dateModified: article.updated,
      url: `${TEST_SITE_URL}${article.path}`,
      author: { '@type': 'Organization' },
      publisher: { '@type': 'Organization', logo: { '@type': 'ImageObject' } },
    });
    // Every Article carries articleSection, keywords and a word count.
    expect(data?.articleSection).toBe(article.category);
    expect(data?.keywords).toEqual(article.keywords);
    expect(data?.wordCount).toBe(article.wordCount);
    const [breadcrumb] = ofType(blocks, 'BreadcrumbList');
    const trail = (breadcrumb?.itemListElement as { item: string }[]).map((crumb) => crumb.item);
    expect(trail).toEqual([`${TEST_SITE_URL}/`, `${TEST_SITE_URL}/blog`, `${TEST_SITE_URL}${article.path}`]);
  });

  it('the Surrey electrical case study has a FAQPage of the 3 questions it shows', async () => {
    const document = await getPage('/blog/surrey-electrical-safety-case-study');
    const faq = ofType(jsonLdBlocks(document), 'FAQPage');
    expect(faq).toHaveLength(1);
    const questions = faq[0]?.mainEntity as { name: string; acceptedAnswer: { text: string } }[];
    expect(questions).toHaveLength(3);
    const visible = document.querySelector('main')?.text ?? '';
    for (const question of questions) {
      expect(visible).toContain(question.name);
      expect(question.acceptedAnswer.text.length).toBeGreaterThan(20);
    }
  });
});

describe('article features', () => {
  it('the robots guide has two Copy samples: robots.txt and llms.txt', async () => {
    const main = (await getPage('/blog/robots-llms-txt-guide')).querySelector('main');
    const copyButtons = main?.querySelectorAll('button').map((button) => button.text.trim()).filter((label) => label.startsWith('Copy')) ?? [];
    expect(copyButtons).toEqual(['Copy robots.txt', 'Copy llms.txt']);
    const samples = main?.querySelectorAll('pre code').map((code) => code.text) ?? [];
    expect(samples.some((sample) => sample.includes('User-agent: *') && sample.includes('Crawl-delay: 1'))).toBe(true);
    expect(samples.some((sample) => /^# \S/.test(sample) && sample.includes('## Optional'))).toBe(true);
  });

  it('the method and comparison articles close with the booking page', () => {
    expect(compiled.get('citewise-method')?.cta).toBe('booking');
    expect(compiled.get('llm-seo-vs-traditional-seo')?.cta).toBe('booking');
  });

  it.each(articles.filter((article) => article.cta === 'booking').map((article) => article.slug))(
    '%s links to the booking page in a new tab',
    async (slug) => {
      const main = (await getPage(`/blog/${slug}`)).querySelector('main');
      const links = main?.querySelectorAll('a').filter((link) => link.getAttribute('href') === testApp.config.bookingUrl) ?? [];
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) {
        expect(link.getAttribute('target')).toBe('_blank');
        expect(link.getAttribute('rel')?.split(/\s+/)).toContain('noopener');
      }
    },
  );

  it('best-llm-seo-agencies-uk links out to our own website in a new tab', async () => {
    const main = (await getPage('/blog/best-llm-seo-agencies-uk')).querySelector('main');
    const links = main?.querySelectorAll('a').filter((link) => link.getAttribute('href') === content.site.websiteUrl) ?? [];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')?.split(/\s+/)).toContain('noopener');
    }
  });
});

describe('heading ids', () => {
  it('leave no id the pages use outside the build-made text unreserved (PAGE_IDS)', async () => {
    const pages = [
      ...content.articles.map(({ summary, body }) => ({ path: summary.path, built: articleHeadingIds(body.segments) })),
      ...content.legal.map((page) => ({ path: `/${page.slug}`, built: headingIds(page.html) })),
    ];
    const unreserved = new Set<string>();
    for (const page of pages) {
      const document = await getPage(page.path);
      for (const element of document.querySelectorAll('[id]')) {
        const id = element.getAttribute('id') ?? '';
        // Only an id shaped like a slug can collide with a heading's: React's useId ids start with "_".
        if (/^[a-z0-9][a-z0-9-]*$/.test(id) && !page.built.includes(id) && !PAGE_IDS.includes(id)) unreserved.add(`${page.path}: ${id}`);
      }
    }
    expect([...unreserved]).toEqual([]);
  });
});

describe('article tables', () => {
  const withTables = content.articles.filter(({ body }) => body.segments.some((segment) => segment.kind === 'html' && segment.html.includes('<table')));

  it.each(withTables.map(({ summary }) => summary.path))('%s serves native tables, each in a uniquely named region, every value labelled with its column', async (pagePath) => {
    const main = (await getPage(pagePath)).querySelector('main');
    const regions = main?.querySelectorAll('.table-scroll') ?? [];
    expect(regions.length).toBeGreaterThan(0);
    const names = regions.map((region) => region.getAttribute('aria-label') ?? '');
    expect(names.map((name, index) => name.startsWith(`Table ${index + 1}: `))).toEqual(names.map(() => true));
    expect(new Set(names).size).toBe(names.length);
    for (const region of regions) {
      expect([region.getAttribute('role'), region.getAttribute('tabindex')]).toEqual(['region', '0']);
      const table = region.querySelector('table');
      // The HTML standard forbids ARIA roles on the parts of a table; they are tables already.
      expect(table?.querySelectorAll('[role]').map((part) => part.outerHTML.slice(0, 80))).toEqual([]);
      expect(table?.getAttribute('role')).toBeUndefined();
      const columns = table?.querySelectorAll('thead th').map((cell) => cell.text.trim()) ?? [];
      expect(columns.filter((column) => column === '')).toEqual([]);
      for (const row of table?.querySelectorAll('tbody tr') ?? []) {
        expect(row.querySelectorAll('td').map((cell) => cell.getAttribute('data-label'))).toEqual(columns);
      }
    }
  });
});
