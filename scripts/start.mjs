#!/usr/bin/env node
// `npm start`: builds first when dist/ is missing or older than the sources (a fresh clone, or an
// edit since the last build), then runs the server in this process, so signals reach it directly.
// In the Docker image the sources are absent and dist/ is current, so it only starts.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleBuildReason } from './lib/build-freshness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(root, 'dist', 'server', 'index.js');

const stale = staleBuildReason(root);
if (stale) {
  if (!existsSync(path.join(root, 'server', 'index.ts'))) {
    console.error('dist/ is missing and there are no sources to build it from');
    process.exit(1);
  }
  console.log(`Building the site first (${stale})...`);
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
await import(pathToFileURL(serverEntry).href);
