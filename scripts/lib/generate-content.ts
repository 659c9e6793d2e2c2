import { mkdirSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { compileContent, type CompiledContent } from './content';

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

  write('site.ts', ['SiteContent'], `export const siteContent: SiteContent = ${json(content.site)};`);
  write('home.ts', ['HomeContent', 'FaqContent'], `export const home: HomeContent = ${json(content.home)};\n\nexport const faq: FaqContent = ${json(content.faq)};`);
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
  for (const { summary, body } of content.articles) {
    write(`articles/${summary.slug}.ts`, ['ArticleBody'], `export const body: ArticleBody = ${json(body)};`);
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
    ['ArticleBody'],
    [
      `/** Article slugs in blog order. */`,
      `export const articleSlugs: string[] = ${json(content.articles.map((article) => article.summary.slug))};`,
      '',
      `/** Each body is its own module, so its text reaches the browser only on its own page. */`,
      `export const articleBodyLoaders: Record<string, () => Promise<{ body: ArticleBody }>> = {`,
      ...content.articles.map(({ summary }) => `  ${json(summary.slug)}: () => import('./articles/${summary.slug}'),`),
      '};',
    ].join('\n'),
  );
  return content;
}
