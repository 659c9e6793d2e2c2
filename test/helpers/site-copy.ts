import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './locations';

/** What a build reads: the sources, the content and the project's settings. */
const SOURCES = ['client', 'server', 'shared', 'scripts', 'content', 'package.json', 'tsconfig.json'];

export interface SiteCopy {
  root: string;
  remove(): void;
}

/**
 * A copy of the site built from edited content, for behaviour that the repository's own content
 * does not show (a statistic with a published source, before the agency has one). The copy
 * shares the repository's node_modules; `edit` receives the copy's content folder.
 */
export async function buildSiteCopy(edit: (contentDir: string) => void): Promise<SiteCopy> {
  const root = mkdtempSync(path.join(tmpdir(), 'citewise-site-'));
  for (const entry of SOURCES) cpSync(path.join(ROOT, entry), path.join(root, entry), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  edit(path.join(root, 'content'));
  await promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/build.ts'], { cwd: root });
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
