import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileArticleBody, compileContent, ContentError, PAGE_IDS } from '../../scripts/lib/content';
import { articleHeadingIds, headingIds } from '../helpers/heading-ids';

/*
 * The content build on its own: what it makes of content/ (heading ids) and how it refuses a bad
 * file. No build output, server or browser is needed.
 */

const CONTENT_DIR = path.resolve(__dirname, '..', '..', 'content');
const content = compileContent(CONTENT_DIR);

describe('heading ids', () => {
  it.each(content.articles.map(({ summary, body }) => [summary.slug, body.segments] as const))(
    '%s gives every heading an id of its own, none the page uses already',
    (_slug, segments) => {
      const ids = articleHeadingIds(segments);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.filter((id, index) => id === '' || ids.indexOf(id) !== index)).toEqual([]);
      expect(ids.filter((id) => PAGE_IDS.includes(id))).toEqual([]);
    },
  );

  it.each(content.legal.map((page) => [page.slug, page.html] as const))('the legal page %s gives every heading an id of its own', (_slug, html) => {
    const ids = headingIds(html);
    expect(ids.filter((id, index) => id === '' || ids.indexOf(id) !== index || PAGE_IDS.includes(id))).toEqual([]);
  });

  it('keep the plain slug for a first heading and number its repeats in reading order, FAQ answers included', () => {
    const segments = compileArticleBody(
      [
        '## Setup', 'Text.', '### What it is', 'Text.', '## Main', 'Text.', '### What it is', 'Text.',
        ':::faq', '### A question?', '#### What it is', 'An answer.', ':::',
        '## What it is 2', 'Text.', '[Back to the second one](#what-it-is-2)',
      ].join('\n'),
      'fixture.md',
    );
    // "main" is the page's own <main>; "what-it-is-2" was taken by a repeat before its own heading came.
    expect(articleHeadingIds(segments)).toEqual(['setup', 'what-it-is', 'main-2', 'what-it-is-2', 'what-it-is-3', 'what-it-is-2-2']);
  });

  it('are the same on every build (the complete guide, whose pillars repeat three headings)', () => {
    const guide = content.articles.find(({ summary }) => summary.slug === 'complete-llm-seo-guide');
    const ids = articleHeadingIds(guide?.body.segments ?? []);
    for (const heading of ['what-it-is', 'why-it-matters-to-ai-assistants', 'how-to-do-it']) {
      expect(ids.filter((id) => id === heading || id.startsWith(`${heading}-`))).toEqual([heading, `${heading}-2`, `${heading}-3`, `${heading}-4`, `${heading}-5`, `${heading}-6`]);
    }
    expect(compileContent(CONTENT_DIR).articles.map(({ body }) => articleHeadingIds(body.segments))).toEqual(content.articles.map(({ body }) => articleHeadingIds(body.segments)));
  });
});

describe('a bad content file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'citewise-content-'));
    cpSync(CONTENT_DIR, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const breakFrontMatter = (slug: string, field: string, value: string) => {
    const file = path.join(dir, 'articles', `${slug}.md`);
    const source = readFileSync(file, 'utf8');
    const broken = source.replace(new RegExp(`^${field}:.*$`, 'm'), `${field}: ${value}`);
    expect(broken).not.toBe(source);
    writeFileSync(file, broken);
    return file;
  };

  /** Runs the build over the copy and gives back the ContentError it must throw. */
  const buildError = (): Error => {
    let error: unknown;
    try {
      compileContent(dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContentError);
    return error as Error;
  };

  it('compiles while every file is good', () => {
    expect(compileContent(dir).articles).toHaveLength(17);
  });

  it.each([
    ['excerpt', `"${'An excerpt far too long for a blog card. '.repeat(5)}"`],
    ['published', '2025-13-45'],
    ['cta', 'newsletter'],
  ])('fails the build naming the file and the field (%s)', (field, value) => {
    const file = breakFrontMatter('what-is-llm-seo', field, value);
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toContain(`"${field}"`);
  });

  const editArticle = (slug: string, edit: (source: string) => string) => {
    const file = path.join(dir, 'articles', `${slug}.md`);
    const source = readFileSync(file, 'utf8');
    const edited = edit(source);
    expect(edited).not.toBe(source);
    writeFileSync(file, edited);
    return file;
  };

  it('fails the build naming the file when a table header cell is empty', () => {
    const file = editArticle('what-is-llm-seo', (source) => source.replace('| Aspect | Google SEO | LLM SEO |', '| | Google SEO | LLM SEO |'));
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toContain('empty header cell in column 1');
  });

  it('fails the build naming the file when an in-page link lands on no heading', () => {
    const file = editArticle('what-is-llm-seo', (source) => `${source}\nSee [the comparison](#how-llm-seo-differs-from-bing-seo).\n`);
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toContain('"#how-llm-seo-differs-from-bing-seo" lands nowhere');
  });

  it('fails the build when an article\'s title, with the brand after it, is longer than a results page shows, and takes a shorter seoTitle', () => {
    const longHeadline = '"What Is LLM SEO? A Plain-English Guide for UK Business Owners"';
    const file = editArticle('what-is-llm-seo', (source) => source.replace(/^seoTitle:.*\n/m, '').replace(/^title:.*$/m, `title: ${longHeadline}`));
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toContain('"title"');
    expect(message).toContain('"seoTitle"');
    editArticle('what-is-llm-seo', (source) => source.replace(/^title:.*$/m, `title: ${longHeadline}\nseoTitle: "What Is LLM SEO? A Plain-English Guide"`));
    const compiled = compileContent(dir).articles.find(({ summary }) => summary.slug === 'what-is-llm-seo')?.summary;
    expect([compiled?.title, compiled?.seoTitle]).toEqual(['What Is LLM SEO? A Plain-English Guide for UK Business Owners', 'What Is LLM SEO? A Plain-English Guide']);
  });

  it.each([
    ['an unknown placeholder', '  - "Who is the best {keyword} for {name}?"', 'unknown placeholder {name}'],
    ['no placeholder', '  - "Who is the best plumber in Leeds?"', 'at least one placeholder'],
    ['a stray brace', '  - "Who is the best {keyword} for {customer?"', 'a brace that opens or closes no placeholder'],
  ])('fails the build naming the file and the template when a visibility probe question has %s', (_what, line, complaint) => {
    const file = path.join(dir, 'probe-prompts.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^templates:\n/m, `templates:\n${line}\n`));
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toMatch(/probe-prompts field "templates\.0"/);
    expect(message).toContain(complaint);
  });

  it.each([
    ['a placeholder other than {business}', '  - "What does {business} charge for {product}?"'],
    ['no {business}', '  - "Who is the best plumber in Leeds?"'],
  ])('fails the build naming the file and the question when a direct question about the business has %s', (_what, line) => {
    const file = path.join(dir, 'probe-prompts.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^aboutTemplates:\n/m, `aboutTemplates:\n${line}\n`));
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toMatch(/probe-prompts field "aboutTemplates\.0"/);
    expect(message).toContain('must hold {business} once, and no other placeholder');
  });

  it.each([
    ['probe-page-words.yaml', 'a page word in capitals', (yaml: string) => yaml.replace('  - home\n', '  - Home\n'), /probe-page-words field "generic\.\d+"/, 'must be lower case'],
    ['probe-page-words.yaml', 'a page word written twice', (yaml: string) => yaml.replace('  - homepage\n', '  - homepage\n  - homepage\n'), /probe-page-words field "generic"/, 'must not repeat a word'],
    ['probe-platforms.yaml', 'a host two platforms share', (yaml: string) => yaml.replace('hosts: [instagram.com]', 'hosts: [instagram.com, facebook.com]'), /probe-platforms field "platforms"/, 'must not give a host to two platforms'],
    ['probe-platforms.yaml', 'a host with "www."', (yaml: string) => yaml.replace('hosts: [instagram.com]', 'hosts: [www.instagram.com]'), /probe-platforms field "platforms\.\d+\.hosts\.0"/, 'without "www."'],
    ['probe-platforms.yaml', 'a page path of no part', (yaml: string) => yaml.replace(/pagePath: 1/, 'pagePath: 0'), /probe-platforms field "platforms\.0\.pagePath"/, ''],
  ])('fails the build naming the file and the field when %s has %s', (name, _what, edit, field, complaint) => {
    const file = path.join(dir, name);
    const before = readFileSync(file, 'utf8');
    const after = edit(before);
    expect(after).not.toBe(before);
    writeFileSync(file, after);
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toMatch(field);
    expect(message).toContain(complaint);
  });

  it('fails the build when a page\'s description is shorter than a results page needs', () => {
    const file = breakFrontMatter('what-is-llm-seo', 'excerpt', '"Too short to describe a page."');
    const message = buildError().message;
    expect(message).toContain(file);
    expect(message).toContain('"excerpt"');
  });
});
