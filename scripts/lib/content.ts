import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Marked, type Tokens } from 'marked';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import aiSources from '../../server/ledger/ai-sources.json';
import {
  articleFrontMatterSchema,
  auditReportSchema,
  auditSourcesSchema,
  caseStudiesSchema,
  faqSchema,
  homeSchema,
  legalFrontMatterSchema,
  pagesSchema,
  probePageWordsSchema,
  probePlatformsSchema,
  searchWordsSchema,
  probePromptsSchema,
  processStepsSchema,
  siteSchema,
  type ArticleBody,
  type ArticleSegment,
  type ArticleSummary,
  type AuditReportContent,
  type AuditSourcesContent,
  type CaseStudiesContent,
  type FaqContent,
  type HomeContent,
  type LegalPage,
  type PagesContent,
  type ProbePageWordsContent,
  type SearchWordsContent,
  type ProbePlatformsContent,
  type ProbePromptsContent,
  type ProcessStepsContent,
  type SiteContent,
} from '../../shared/content-schema';
import { registeredOfficeLine } from '../../shared/company-details';
import { escapeHtml } from '../../shared/escape-html';
import { countWords, readingMinutes } from '../../shared/reading-time';
import { articleTitle, brandedTitle, TITLE_MAX_LENGTH } from '../../shared/search-snippet';

/** A content file that breaks the schema: the message names the file and the field. */
export class ContentError extends Error {}

export interface CompiledContent {
  site: SiteContent;
  home: HomeContent;
  faq: FaqContent;
  processSteps: ProcessStepsContent;
  caseStudies: CaseStudiesContent;
  pages: PagesContent;
  /** The visibility probe's question templates. */
  probePrompts: ProbePromptsContent;
  /** What the probe never takes for a business's name, and the platforms whose pages are firms' websites. */
  probePageWords: ProbePageWordsContent;
  probePlatforms: ProbePlatformsContent;
  /** The words and places a buyer searches with, never a business's name on their own. */
  searchWords: SearchWordsContent;
  /** The full audit's report: its words, keyed by finding, and what it knows of cited sites and crawlers. */
  auditReport: AuditReportContent;
  auditSources: AuditSourcesContent;
  legal: LegalPage[];
  articles: { summary: ArticleSummary; body: ArticleBody }[];
  /** The Markdown of each article and legal page by slug, placeholders filled (for the Markdown twins). */
  sources: { articles: Record<string, string>; legal: Record<string, string> };
}

function validate<S extends z.ZodType>(schema: S, data: unknown, file: string, what: string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(whole file)';
    return `  ${what} field "${field}": ${issue.message}`;
  });
  throw new ContentError(`${file}:\n${lines.join('\n')}`);
}

function readYaml(file: string): unknown {
  try {
    return parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ContentError(`${file}: not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function splitFrontMatter(file: string): { data: unknown; body: string } {
  const source = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(source);
  if (!match) throw new ContentError(`${file}: must start with front matter between --- lines`);
  try {
    return { data: parseYaml(match[1] ?? ''), body: match[2] ?? '' };
  } catch (error) {
    throw new ContentError(`${file}: front matter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Replaces {{placeholder}}s with site constants; an unknown one is an error, not silent text. */
function fillPlaceholders(text: string, site: SiteContent, file: string): string {
  const values: Record<string, string> = {
    brand: site.brand,
    legalName: site.legalName,
    companyNumber: site.companyNumber,
    registeredIn: site.registeredIn,
    registeredOffice: registeredOfficeLine(site.registeredOffice),
    email: site.email,
    phone: site.phone,
    bookingUrl: site.bookingUrl,
    websiteUrl: site.websiteUrl,
  };
  return text.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new ContentError(`${file}: unknown placeholder ${whole}`);
    return value;
  });
}

/** Fills placeholders in every string of a parsed YAML tree. */
function fillTree<T>(value: T, site: SiteContent, file: string): T {
  if (typeof value === 'string') return fillPlaceholders(value, site, file) as T;
  if (Array.isArray(value)) return value.map((item) => fillTree(item, site, file)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillTree(item, site, file)])) as T;
  }
  return value;
}

/** A page's <title> as its content makes it (the brand after it) must fit a results page. */
function checkTitleFits(title: string, field: string, file: string, advice: string): void {
  if (title.length <= TITLE_MAX_LENGTH) return;
  throw new ContentError(`${file}:\n  front matter field "${field}": the page's title "${title}" is ${title.length} characters, more than the ${TITLE_MAX_LENGTH} a results page shows: ${advice}`);
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Ids the page around an article's or a legal page's text uses itself: the document shell
 * (server/render/document.ts), the layout (client/app.tsx, site-footer.tsx) and the legal
 * page's title. A heading whose slug is one of them is suffixed like a repeat, so that no page
 * holds an id twice. test/integration/content.test.ts fails when a page uses an id missing here.
 */
export const PAGE_IDS: readonly string[] = ['root', 'app-config', 'form-state', 'page-modules', 'main', 'footer-services', 'footer-resources', 'legal-title'];

/**
 * One document (an article with its FAQ answers, or a legal page) as the Markdown renderer walks
 * it in reading order: the ids given so far, the tables numbered so far and the section they
 * sit in, and the in-page links to check once the whole document is known.
 */
interface DocumentState {
  file: string;
  ids: Set<string>;
  headingIds: string[];
  tables: number;
  section: string;
  fragmentLinks: string[];
}

/**
 * A Markdown renderer for one document. Everything it emits is final HTML: the browser renders
 * it as it stands.
 */
function createMarkdown(file: string): { markdown: Marked; state: DocumentState } {
  const state: DocumentState = { file, ids: new Set(PAGE_IDS), headingIds: [], tables: 0, section: '', fragmentLinks: [] };
  const markdown = new Marked({ gfm: true });
  markdown.use({
    renderer: {
      /*
       * Headings get ids so that a section can be linked to. The first heading with a given
       * slug keeps it plain; a repeat (the same words in another section, or a slug the page
       * uses already) takes the first free "-2", "-3", ... in reading order, so the ids are the
       * same on every build. The title is the page's only h1.
       */
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const slug = slugify(inner) || 'section';
        let id = slug;
        for (let repeat = 2; state.ids.has(id); repeat += 1) id = `${slug}-${repeat}`;
        state.ids.add(id);
        state.headingIds.push(id);
        if (depth === 2 || depth === 3) state.section = stripTags(inner);
        return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
      },
      // External links open in a new tab; noopener keeps the opened page from reaching back.
      link({ href, title, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
        if (/^https?:\/\//.test(href)) {
          return `<a href="${escapeHtml(href)}"${titleAttr} target="_blank" rel="noopener noreferrer">${inner}<span class="visually-hidden"> (opens in a new tab)</span></a>`;
        }
        if (href.startsWith('#')) state.fragmentLinks.push(href.slice(1));
        return `<a href="${escapeHtml(href)}"${titleAttr}>${inner}</a>`;
      },
      /*
       * A table keeps its native semantics (no ARIA roles: the HTML standard forbids them on
       * table parts inside a table). It scrolls sideways inside its own focusable region instead
       * of widening the page, and the region is named after its number and section, so that no
       * two regions share a name. Each body cell carries its column's heading as data-label:
       * on a phone the article's styles lay each row out as a card and print that heading above
       * the value.
       */
      table({ header, rows, align }: Tokens.Table) {
        state.tables += 1;
        const where = `table ${state.tables}${state.section ? ` (under "${state.section}")` : ''}`;
        const headings = header.map((cell) => this.parser.parseInline(cell.tokens));
        const labels = headings.map((html) => stripTags(html).replace(/\s+/g, ' '));
        const empty = labels.findIndex((label) => label === '');
        if (empty !== -1) {
          throw new ContentError(
            `${file}: ${where} has an empty header cell in column ${empty + 1}; name every column, the first too (e.g. "Aspect"): screen readers announce it with each value and phones print it above each value`,
          );
        }
        if (align.some((side) => side !== null)) {
          // Markdown's alignment becomes the align attribute, which HTML no longer allows, and a
          // phone's card layout has no columns to align.
          throw new ContentError(`${file}: ${where} sets a column alignment (":---" or "---:"); tables are left-aligned, write "---" only`);
        }
        const label = `Table ${state.tables}${state.section ? `: ${state.section}` : ''}`;
        const head = `<tr>\n${headings.map((html) => `<th scope="col">${html}</th>\n`).join('')}</tr>\n`;
        const body = rows
          .map((row) => `<tr>\n${row.map((cell, column) => `<td data-label="${escapeHtml(labels[column] ?? '')}">${this.parser.parseInline(cell.tokens)}</td>\n`).join('')}</tr>\n`)
          .join('');
        return `<div class="table-scroll" role="region" aria-label="${escapeHtml(label)}" tabindex="0"><table>\n<thead>\n${head}</thead>\n${body ? `<tbody>${body}</tbody>` : ''}</table></div>\n`;
      },
    },
  });
  return { markdown, state };
}

/** The build-made HTML of one Markdown run. */
function toHtml(markdown: Marked, source: string): string {
  return markdown.parse(source, { async: false });
}

function toInlineHtml(markdown: Marked, source: string): string {
  return markdown.parseInline(source, { async: false });
}

/** Every "#fragment" link of a document lands on one of its headings. */
function checkFragmentLinks(state: DocumentState): void {
  for (const fragment of state.fragmentLinks) {
    if (!state.headingIds.includes(fragment)) {
      throw new ContentError(`${state.file}: the link to "#${fragment}" lands nowhere; headings here have the ids ${state.headingIds.join(', ')}`);
    }
  }
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').trim();
}

function listItems(lines: string[], file: string, block: string): string[] {
  const items = lines.filter((line) => line.trim() !== '');
  return items.map((line) => {
    const match = /^\s*[-*]\s+(.+)$/.exec(line);
    if (!match?.[1]) throw new ContentError(`${file}: in :::${block}, every line must be a "- " list item, got "${line}"`);
    return match[1].trim();
  });
}

function compileBlock(name: string, argument: string, lines: string[], file: string, markdown: Marked): ArticleSegment {
  switch (name) {
    case 'copy': {
      if (!/^[a-z0-9-]+$/.test(argument)) throw new ContentError(`${file}: :::copy needs an id, e.g. ":::copy robots"`);
      return { kind: 'copy', id: argument, text: lines.join('\n').replace(/^\n+|\n+$/g, '') };
    }
    case 'checklist':
      return { kind: 'checklist', items: listItems(lines, file, name).map((item) => toInlineHtml(markdown, item)) };
    case 'stats':
      return {
        kind: 'stats',
        items: listItems(lines, file, name).map((item) => {
          const [stat, label] = item.split('|').map((part) => part.trim());
          if (!stat || !label) throw new ContentError(`${file}: :::stats items are "- figure | label", got "${item}"`);
          return { stat, label };
        }),
      };
    case 'faq': {
      const items: { question: string; answerHtml: string; answerText: string }[] = [];
      let current: { question: string; answer: string[] } | undefined;
      const flush = () => {
        if (!current) return;
        const answerHtml = toHtml(markdown, current.answer.join('\n'));
        if (!stripTags(answerHtml)) throw new ContentError(`${file}: :::faq question "${current.question}" has no answer`);
        items.push({ question: current.question, answerHtml, answerText: stripTags(answerHtml).replace(/\s+/g, ' ') });
      };
      for (const line of lines) {
        const question = /^###\s+(.+)$/.exec(line);
        if (question?.[1]) {
          flush();
          current = { question: question[1].trim(), answer: [] };
        } else if (current) {
          current.answer.push(line);
        } else if (line.trim() !== '') {
          throw new ContentError(`${file}: :::faq must start with a "### Question" line`);
        }
      }
      flush();
      if (items.length === 0) throw new ContentError(`${file}: :::faq has no questions`);
      return { kind: 'faq', items };
    }
    default:
      throw new ContentError(`${file}: unknown block :::${name} (known: copy, checklist, faq, stats)`);
  }
}

/** An article body in order: runs of prose lines, and each `:::name arg` ... `:::` block's lines. */
export type ArticleBodyPart = { kind: 'prose'; lines: string[] } | { kind: 'block'; name: string; arg: string; lines: string[] };

/** Splits an article body at its interactive blocks (content/README.md); the page and its twin both read it so. */
export function splitArticleBody(body: string, file: string): ArticleBodyPart[] {
  const parts: ArticleBodyPart[] = [];
  let prose: string[] = [];
  const lines = body.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const open = /^:::([a-z]+)\s*(\S*)\s*$/.exec(line);
    if (!open) {
      prose.push(line);
      continue;
    }
    const end = lines.findIndex((candidate, at) => at > index && candidate.trim() === ':::');
    if (end === -1) throw new ContentError(`${file}: block :::${open[1]} (line ${index + 1}) is never closed with :::`);
    if (prose.length > 0) parts.push({ kind: 'prose', lines: prose });
    prose = [];
    parts.push({ kind: 'block', name: open[1] ?? '', arg: open[2] ?? '', lines: lines.slice(index + 1, end) });
    index = end;
  }
  if (prose.length > 0) parts.push({ kind: 'prose', lines: prose });
  return parts;
}

/** Compiles an article body into prose (HTML) and the interactive blocks. */
export function compileArticleBody(body: string, file: string): ArticleSegment[] {
  // One renderer for the whole article, FAQ answers included: heading ids and table numbers
  // count across all of it, since it is all one page.
  const { markdown, state } = createMarkdown(file);
  const segments = splitArticleBody(body, file).flatMap((part): ArticleSegment[] => {
    if (part.kind === 'block') return [compileBlock(part.name, part.arg, part.lines, file, markdown)];
    const source = part.lines.join('\n').trim();
    return source ? [{ kind: 'html', html: toHtml(markdown, source) }] : [];
  });
  if (/<h1[\s>]/.test(segments.map((segment) => (segment.kind === 'html' ? segment.html : '')).join(''))) {
    throw new ContentError(`${file}: the body must not contain a "# " heading; the title is the page's only h1`);
  }
  checkFragmentLinks(state);
  return segments;
}

function compileArticles(dir: string, site: SiteContent, sources: Record<string, string>): CompiledContent['articles'] {
  const files = readdirSync(dir).filter((name) => name.endsWith('.md')).sort();
  const articles = files.map((name) => {
    const file = path.join(dir, name);
    const slug = name.slice(0, -'.md'.length);
    if (!/^[a-z0-9-]+$/.test(slug)) throw new ContentError(`${file}: file name must be a lower-case slug`);
    const { data, body } = splitFrontMatter(file);
    const frontMatter = validate(articleFrontMatterSchema, fillTree(data, site, file), file, 'front matter');
    checkTitleFits(articleTitle(frontMatter, site.brand), frontMatter.seoTitle === undefined ? 'title' : 'seoTitle', file, 'give the article a shorter "seoTitle" for results pages; its headline on the page stays "title"');
    if (frontMatter.updated < frontMatter.published) {
      throw new ContentError(`${file}:\n  front matter field "updated": must not be before "published"`);
    }
    const filled = fillPlaceholders(body, site, file);
    sources[slug] = filled;
    const wordCount = countWords(filled);
    const summary: ArticleSummary = { ...frontMatter, slug, path: `/blog/${slug}`, wordCount, readMinutes: readingMinutes(wordCount), illustrative: false };
    return { summary, body: { segments: compileArticleBody(filled, file) } };
  });
  const slugs = new Set(articles.map((article) => article.summary.slug));
  for (const { summary } of articles) {
    for (const related of summary.related) {
      if (!slugs.has(related) || related === summary.slug) {
        throw new ContentError(`${path.join(dir, `${summary.slug}.md`)}:\n  front matter field "related": "${related}" is not another article`);
      }
    }
  }
  const featured = articles.filter((article) => article.summary.featured);
  if (articles.length > 0 && featured.length !== 1) {
    throw new ContentError(`${dir}: exactly one article must have "featured: true" (found ${featured.length})`);
  }
  // Featured first, then the most recently updated: the order of the blog index.
  return articles.sort(
    (a, b) =>
      Number(b.summary.featured) - Number(a.summary.featured) ||
      b.summary.updated.localeCompare(a.summary.updated) ||
      b.summary.published.localeCompare(a.summary.published) ||
      a.summary.slug.localeCompare(b.summary.slug),
  );
}

function compileLegal(dir: string, site: SiteContent, sources: Record<string, string>): LegalPage[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      const { data, body } = splitFrontMatter(file);
      const frontMatter = validate(legalFrontMatterSchema, fillTree(data, site, file), file, 'front matter');
      checkTitleFits(brandedTitle(frontMatter.title, site.brand), 'title', file, 'shorten it');
      const { markdown, state } = createMarkdown(file);
      const filled = fillPlaceholders(body, site, file);
      const html = toHtml(markdown, filled);
      checkFragmentLinks(state);
      const slug = name.slice(0, -'.md'.length);
      sources[slug] = filled;
      return { slug, ...frontMatter, html };
    });
}

/**
 * The crawlers the report names for each assistant are judged by the site check from robots.txt,
 * which judges the agents of server/ledger/ai-sources.json: a token missing there would be shown
 * as never measured.
 */
function checkCrawlerTokens(sources: AuditSourcesContent, file: string): AuditSourcesContent {
  const judged = new Set(aiSources.agents.map((agent) => agent.match));
  for (const [assistant, tokens] of Object.entries(sources.crawlers)) {
    const unknown = tokens.find((token) => !judged.has(token));
    if (unknown !== undefined) {
      throw new ContentError(`${file}:\n  audit-sources field "crawlers.${assistant}": "${unknown}" is not an agent of server/ledger/ai-sources.json, whose agents the site check judges robots.txt for`);
    }
  }
  return sources;
}

/** Reads, checks and compiles everything under content/. Throws ContentError on a bad file. */
export function compileContent(contentDir: string): CompiledContent {
  const file = (name: string) => path.join(contentDir, name);
  const site = validate(siteSchema, readYaml(file('site.yaml')), file('site.yaml'), 'site');
  const yamlFile = <S extends z.ZodType>(name: string, schema: S): z.output<S> =>
    validate(schema, fillTree(readYaml(file(name)), site, file(name)), file(name), name.replace(/\.yaml$/, ''));
  const sources: CompiledContent['sources'] = { articles: {}, legal: {} };
  // The YAML files first, the articles and legal pages (rendered from Markdown) last: a mistake in a
  // YAML file is reported without rendering every article first.
  const caseStudies = yamlFile('case-studies.yaml', caseStudiesSchema);
  const settings = {
    home: yamlFile('home.yaml', homeSchema),
    faq: yamlFile('faq.yaml', faqSchema),
    processSteps: yamlFile('process-steps.yaml', processStepsSchema),
    caseStudies,
    pages: yamlFile('pages.yaml', pagesSchema),
    probePrompts: yamlFile('probe-prompts.yaml', probePromptsSchema),
    probePageWords: yamlFile('probe-page-words.yaml', probePageWordsSchema),
    probePlatforms: yamlFile('probe-platforms.yaml', probePlatformsSchema),
    searchWords: yamlFile('search-words.yaml', searchWordsSchema),
    auditReport: yamlFile('audit-report.yaml', auditReportSchema),
    auditSources: checkCrawlerTokens(yamlFile('audit-sources.yaml', auditSourcesSchema), file('audit-sources.yaml')),
  };
  const articles = compileArticles(file('articles'), site, sources.articles);
  // An article that tells an invented case study's story is as invented as the study.
  const invented = new Set(caseStudies.studies.filter((study) => study.kind === 'illustrative').map((study) => study.article));
  for (const { summary } of articles) summary.illustrative = invented.has(summary.slug);
  return { site, sources, ...settings, legal: compileLegal(file('legal'), site, sources.legal), articles };
}
