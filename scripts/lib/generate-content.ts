import { mkdirSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { compileContent, type CompiledContent } from './content';
import { buildMarkdownTwins } from './markdown-twins';

/**
 * Writes content/ as TypeScript modules under shared/generated/, one module per page or article,
 * so that esbuild puts each page's words into that page's chunk only (code splitting).
 */
export function generateContent(root: string): CompiledContent {
  const content = compileContent(path.join(root, 'content'));
  const outDir = path.join(root, 'shared', 'generated');
  for (const entry of existsSync(outDir) ? readdirSync(outDir) : []) {
    if (entry !== 'README.md') rmSync(path.join(outDir, entry), { recursive: true, force: true });
  }
  mkdirSync(path.join(outDir, 'articles'), { recursive: true });
  mkdirSync(path.join(outDir, 'legal'), { recursive: true });
  mkdirSync(path.join(outDir, 'pages'), { recursive: true });

  const header = '// Generated from content/ by scripts/lib/generate-content.ts. Do not edit.\n';
  const write = (file: string, typeImports: string[], body: string) => {
    const imports = typeImports.length > 0 ? `import type { ${typeImports.join(', ')} } from '${path.relative(path.dirname(path.join(outDir, file)), path.join(root, 'shared', 'content-schema')).replace(/\\/g, '/').replace(/^(?!\.)/, './')}';\n` : '';
    writeFileSync(path.join(outDir, file), `${header}${imports}\n${body}\n`);
  };
  const json = (value: unknown) => JSON.stringify(value, null, 2);

  const { companyNumber, registeredIn, registeredOffice, ...siteConstants } = content.site;
  write('site.ts', ['SiteConstants'], `export const siteContent: SiteConstants = ${json(siteConstants)};`);
  const registration = { legalName: content.site.legalName, companyNumber, registeredIn, registeredOffice };
  write('company.ts', ['CompanyRegistration'], `export const companyRegistration: CompanyRegistration = ${json(registration)};`);
  // One module per home section, so that each section's words go only to the chunk that renders
  // it: the static sections are islands a first visit never downloads (client/components/static-island.tsx).
  mkdirSync(path.join(outDir, 'home'), { recursive: true });
  for (const [key, value] of Object.entries(content.home)) {
    write(`home/${key}.ts`, ['HomeContent'], `export const ${key}Content: HomeContent['${key}'] = ${json(value)};`);
  }
  write('home/faq-items.ts', ['FaqContent'], `export const faq: FaqContent = ${json(content.faq)};`);
  write(
    'home.ts',
    ['HomeContent'],
    [
      ...Object.keys(content.home).map((key) => `import { ${key}Content } from './home/${key}';`),
      `export { faq } from './home/faq-items';`,
      '',
      '/** The whole home page, for the server (SEO files) and tests; client code imports sections. */',
      `export const home: HomeContent = { ${Object.keys(content.home).map((key) => `${key}: ${key}Content`).join(', ')} };`,
    ].join('\n'),
  );
  write('process-steps.ts', ['ProcessStepsContent'], `export const processSteps: ProcessStepsContent = ${json(content.processSteps)};`);
  write('case-studies.ts', ['CaseStudiesContent'], `export const caseStudies: CaseStudiesContent = ${json(content.caseStudies)};`);
  for (const [key, value] of Object.entries(content.pages)) {
    write(`pages/${key}.ts`, ['PagesContent'], `export const ${key}: PagesContent['${key}'] = ${json(value)};`);
  }
  for (const page of content.legal) {
    write(`legal/${page.slug}.ts`, ['LegalPage'], `export const legalPage: LegalPage = ${json(page)};`);
  }
  write(
    'legal.ts',
    ['LegalPage'],
    [
      `/** The legal pages without their text, for routes and SEO files. */`,
      `export const legalPages: Omit<LegalPage, 'html'>[] = ${json(content.legal.map(({ html: _html, ...meta }) => meta))};`,
      '',
      `export const legalPageLoaders: Record<string, () => Promise<{ legalPage: LegalPage }>> = {`,
      ...content.legal.map((page) => `  ${json(page.slug)}: () => import('./legal/${page.slug}'),`),
      '};',
    ].join('\n'),
  );
  const summaries = new Map(content.articles.map((article) => [article.summary.slug, article.summary]));
  for (const { summary, body } of content.articles) {
    const related = summary.related.flatMap((slug) => summaries.get(slug) ?? []);
    // Two modules per article: the whole page for client-side navigations, and the same without
    // its prose HTML for a first visit, where that HTML is on screen already and is taken over
    // (client/routes.tsx). Either way the article's words are in no other page's JavaScript.
    write(`articles/${summary.slug}.ts`, ['ArticlePageData'], `export const article: ArticlePageData = ${json({ summary, related, body })};`);
    const proseOnScreen = { segments: body.segments.map((segment) => (segment.kind === 'html' ? { kind: 'html', html: null } : segment)) };
    write(`articles/${summary.slug}.on-screen.ts`, ['ArticlePageData'], `export const article: ArticlePageData<null> = ${json({ summary, related, body: proseOnScreen })};`);
  }
  write(
    'articles.ts',
    ['ArticleSummary'],
    [
      `/** Every article without its body, in blog order (featured first). */`,
      `export const articles: ArticleSummary[] = ${json(content.articles.map((article) => article.summary))};`,
    ].join('\n'),
  );
  // The route table is in every page's JavaScript, so it gets the paths and loaders only: the
  // summaries (excerpts, standfirsts) load with the pages that show them.
  write(
    'article-routes.ts',
    ['ArticlePageData'],
    [
      `export interface ArticleLoaders {`,
      `  /** The whole article, for a client-side navigation (and the server). */`,
      `  full: () => Promise<{ article: ArticlePageData }>;`,
      `  /** The article without its prose HTML, for hydrating the page whose HTML is on screen. */`,
      `  onScreen: () => Promise<{ article: ArticlePageData<null> }>;`,
      `}`,
      '',
      `/** Each article is its own module, so its text reaches the browser only on its own page. */`,
      `export const articleLoaders: Record<string, ArticleLoaders> = {`,
      ...content.articles.map(({ summary }) => `  ${json(summary.slug)}: { full: () => import('./articles/${summary.slug}'), onScreen: () => import('./articles/${summary.slug}.on-screen') },`),
      '};',
      '',
      `/** Article slugs in blog order. */`,
      `export const articleSlugs: string[] = Object.keys(articleLoaders);`,
    ].join('\n'),
  );
  // Read by the server only: the visibility probe's questions, and how it reads a business's name and site.
  write('probe-prompts.ts', ['ProbePromptsContent'], `export const probePrompts: ProbePromptsContent = ${json(content.probePrompts)};`);
  write('probe-page-words.ts', ['ProbePageWordsContent'], `export const probePageWords: ProbePageWordsContent = ${json(content.probePageWords)};`);
  write('probe-platforms.ts', ['ProbePlatformsContent'], `export const probePlatforms: ProbePlatformsContent = ${json(content.probePlatforms)};`);
  write('search-words.ts', ['SearchWordsContent'], `export const searchWords: SearchWordsContent = ${json(content.searchWords)};`);
  // Read by the server only: the full audit's report, its words and what it knows of sites and crawlers.
  write('audit-report.ts', ['AuditReportContent'], `export const auditReport: AuditReportContent = ${json(content.auditReport)};`);
  write('audit-sources.ts', ['AuditSourcesContent'], `export const auditSources: AuditSourcesContent = ${json(content.auditSources)};`);
  // Read by the server only (it makes the links absolute with SITE_URL and serves them).
  write('markdown-twins.ts', [], `import type { MarkdownTwin } from '../markdown-twin';\n\nexport const markdownTwins: MarkdownTwin[] = ${json(buildMarkdownTwins(content))};`);
  return content;
}
