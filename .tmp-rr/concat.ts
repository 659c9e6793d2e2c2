import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { firstVisitJs } from '../scripts/lib/js-budgets';
const root = path.resolve(__dirname, '..');
const meta = JSON.parse(readFileSync(path.join(root, 'dist/client-meta.json'), 'utf8'));
for (const r of firstVisitJs(root, meta).filter((x) => ['/', '/blog/prompt-engineering-for-business'].includes(x.path))) {
  const all = Buffer.concat(r.files.map((f) => readFileSync(path.join(root, f))));
  console.log(r.path, r.files.length, 'files', (r.gzip / 1024).toFixed(1), 'concat', (gzipSync(all, { level: 9 }).length / 1024).toFixed(1));
}
