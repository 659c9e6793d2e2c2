import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { staleBuildReason } from '../../scripts/lib/build-freshness.mjs';

let root: string;
/** Writes a file with the given time; its folders take that time too, as if they held it all along. */
const file = (name: string, at: number) => {
  const target = path.join(root, name);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, '');
  for (let entry = target; entry !== root; entry = path.dirname(entry)) utimesSync(entry, at, at);
};

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'citewise-freshness-'));
  file('server/index.ts', 1000);
  file('client/app.tsx', 1000);
  file('shared/generated/site.ts', 1000);
  file('dist/server/index.js', 2000);
  file('dist/build-info.json', 2000);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('whether dist/ is a build of the current sources', () => {
  it('is current when every source is older than the finished build', () => {
    expect(staleBuildReason(root)).toBeNull();
  });

  it('is stale when a source changed after the build, naming where', () => {
    file('client/pages/home-page.tsx', 3000);
    expect(staleBuildReason(root)).toBe('client changed since the last build');
  });

  it('ignores what the build itself writes (shared/generated)', () => {
    writeFileSync(path.join(root, 'shared', 'generated', 'site.ts'), 'rewritten');
    expect(staleBuildReason(root)).toBeNull();
  });

  it('is stale when a build never finished (no build-info.json)', () => {
    rmSync(path.join(root, 'dist', 'build-info.json'));
    expect(staleBuildReason(root)).toBe('dist/ is missing or incomplete');
  });

  it('is current in an image that has dist/ and no sources', () => {
    rmSync(path.join(root, 'server'), { recursive: true });
    file('content/site.yaml', 3000);
    expect(staleBuildReason(root)).toBeNull();
  });
});
