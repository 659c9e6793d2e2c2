import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { outputFor, START_POINT, startupFiles, withStaticImports } from './client-chunks';
import { appRoutes } from '../../client/routes';
import { routesPaths } from '../../shared/site';

/**
 * The JavaScript a first visit to each route loads, from the client build's metafile: the app, the
 * route's page chunks (the modules its entry in client/routes.tsx declares) and every chunk those
 * import statically. The build prints it and checks the JavaScript budgets; the code-splitting
 * test reuses it. Importing this module loads the route table, so the build imports it only after
 * it has generated shared/generated/.
 */

/** Sizes are in KB of 1024 bytes. */
export const KB = 1024;

export type RouteKind = 'home' | 'article' | 'free-audit' | 'other';

/** All the JavaScript of a first visit, gzip, by route kind. Routes of other kinds have no budget. */
export const JS_BUDGETS: Partial<Record<RouteKind, number>> = { home: 115 * KB, article: 125 * KB };

export interface RoutePageModules {
  path: string;
  kind: RouteKind;
  /** Source files the route's load() imports dynamically, as metafile entry points. */
  modules: string[];
}

export interface RouteJs extends RoutePageModules {
  /** Output files (dist/client/assets/...) a first visit loads, each after the files it imports. */
  files: string[];
  gzip: number;
}

export interface ChunkSize {
  file: string;
  /** The source file the chunk was built for, when it is an entry point (the app or a page chunk). */
  entryPoint?: string;
  bytes: number;
  gzip: number;
}

const ARTICLE_PAGE = 'client/pages/article-page.tsx';
const HOME_PAGE = 'client/pages/home-page.tsx';

function kindOf(routePath: string, modules: string[]): RouteKind {
  if (modules.includes(HOME_PAGE)) return 'home';
  if (modules.includes(ARTICLE_PAGE)) return 'article';
  if (routePath === routesPaths.freeAudit) return 'free-audit';
  return 'other';
}

/** Which modules a first visit to each route of the route table loads, as the routes declare them. */
export function routePageModules(): RoutePageModules[] {
  return appRoutes.map((route) => ({ path: route.path, kind: kindOf(route.path, route.modules), modules: route.modules }));
}

export function gzipSize(root: string, file: string): number {
  return gzipSync(readFileSync(path.join(root, file)), { level: 9 }).length;
}

/** Every JavaScript output of the client build with its size, largest first. */
export function chunkSizes(root: string, meta: Metafile): ChunkSize[] {
  return Object.entries(meta.outputs)
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, output]) => ({
      file,
      ...(output.entryPoint ? { entryPoint: output.entryPoint } : {}),
      bytes: output.bytes,
      gzip: gzipSize(root, file),
    }))
    .sort((a, b) => b.gzip - a.gzip);
}

/** The JavaScript a first visit to each route loads, with its gzip total. */
export function firstVisitJs(root: string, meta: Metafile, routes: RoutePageModules[] = routePageModules()): RouteJs[] {
  // Every module the route table imports on demand must belong to some route, or a route was missed.
  const mapped = new Set(routes.flatMap((route) => route.modules));
  const loaded = (meta.inputs['client/routes.tsx']?.imports ?? []).filter((imported) => imported.kind === 'dynamic-import');
  const missed = loaded.map((imported) => imported.path).filter((module) => !mapped.has(module));
  if (missed.length > 0) throw new Error(`JS budget: client/routes.tsx loads ${missed.join(', ')}, which no route declares in its modules`);
  const sizes = new Map(chunkSizes(root, meta).map((chunk) => [chunk.file, chunk.gzip]));
  const startup = startupFiles(meta);
  return routes.map((route) => {
    const files = withStaticImports(meta, [...startup, ...route.modules.map((module) => outputFor(meta, module))]);
    const gzip = files.reduce((sum, file) => sum + (sizes.get(file) ?? gzipSize(root, file)), 0);
    return { ...route, files, gzip };
  });
}

/** One message per route kind over its budget, naming its largest route; empty when all hold. */
export function budgetFailures(routes: RouteJs[]): string[] {
  const kinds = [...new Set(routes.map((route) => route.kind))];
  return kinds.flatMap((kind) => {
    const budget = JS_BUDGETS[kind];
    if (budget === undefined) return [];
    const over = routes.filter((route) => route.kind === kind && route.gzip > budget).sort((a, b) => b.gzip - a.gzip);
    const [largest] = over;
    if (!largest) return [];
    const others = over.length > 1 ? ` (and ${over.length - 1} more ${kind} route${over.length > 2 ? 's' : ''}: ${over.slice(1).map((route) => route.path).join(', ')})` : '';
    return [`${largest.path} loads ${kb(largest.gzip)} of JavaScript gzip on a first visit, over the ${kind} budget of ${kb(budget)} by ${kb(largest.gzip - budget)}${others}`];
  });
}

export const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** The build's report: each chunk's gzip size, then each route kind's first-visit total. */
export function formatJsReport(root: string, meta: Metafile, routes: RouteJs[]): string[] {
  const lines = ['client JavaScript, gzip (KB of 1024 bytes):'];
  for (const chunk of chunkSizes(root, meta)) {
    const label = chunk.entryPoint === START_POINT ? 'app' : (chunk.entryPoint ?? 'shared chunk');
    lines.push(`  ${path.basename(chunk.file).padEnd(52)} ${kb(chunk.gzip).padStart(9)}  ${label}`);
  }
  lines.push('first visit, all JavaScript loaded (gzip):');
  const kinds: RouteKind[] = ['home', 'article', 'free-audit', 'other'];
  for (const kind of kinds) {
    const ofKind = routes.filter((route) => route.kind === kind).sort((a, b) => b.gzip - a.gzip);
    const largest = ofKind[0];
    if (!largest) continue;
    const budget = JS_BUDGETS[kind];
    const which = ofKind.length > 1 ? `${largest.path} (largest of ${ofKind.length})` : largest.path;
    const verdict = budget === undefined ? '' : largest.gzip <= budget ? `  within ${kb(budget)}` : `  OVER ${kb(budget)}`;
    lines.push(`  ${kind.padEnd(11)} ${which.padEnd(52)} ${kb(largest.gzip).padStart(9)}${verdict}`);
  }
  return lines;
}
