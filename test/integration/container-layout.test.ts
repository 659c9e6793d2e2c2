import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, TEST_PAGE_CACHE } from '../helpers/locations';

jest.setTimeout(60_000);

/**
 * No Docker engine runs here, so this repeats the Dockerfile's runtime stage by hand: only
 * dist/, package.json and scripts/start.mjs with the module it imports, no sources, HOST=0.0.0.0 and a data folder, then the
 * image's CMD. It must start without building, answer /healthz and stop cleanly on SIGTERM.
 */
describe('the Docker runtime layout', () => {
  it('starts from dist/ alone, serves, and exits 0 on SIGTERM', async () => {
    const app = mkdtempSync(path.join(tmpdir(), 'citewise-image-'));
    try {
      cpSync(path.join(ROOT, 'dist'), path.join(app, 'dist'), { recursive: true });
      cpSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
      cpSync(path.join(ROOT, 'scripts', 'start.mjs'), path.join(app, 'scripts', 'start.mjs'));
      cpSync(path.join(ROOT, 'scripts', 'lib', 'build-freshness.mjs'), path.join(app, 'scripts', 'lib', 'build-freshness.mjs'));
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'));

      const child = spawn(process.execPath, ['scripts/start.mjs'], {
        cwd: app,
        // The image's environment. Its page cache is in its data volume, which a restart finds
        // warm: here the run's own, warm from the servers before.
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '0', DATABASE_PATH: path.join(app, 'data', 'site.db'), PAGE_CACHE_DIR: TEST_PAGE_CACHE },
      });
      let output = '';
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(output)), 30_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /"url":"http:\/\/\[?[^"\]]*\]?:(\d+)"/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(`http://127.0.0.1:${match[1]}`);
          }
        });
        child.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
      });
      expect(output).not.toContain('Building the site first');
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});
