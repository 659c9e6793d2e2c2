import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import type { AssetManifest } from '../server/render/assets';
import { ContentError } from './lib/content';
import { generateContent } from './lib/generate-content';

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const clientOut = path.join(dist, 'client');

const integrity = (file: string) => `sha384-${createHash('sha384').update(readFileSync(file)).digest('base64')}`;
const publicPath = (file: string) => `/${path.relative(clientOut, file).split(path.sep).join('/')}`.replace(/^\/assets/, '/assets');

async function buildClient(): Promise<AssetManifest> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { entry: 'client/entry.client.tsx' },
    outdir: path.join(clientOut, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  writeFileSync(path.join(dist, 'client-meta.json'), JSON.stringify(result.metafile));
  const outputs = result.metafile.outputs;
  const entryName = Object.keys(outputs).find((name) => outputs[name]?.entryPoint === 'client/entry.client.tsx');
  if (!entryName) throw new Error('esbuild produced no entry chunk');
  // The entry's static imports, transitively: preloaded so the browser fetches them in parallel.
  const staticImports = new Set<string>();
  const visit = (name: string) => {
    for (const imported of outputs[name]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !staticImports.has(imported.path)) {
        staticImports.add(imported.path);
        visit(imported.path);
      }
    }
  };
  visit(entryName);
  const describe = (name: string) => ({ file: publicPath(path.join(root, name)), integrity: integrity(path.join(root, name)) });
  return { entry: { ...describe(entryName), imports: [...staticImports].map(describe) } };
}

async function buildServer(): Promise<void> {
  await esbuild.build({
    absWorkingDir: root,
    // The ops commands are bundled too, so that they run in the container without the sources.
    entryPoints: { 'server/index': 'server/index.ts', 'scripts/export-csv': 'scripts/ops/export-csv.ts', 'scripts/erase': 'scripts/ops/erase.ts' },
    outdir: dist,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    jsx: 'automatic',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

function reportSizes(metafile: string): void {
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as esbuild.Metafile;
  const rows = Object.keys(meta.outputs)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name: path.basename(name), gzip: gzipSync(readFileSync(path.join(root, name))).length }))
    .sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => sum + row.gzip, 0);
  console.log(`client: ${rows.length} chunks, ${(total / 1024).toFixed(1)} KB gzip in all; largest:`);
  for (const row of rows.slice(0, 5)) console.log(`  ${row.name.padEnd(48)} ${(row.gzip / 1024).toFixed(1)} KB`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const content = generateContent(root);
  console.log(`content: ${content.articles.length} articles, ${content.legal.length} legal pages checked`);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(clientOut, { recursive: true });
  const manifest = await buildClient();
  writeFileSync(path.join(clientOut, 'manifest.json'), JSON.stringify(manifest, null, 2));
  cpSync(path.join(root, 'client', 'public'), path.join(clientOut, 'public'), { recursive: true });
  await buildServer();
  reportSizes(path.join(dist, 'client-meta.json'));
  writeFileSync(path.join(dist, 'build-info.json'), JSON.stringify({ builtAt: new Date().toISOString() }));
  console.log(`build: done in ${Date.now() - started} ms`);
}

main().catch((error: unknown) => {
  if (error instanceof ContentError) console.error(`Content error in ${error.message}`);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
