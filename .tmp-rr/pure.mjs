import * as esbuild from 'esbuild';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
const combos = process.argv.slice(2);
const plugin = { name: 'pure', setup(b) { b.onLoad({ filter: /react-router\/dist\/.*\.mjs$/ }, async (a) => {
  let t = await readFile(a.path, 'utf8');
  t = t.replace(/(=\s*)(React\d*\.(createContext|forwardRef|memo)\()/g, '$1/* @__PURE__ */ $2');
  return { contents: t, loader: 'js' };
}) } };
for (const combo of combos) for (const usePlugin of [false, true]) {
  const r = await esbuild.build({ stdin: { contents: `import {${combo}} from 'react-router'; window.x=[${combo}];`, resolveDir: process.cwd(), loader: 'tsx' },
    bundle: true, minify: true, format: 'esm', write: false, external: ['react', 'react-dom'], define: { 'process.env.NODE_ENV': '"production"' }, plugins: usePlugin ? [plugin] : [] });
  console.log(combo, usePlugin, gzipSync(r.outputFiles[0].contents, { level: 9 }).length);
}
