#!/usr/bin/env node
// `npm start`: builds first when dist/ is missing or older than the sources (a fresh clone, or an
// edit since the last build), then runs the server in this process, so signals reach it directly.
// In the Docker image the sources are absent and dist/ is current, so it only starts.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(root, 'dist', 'server', 'index.js');
const stamp = path.join(root, 'dist', 'build-info.json');
const sources = ['client', 'server', 'shared', 'content', 'scripts', 'package.json'].map((name) => path.join(root, name));

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  if (path.basename(target) === 'generated') return 0;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stats.mtimeMs);
}

const hasSources = existsSync(path.join(root, 'server', 'index.ts'));
const stale = !existsSync(serverEntry) || !existsSync(stamp) || (hasSources && Math.max(...sources.map(newestMtime)) > statSync(stamp).mtimeMs);
if (stale) {
  if (!hasSources) {
    console.error('dist/ is missing and there are no sources to build it from');
    process.exit(1);
  }
  console.log('Building the site first (sources changed since the last build)...');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
await import(pathToFileURL(serverEntry).href);
