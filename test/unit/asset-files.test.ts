import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { assetFiles } from '../../server/pages/asset-files';
import { bodyHash } from '../../server/pages/representation';

/*
 * The client's files are sent compressed from the copies the build made, found by the SHA-256 of
 * the file they hold: a file changed since the build is compressed at start, never sent as the
 * build's copy of what it was.
 */

const script = Buffer.from(`export const plumbers = ${JSON.stringify('Plumbers in Leeds, boilers and gas safety. '.repeat(300))};\n`);

let client: string;
beforeEach(() => {
  client = mkdtempSync(path.join(tmpdir(), 'citewise-assets-'));
  mkdirSync(path.join(client, 'assets'));
  mkdirSync(path.join(client, 'compressed'));
});
afterEach(() => rmSync(client, { recursive: true, force: true }));

/** As the build leaves them: the file, and its compressed copies under its hash. `br` stands in for brotli's best, so that a test can tell it from a compression made at start. */
function built(name: string, identity: Buffer, br: Buffer): void {
  writeFileSync(path.join(client, 'assets', name), identity);
  const copy = path.join(client, 'compressed', bodyHash(identity));
  writeFileSync(`${copy}.br`, br);
  writeFileSync(`${copy}.gz`, gzipSync(identity));
}

/** The file as a browser accepting `encoding` receives it: the bytes on the wire, not decoded. */
async function served(encoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  const server = createServer(express().use('/assets', assetFiles(path.join(client, 'assets'), {}))).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const [response] = (await once(get({ host: '127.0.0.1', port, path: '/assets/start-x1.js', headers: { 'Accept-Encoding': encoding } }), 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const header = response.headers['content-encoding'];
    return { encoding: header, body: Buffer.concat(chunks) };
  } finally {
    server.close();
  }
}

it("sends the build's compressed copy of a file", async () => {
  const buildsCopy = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
  built('start-x1.js', script, buildsCopy);
  const response = await served('br');
  expect(response.encoding).toBe('br');
  expect(response.body.equals(buildsCopy)).toBe(true);
});

it('a file changed since the build is compressed anew, not sent as the copy of what it was', async () => {
  built('start-x1.js', script, brotliCompressSync(script));
  const changed = Buffer.from(`${script.toString()}export const electricians = 'Sparks in York';\n`);
  writeFileSync(path.join(client, 'assets', 'start-x1.js'), changed);
  for (const encoding of ['br', 'gzip']) {
    const response = await served(encoding);
    expect(response.encoding).toBe(encoding);
    expect((encoding === 'br' ? brotliDecompressSync(response.body) : gunzipSync(response.body)).toString()).toBe(changed.toString());
  }
});
