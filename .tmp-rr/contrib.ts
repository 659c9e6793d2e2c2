import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { firstVisitJs } from '../scripts/lib/js-budgets';
const root = path.resolve(__dirname, '..');
const meta = JSON.parse(readFileSync(path.join(root, 'dist/client-meta.json'), 'utf8'));
const want = process.argv[2] ?? '/';
const r = firstVisitJs(root, meta).find((x) => x.path === want)!;
const rows: [string, number][] = [];
for (const f of r.files) {
  const gz = gzipSync(readFileSync(path.join(root, f)), { level: 9 }).length;
  const ins = Object.entries(meta.outputs[f].inputs as Record<string, { bytesInOutput: number }>);
  const total = ins.reduce((s, [, v]) => s + v.bytesInOutput, 0) || 1;
  for (const [k, v] of ins) rows.push([k.replace(/.*node_modules\//, '~'), (gz * v.bytesInOutput) / total]);
  rows.push([`(overhead ${f.slice(19)})`, gz - (gz * ins.reduce((s, [, v]) => s + v.bytesInOutput, 0)) / total]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [k, v] of rows) if (v > 150) console.log((v / 1024).toFixed(2).padStart(6), k);
console.log('app code total', (rows.filter(([k]) => !k.startsWith('~')).reduce((s, [, v]) => s + v, 0) / 1024).toFixed(1));
