import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { articleLoaders } from '../../shared/generated/article-routes';
import { articles } from '../../shared/generated/articles';
import { caseStudies } from '../../shared/generated/case-studies';
import { home } from '../../shared/generated/home';
import { legalPageLoaders, legalPages } from '../../shared/generated/legal';
import { blog } from '../../shared/generated/pages/blog';
import { contact } from '../../shared/generated/pages/contact';
import { freeAudit } from '../../shared/generated/pages/freeAudit';
import { thankYou } from '../../shared/generated/pages/thankYou';
import { processSteps } from '../../shared/generated/process-steps';
import type { ArticleBody } from '../../shared/content-schema';
import { outputFor, startupFiles } from '../../scripts/lib/client-chunks';
import { budgetFailures, firstVisitJs, JS_BUDGETS, kb } from '../../scripts/lib/js-budgets';
import { ROOT } from '../helpers/locations';

// Reads what `npm run build` wrote: the metafile and the chunks as the browser receives them.
const meta = JSON.parse(readFileSync(path.join(ROOT, 'dist', 'client-meta.json'), 'utf8')) as Metafile;
const chunks = Object.keys(meta.outputs)
  .filter((file) => file.endsWith('.js'))
  .map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
const chunksHolding = (text: string) => chunks.filter((chunk) => chunk.text.includes(text)).map((chunk) => chunk.file);
const entryFiles = startupFiles(meta);

/**
 * The longest sentence of some HTML that a minified chunk holds byte for byte: esbuild writes
 * non-ASCII characters as escapes and escapes quotes, so sentences with those are passed over.
 */
function distinctiveSentence(html: string): string {
  const sentences = html
    .replace(/<[^>]+>/g, '\n')
    .split(/\n|(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /^[A-Za-z0-9 ,.;:!?()%'-]{40,}$/.test(sentence))
    .sort((a, b) => b.length - a.length);
  const [longest] = sentences;
  if (!longest) throw new Error(`No plain sentence of 40+ characters in: ${html.slice(0, 200)}`);
  return longest;
}

const bodyHtml = (body: ArticleBody) =>
  body.segments.map((segment) => (segment.kind === 'html' ? segment.html : segment.kind === 'copy' ? segment.text : '')).join('\n');

describe('article text in the client bundle', () => {
  it.each(articles.map((article) => [article.slug]))('%s travels only in its own chunk', async (slug) => {
    const { article } = await articleLoaders[slug]!.full();
    const sentence = distinctiveSentence(bodyHtml(article.body));
    // Not even in the module a first visit loads: there the prose is on screen already.
    expect(chunksHolding(sentence)).toEqual([outputFor(meta, `shared/generated/articles/${slug}.ts`)]);
  });

  it.each(legalPages.map((page) => [page.slug]))('the %s text travels only in its own chunk', async (slug) => {
    const { legalPage } = await legalPageLoaders[slug]!();
    expect(chunksHolding(distinctiveSentence(legalPage.html))).toEqual([outputFor(meta, `shared/generated/legal/${slug}.ts`)]);
  });
});

describe("each page's copy in the client bundle", () => {
  const pages: [page: string, what: string, text: string][] = [
    ['client/components/home/intro-island.tsx', "home's hero title", home.hero.title],
    ['client/components/home/offer-island.tsx', "home's pricing lead", home.pricing.lead],
    ['client/pages/how-it-works-page.tsx', "how it works' lead", processSteps.intro.lead],
    ['client/pages/case-studies-page.tsx', "case studies' lead", caseStudies.intro.lead],
    ['client/pages/blog-page.tsx', "the blog's lead", blog.lead],
    ['client/pages/free-audit-page.tsx', "the free audit's lead", freeAudit.lead],
    ['client/pages/contact-page.tsx', "contact's lead", contact.lead],
    ['client/pages/thank-you-page.tsx', "thank you's lead", thankYou.lead],
  ];

  it.each(pages)('%s: %s is only in that page chunk, not in the entry or another page', (page, _what, text) => {
    expect(chunksHolding(distinctiveSentence(text))).toEqual([outputFor(meta, page)]);
  });

  // Site constants, article paths and legal page names are the route table's; summaries are copy.
  it('leaves the entry chunk and its static imports free of every page copy module', () => {
    const copyModules = (file: string) => Object.keys(meta.outputs[file]?.inputs ?? {}).filter((input) => /^shared\/generated\/(?!site\.ts$|article-routes\.ts$|legal\.ts$)/.test(input));
    expect(entryFiles.flatMap(copyModules)).toEqual([]);
  });
});

describe('server-only code in the client bundle', () => {
  it.each(chunks.map((chunk) => [path.basename(chunk.file), chunk.file]))('%s holds no server-only module', (_name, file) => {
    const inputs = Object.keys(meta.outputs[file]?.inputs ?? {});
    expect(inputs.filter((input) => input.startsWith('server/') || /\.server\.tsx?$/.test(input))).toEqual([]);
  });
});

describe('JavaScript budgets (gzip, all a first visit loads)', () => {
  const routes = firstVisitJs(ROOT, meta);

  it('measures every route: the entry, its page chunks and their static imports', () => {
    const home = routes.find((route) => route.path === '/');
    expect(home?.files).toEqual(expect.arrayContaining([...entryFiles, outputFor(meta, 'client/pages/home-page.tsx')]));
    expect(routes.filter((route) => route.kind === 'article')).toHaveLength(articles.length);
    expect(routes.find((route) => route.path === '/free-audit')?.kind).toBe('free-audit');
  });

  it(`keeps every home page within ${kb(JS_BUDGETS.home ?? 0)} and every article within ${kb(JS_BUDGETS.article ?? 0)}`, () => {
    expect(budgetFailures(routes)).toEqual([]);
  });
});
