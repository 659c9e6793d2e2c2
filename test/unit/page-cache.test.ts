import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type * as RepresentationModule from '../../server/pages/representation';

/*
 * PAGE_CACHE_DIR: a page compressed by one process is read back by the next instead of being
 * compressed again, and only when the file holds that very page.
 */

const meta = { status: 200, contentType: 'text/html; charset=utf-8', cacheControl: 'public, no-cache', headers: {} };
const page = Buffer.from(`<!doctype html><title>Cached</title>${'<p>Plumbers in Leeds, boilers and gas safety.</p>'.repeat(200)}`);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'citewise-page-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh copy of the module, as a new process has: nothing compressed in memory yet. */
function freshProcess(): typeof RepresentationModule {
  let module: typeof RepresentationModule | undefined;
  jest.isolateModules(() => {
    module = jest.requireActual<typeof RepresentationModule>('../../server/pages/representation');
  });
  if (!module) throw new Error('not loaded');
  module.usePageCache(dir);
  return module;
}
const bodyOf = (module: typeof RepresentationModule, encoding: 'br' | 'gzip') => module.precompress(page, meta).variants[encoding]?.body;

it('keeps each compressed page in a file of its own, readable by its owner only', () => {
  const first = freshProcess();
  const br = bodyOf(first, 'br');
  const files = readdirSync(dir).sort();
  expect(files).toHaveLength(2);
  expect(files.map((file) => path.extname(file))).toEqual(['.br', '.gz']);
  for (const file of files) expect(statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
  expect(br?.equals(brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: page.length } }))).toBe(true);
});

it('the next process serves what the cache holds for that page, without compressing it again', () => {
  freshProcess().precompress(page, meta);
  // Other bytes of the same page (a lower quality): only a read of the cache can give them back.
  const brFile = readdirSync(dir).find((file) => file.endsWith('.br')) ?? '';
  const other = brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  writeFileSync(path.join(dir, brFile), other);
  expect(bodyOf(freshProcess(), 'br')?.equals(other)).toBe(true);
});

it('a cached file that is not that page (changed, half-written) is not served, and is written again', () => {
  freshProcess().precompress(page, meta);
  const gzFile = readdirSync(dir).find((file) => file.endsWith('.gz')) ?? '';
  const wrong = gzipSync(Buffer.from('<script>alert(1)</script>'));
  writeFileSync(path.join(dir, gzFile), wrong);
  const served = bodyOf(freshProcess(), 'gzip');
  expect(served?.equals(wrong)).toBe(false);
  expect(served?.equals(gzipSync(page, { level: 9 }))).toBe(true);
  // Written again: the next process reads the right bytes.
  expect(bodyOf(freshProcess(), 'gzip')?.equals(served ?? Buffer.alloc(0))).toBe(true);
});

it('a cache that cannot be written only costs time', () => {
  const module = freshProcess();
  rmSync(dir, { recursive: true, force: true });
  writeFileSync(dir, 'not a folder');
  expect(module.precompress(page, meta).variants.br?.body.length).toBeGreaterThan(0);
  rmSync(dir, { force: true });
});
