import path from 'node:path';
import type { Metafile, OutputFile } from 'esbuild';
import { rollup, type OutputChunk, type Plugin } from 'rollup';

/**
 * esbuild's code splitting puts each module in a chunk by the set of entry points that reach it,
 * and does not know that the pages and islands are only ever imported once the app has run: each
 * module that the app and some pages share becomes a chunk of its own. A first visit fetched 17 to
 * 23 files, most under 2 KB, and on a slow phone every request costs a round trip (browsers open
 * six connections to a server that speaks HTTP/1.1).
 *
 * Rollup knows what a dynamic import's importer has loaded already. Run over esbuild's chunks,
 * each one a module to it, it merges what the app loads anyway into the app's chunk and leaves the
 * rest to the pages that import it. esbuild still compiles (TypeScript, JSX, minification, the
 * styled-components ids); Rollup only regroups its output, tree shaking off (esbuild has done it),
 * so that no code changes. The same approach as the Angular CLI's chunk optimizer.
 */

export interface MergeOptions {
  /** The repository root: esbuild's metafile names files relative to it. */
  root: string;
  /** Where esbuild would have written its chunks, and where the merged ones go. */
  outdir: string;
  /** esbuild's output files for its entry points (the app), as the metafile names them. */
  entries: string[];
  /**
   * esbuild chunks to keep together in a chunk of this name instead of merging them into the
   * app's (by the metafile's name of the chunk).
   */
  apart: (file: string) => string | undefined;
  /** Put at the top of a chunk (its name is the `apart` group's, or its entry point's file name). */
  banner: (chunk: { name: string; isEntry: boolean }) => string;
}

/** An esbuild chunk name without its hash (start-ULWA43OX -> start). */
const withoutHash = (name: string) => name.replace(/-[A-Z0-9]{8}$/, '');

/**
 * Writes the merged chunks (with one .LEGAL.txt each for the licence comments of what they hold)
 * and returns their metafile in esbuild's shape: each merged chunk's inputs are those of the
 * esbuild chunks it holds, and a chunk whose facade is an esbuild entry point keeps its entryPoint.
 * The build's budgets, its manifest and the tests read it like esbuild's own.
 */
export async function mergeChunks(files: OutputFile[], meta: Metafile, options: MergeOptions): Promise<Metafile> {
  const relative = (file: string) => path.relative(options.root, file).split(path.sep).join('/');
  const sources = new Map(files.map((file) => [relative(file.path), file.text]));
  const outdir = relative(options.outdir);

  const esbuildOutput: Plugin = {
    name: 'esbuild-output',
    resolveId(source, importer) {
      const id = importer && source.startsWith('.') ? path.posix.join(path.posix.dirname(importer), source) : source;
      if (!sources.has(id)) throw new Error(`The client build has no chunk ${id} (imported by ${importer ?? 'nothing'})`);
      return id;
    },
    load(id) {
      return sources.get(id) ?? null;
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const legal = Object.keys(chunk.modules)
          .map((id) => sources.get(`${id}.LEGAL.txt`)?.trim())
          .filter(Boolean);
        if (legal.length === 0) continue;
        const fileName = `${chunk.fileName}.LEGAL.txt`;
        this.emitFile({ type: 'asset', fileName, source: `${legal.join('\n\n')}\n` });
        chunk.code += `\n/*! For license information please see ${path.posix.basename(fileName)} */\n`;
      }
    },
  };

  const bundle = await rollup({
    input: Object.fromEntries(options.entries.map((entry) => [withoutHash(path.posix.basename(entry, '.js')), entry])),
    plugins: [esbuildOutput],
    treeshake: false,
    preserveEntrySignatures: false,
    onwarn(warning) {
      throw new Error(`Merging the client chunks: ${warning.message}`);
    },
  });
  const name = (chunk: { name: string; isEntry: boolean; isDynamicEntry: boolean; facadeModuleId: string | null }) =>
    `${chunk.facadeModuleId && (chunk.isEntry || chunk.isDynamicEntry) ? withoutHash(path.posix.basename(chunk.facadeModuleId, '.js')) : withoutHash(chunk.name)}-[hash].js`;
  const { output } = await bundle.write({
    dir: options.outdir,
    format: 'es',
    compact: true,
    manualChunks: (id) => options.apart(id),
    banner: (chunk) => options.banner(chunk),
    entryFileNames: name,
    chunkFileNames: name,
    hashCharacters: 'base36',
  });
  await bundle.close();

  const outputs: Metafile['outputs'] = {};
  for (const chunk of output.filter((item): item is OutputChunk => item.type === 'chunk')) {
    const entryPoint = chunk.facadeModuleId ? meta.outputs[chunk.facadeModuleId]?.entryPoint : undefined;
    outputs[`${outdir}/${chunk.fileName}`] = {
      bytes: Buffer.byteLength(chunk.code),
      inputs: Object.assign({}, ...Object.keys(chunk.modules).map((id) => meta.outputs[id]?.inputs ?? {})),
      imports: [
        ...chunk.imports.map((file) => ({ path: `${outdir}/${file}`, kind: 'import-statement' as const })),
        ...chunk.dynamicImports.map((file) => ({ path: `${outdir}/${file}`, kind: 'dynamic-import' as const })),
      ],
      exports: chunk.exports,
      ...(entryPoint ? { entryPoint } : {}),
    };
  }
  return { inputs: meta.inputs, outputs };
}
