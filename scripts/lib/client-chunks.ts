import type { Metafile } from 'esbuild';

/**
 * The client build's module graph as esbuild's metafile describes it. Kept apart from
 * js-budgets.ts, which loads the route table and so needs shared/generated/ written first.
 */

/** The page's one script, built on its own and inlined: it starts the app once the page has been painted. */
export const ENTRY_POINT = 'client/entry.client.ts';
/** The app: hydration, the router, the shell; the client bundle's entry point. */
export const START_POINT = 'client/start.client.tsx';

/** The output file built for a source entry point (the app, or a dynamically imported page). */
export function outputFor(meta: Metafile, entryPoint: string): string {
  const file = Object.keys(meta.outputs).find((name) => meta.outputs[name]?.entryPoint === entryPoint);
  if (!file) throw new Error(`The client build has no chunk for ${entryPoint}`);
  return file;
}

/**
 * The files and their static imports, transitively: what the browser loads before it can run them.
 * Each comes after everything it imports: an order in which the browser can evaluate them one at
 * a time.
 */
export function withStaticImports(meta: Metafile, files: string[]): string[] {
  const seen = new Set<string>();
  const ordered: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of meta.outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement') visit(imported.path);
    }
    ordered.push(file);
  };
  files.forEach(visit);
  return ordered;
}

/** What every first visit loads: the app and its static imports. */
export function startupFiles(meta: Metafile): string[] {
  return withStaticImports(meta, [outputFor(meta, START_POINT)]);
}
