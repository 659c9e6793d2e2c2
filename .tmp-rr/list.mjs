import * as esbuild from 'esbuild';
import { readFile } from 'node:fs/promises';
const combo = process.argv[2];
const plugin = { name: 'pure', setup(b) { b.onLoad({ filter: /react-router\/dist\/.*\.mjs$/ }, async (a) => {
  let t = await readFile(a.path, 'utf8');
  t = t.replace(/(=\s*)(React\d*\.(createContext|forwardRef|memo)\()/g, '$1/* @__PURE__ */ $2');
  return { contents: t, loader: 'js' };
}) } };
const r = await esbuild.build({ stdin: { contents: `import {${combo}} from 'react-router'; window.x=[${combo}];`, resolveDir: process.cwd(), loader: 'tsx' },
    bundle: true, format: 'esm', write: false, external: ['react', 'react-dom'], define: { 'process.env.NODE_ENV': '"production"' }, plugins: [plugin] });
const text = r.outputFiles[0].text;
const re = /^(?:var|function|class|const|let) ([A-Za-z0-9_$]+)/gm; let m; const names=[];
while ((m = re.exec(text))) names.push(m[1]);
console.log(text.length, names.join(' '));
