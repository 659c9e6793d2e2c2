import { readFileSync } from 'node:fs';
import path from 'node:path';
import { firstVisitJs, chunkSizes } from '../scripts/lib/js-budgets';
const root = path.resolve(__dirname, '..');
const meta = JSON.parse(readFileSync(path.join(root, 'dist/client-meta.json'), 'utf8'));
const sizes = new Map(chunkSizes(root, meta).map((c) => [c.file, c.gzip]));
for (const r of firstVisitJs(root, meta)) {
  if (!['/', '/blog/complete-llm-seo-guide', '/free-audit'].includes(r.path)) continue;
  console.log(r.path, (r.gzip / 1024).toFixed(1));
  for (const f of r.files) {
    const ins = Object.entries(meta.outputs[f].inputs as Record<string, { bytesInOutput: number }>).filter(([, v]) => v.bytesInOutput > 0).map(([k]) => k.replace(/.*node_modules\//, '~').split('/').slice(-2).join('/'));
    console.log('  ', ((sizes.get(f) ?? 0) / 1024).toFixed(1), f.slice(19), ins.slice(0, 6).join(', '));
  }
}
