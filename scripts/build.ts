import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { AssetManifest } from '../server/pages/asset-manifest';
import { bodyHash, compressBest, writeCompressed } from '../server/pages/representation';
import { ContentError } from './lib/content';
import { ENTRY_POINT, outputFor, START_POINT, startupFiles, withStaticImports } from './lib/client-chunks';
import { mergeChunks } from './lib/merge-chunks';
import { generateContent } from './lib/generate-content';
import { renderSocialImages } from './lib/social-images';
import { styledComponentIds } from './lib/styled-component-ids';

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const clientOut = path.join(dist, 'client');

const integrity = (file: string) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
const publicPath = (file: string) => `/${path.relative(clientOut, file).split(path.sep).join('/')}`.replace(/^\/assets/, '/assets');

const describe = (name: string) => ({ file: publicPath(path.join(root, name)), integrity: integrity(path.join(root, name)) });

const BROWSERS = ['es2020', 'chrome100', 'firefox100', 'safari15'];

/**
 * Asks the browser to compile every function of a file while it streams it in, on a background
 * thread, instead of on the main thread the first time each runs (Chromium reads it; other
 * browsers ignore a comment). Only for the two large files every page starts with: Chromium
 * streams only large files, and would compile a small one's functions eagerly on the main thread.
 */
const COMPILE_EVERY_FUNCTION = '//# allFunctionsCalledOnLoad';
/** The chunk of the libraries every page starts with, kept apart from the app's. */
const LIBRARIES = 'libraries';

/** The app and its pages, split into chunks; the manifest lists what every page loads. */
async function buildClient(): Promise<AssetManifest> {
  const outdir = path.join(clientOut, 'assets');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { start: START_POINT },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: BROWSERS,
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Beside each chunk: merging its chunks (below) gathers them for each merged one.
    legalComments: 'external',
    plugins: [styledComponentIds(root)],
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  // esbuild's chunks, regrouped into fewer files and written (scripts/lib/merge-chunks.ts). The
  // libraries every page starts with stay apart from the app: the entry evaluates one file at a
  // time, so the browser runs their code and the app's in two shorter tasks, not one long one.
  const start = outputFor(result.metafile, START_POINT);
  const startup = new Set(withStaticImports(result.metafile, [start]));
  const mostlyLibraries = (file: string) => {
    const inputs = Object.entries(result.metafile.outputs[file]?.inputs ?? {});
    const bytes = (list: typeof inputs) => list.reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
    return bytes(inputs.filter(([input]) => input.startsWith('node_modules/'))) * 2 > bytes(inputs);
  };
  const meta = await mergeChunks(result.outputFiles, result.metafile, {
    root,
    outdir,
    entries: [start],
    apart: (file) => (file !== start && startup.has(file) && mostlyLibraries(file) ? LIBRARIES : undefined),
    banner: (chunk) => (chunk.isEntry || chunk.name === LIBRARIES ? COMPILE_EVERY_FUNCTION : ''),
  });
  writeFileSync(path.join(dist, 'client-meta.json'), JSON.stringify(meta));
  // In the order the entry evaluates them: each after the files it imports, the app last.
  const app = withStaticImports(meta, [outputFor(meta, START_POINT)]);
  // Each route's own chunks are added once the budget check has listed them (checkJsBudgets).
  return { entry: { script: await buildEntry() }, app: app.map(describe), routes: {} };
}

/**
 * The page's one script, built on its own and returned as text for the server to inline: as a
 * file it would cost a request before the preloads could start. Its metafile is written beside
 * the app's, for the test that keeps server code out of the browser.
 */
async function buildEntry(): Promise<string> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [ENTRY_POINT],
    bundle: true,
    format: 'esm',
    minify: true,
    target: BROWSERS,
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(path.join(dist, 'entry-meta.json'), JSON.stringify(result.metafile));
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${ENTRY_POINT}`);
  return output.text.trim();
}

async function buildServer(): Promise<void> {
  await esbuild.build({
    absWorkingDir: root,
    // The ops commands are bundled too, so that they run in the container without the sources.
    entryPoints: {
      'server/index': 'server/index.ts',
      'scripts/export-csv': 'scripts/ops/export-csv.ts',
      'scripts/erase': 'scripts/ops/erase.ts',
      'scripts/report-ai': 'scripts/ops/report-ai.ts',
      'scripts/check-site': 'scripts/ops/check-site.ts',
      'scripts/probe': 'scripts/ops/probe.ts',
      'scripts/audit': 'scripts/ops/audit.ts',
      'scripts/clients': 'scripts/ops/clients.ts',
      'scripts/backup': 'scripts/ops/backup.ts',
      'scripts/restore': 'scripts/ops/restore.ts',
    },
    outdir: dist,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    jsx: 'automatic',
    // Their libraries are bundled in too, all but the native better-sqlite3, so that a start does
    // not resolve and read hundreds of package files: a quarter less CPU before the server listens.
    external: ['better-sqlite3'],
    // The same ids as the client build, or hydration would not match the server's class names.
    plugins: [styledComponentIds(root)],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // Each site check, visibility probe and audit run runs one of these in a process of its own
  // (server/background-process.ts), one process a check or a probe: their libraries are bundled
  // in, so that each starts without resolving packages or loading parse5 through Node's ES module
  // loader (a third of a check's start-up).
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      'server/site-check-process': 'server/site-check/check-process.ts',
      'server/probe-process': 'server/visibility-probe/probe-process.ts',
      'server/run-process': 'server/runs/run-process.ts',
    },
    outdir: dist,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/**
 * The build fails when a page passes its JavaScript budget (limits in
 * scripts/lib/js-budgets.ts); JS_BUDGETS=warn only prints the overrun, for measuring experiments.
 * Prints each chunk's gzip size and each route kind's first-visit total. Returns whether every
 * budget holds, and for each route the chunks a first visit needs beyond the app's (its page
 * chunks and their imports), which the manifest offers to the server for modulepreload links.
 */
async function checkJsBudgets(metafile: string): Promise<{ withinBudget: boolean; routeChunks: AssetManifest['routes'] }> {
  // Imported here, not at the top: it loads the route table, which reads shared/generated/.
  const { budgetFailures, firstVisitJs, formatJsReport } = await import('./lib/js-budgets');
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as esbuild.Metafile;
  const routes = firstVisitJs(root, meta);
  for (const line of formatJsReport(root, meta, routes)) console.log(line);
  const failures = budgetFailures(routes);
  for (const failure of failures) console.error(`JS budget: ${failure}`);
  const everyPage = new Set(startupFiles(meta));
  const routeChunks = Object.fromEntries(routes.map((route) => [route.path, route.files.filter((file) => !everyPage.has(file)).map(describe)]));
  return { withinBudget: failures.length === 0, routeChunks };
}

/**
 * The client's files compressed at the best quality, once, here: the server reads them at each
 * start instead of spending seconds compressing them again (server/pages/asset-files.ts). Each is
 * named by the SHA-256 of the file it holds (compressed/HASH.br and .gz), so that the server
 * trusts a name, not a decompression of every file at every start; each is written whole, under
 * another name first (writeCompressed), so that an interrupted build leaves no half file under it.
 */
function compressAssets(): void {
  const assets = path.join(clientOut, 'assets');
  const out = path.join(clientOut, 'compressed');
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(assets)) {
    const identity = readFileSync(path.join(assets, name));
    writeCompressed(out, bodyHash(identity), compressBest(identity));
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const content = generateContent(root);
  console.log(`content: ${content.articles.length} articles, ${content.legal.length} legal pages checked`);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(clientOut, { recursive: true });
  const manifest = await buildClient();
  cpSync(path.join(root, 'client', 'public'), path.join(clientOut, 'public'), { recursive: true });
  // The articles' social cards are drawn while esbuild bundles the server: sharp works on its own threads.
  const socialStarted = Date.now();
  const social = renderSocialImages(
    content.articles.map(({ summary }) => ({ slug: summary.slug, title: summary.title, category: summary.category })),
    { name: content.site.brand, tagline: content.site.tagline, markSvg: readFileSync(path.join(root, 'client', 'public', 'favicon.svg'), 'utf8') },
    path.join(clientOut, 'social'),
    // Outside dist/, which every build empties: a card whose inputs did not change is not drawn again.
    path.join(root, 'node_modules', '.cache', 'social-images'),
  ).then((counts) => ({ ...counts, ms: Date.now() - socialStarted }));
  await buildServer();
  const cards = await social;
  console.log(`social images: ${cards.drawn} drawn, ${cards.reused} unchanged, in ${cards.ms} ms`);
  const { withinBudget, routeChunks } = await checkJsBudgets(path.join(dist, 'client-meta.json'));
  writeFileSync(path.join(clientOut, 'manifest.json'), JSON.stringify({ ...manifest, routes: routeChunks } satisfies AssetManifest, null, 2));
  compressAssets();
  if (!withinBudget && process.env.JS_BUDGETS !== 'warn') {
    console.error('build: failed, a page loads more JavaScript than its budget (limits in scripts/lib/js-budgets.ts)');
    process.exit(1);
  }
  // Written last: scripts/start.mjs takes it as the sign of a complete, successful build.
  writeFileSync(path.join(dist, 'build-info.json'), JSON.stringify({ builtAt: new Date().toISOString() }));
  console.log(`build: done in ${Date.now() - started} ms`);
}

main().catch((error: unknown) => {
  if (error instanceof ContentError) console.error(`Content error in ${error.message}`);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
