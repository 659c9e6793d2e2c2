import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * Every page the server sends is valid HTML by the W3C Nu checker (vnu-jar, the checker behind
 * validator.w3.org/nu), errors only. One Java run checks all pages: the JVM's start-up is most
 * of the cost.
 */

const VNU_JAR = require.resolve('vnu-jar/build/dist/vnu.jar');

interface VnuMessage {
  type: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

function runVnu(files: string[]): Promise<VnuMessage[]> {
  return new Promise((resolve, reject) => {
    // It exits 1 when it finds errors; the report (JSON, on stderr) says which.
    execFile('java', ['-jar', VNU_JAR, '--errors-only', '--format', 'json', ...files], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      try {
        resolve((JSON.parse(stderr) as { messages: VnuMessage[] }).messages);
      } catch {
        reject(error ?? new Error(`vnu wrote no JSON report: ${stderr}`));
      }
    });
  });
}

let testApp: TestApp;
let dir: string;

beforeAll(() => {
  testApp = createTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'citewise-html-'));
});
afterAll(() => {
  testApp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const paths = [...appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path), '/no-such-page'];

it('serves only valid HTML on every route (W3C Nu checker, errors)', async () => {
  const files = new Map<string, string>();
  for (const pagePath of paths) {
    const response = await request(testApp.app).get(pagePath);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const file = path.join(dir, `${pagePath === '/' ? 'home' : pagePath.slice(1).replace(/\//g, '__')}.html`);
    writeFileSync(file, response.text);
    files.set(`file:${file}`, pagePath);
  }

  const messages = await runVnu([...files.keys()]);
  const errors = messages
    // 'non-document-error': a file the checker could not read counts as a failure too.
    .filter((message) => message.type === 'error' || message.type === 'non-document-error')
    .map((message) => ({
      page: files.get(message.url ?? '') ?? message.url,
      line: message.lastLine,
      message: message.message,
      extract: message.extract?.trim(),
    }));
  expect(errors).toEqual([]);
}, 120_000);
