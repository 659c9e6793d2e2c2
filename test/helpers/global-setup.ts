import { execSync } from 'node:child_process';
import path from 'node:path';
import { staleBuildReason } from '../../scripts/lib/build-freshness.mjs';

/**
 * Several suites read the built client or start the built server, so a run on an old build would
 * quietly test old code: `npx jest <file>` after an edit rebuilds first.
 */
export default function globalSetup(): void {
  const root = path.resolve(__dirname, '..', '..');
  const stale = staleBuildReason(root);
  if (!stale) return;
  process.stdout.write(`\nRebuilding before the tests: ${stale} (npm run build)\n`);
  execSync('npm run build', { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
