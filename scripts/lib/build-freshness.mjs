// Whether dist/ is a complete build of the sources as they are now. `npm start` and the test
// suite's global setup both ask, so that neither runs code older than the files beside it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the build reads; shared/generated/ is what it writes, so it does not count. */
const SOURCES = ['client', 'server', 'shared', 'content', 'scripts', 'package.json'];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  if (path.basename(target) === 'generated') return 0;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stats.mtimeMs);
}

/**
 * null when dist/ is current; otherwise why it is not. dist/build-info.json is written last by a
 * successful build, so its time is when the build finished.
 */
export function staleBuildReason(root) {
  const stamp = path.join(root, 'dist', 'build-info.json');
  if (!existsSync(path.join(root, 'dist', 'server', 'index.js')) || !existsSync(stamp)) return 'dist/ is missing or incomplete';
  if (!existsSync(path.join(root, 'server', 'index.ts'))) return null; // an image without sources
  const built = statSync(stamp).mtimeMs;
  const changed = SOURCES.find((name) => newestMtime(path.join(root, name)) > built);
  return changed ? `${changed} changed since the last build` : null;
}
