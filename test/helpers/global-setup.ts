import { existsSync } from 'node:fs';
import path from 'node:path';

/** Tests read the built client (manifest, hashed assets) and start the built server. */
export default function globalSetup(): void {
  const root = path.resolve(__dirname, '..', '..');
  if (!existsSync(path.join(root, 'dist', 'client', 'manifest.json')) || !existsSync(path.join(root, 'dist', 'server', 'index.js'))) {
    throw new Error('dist/ is missing: run "npm run build" before jest (npm test does)');
  }
}
