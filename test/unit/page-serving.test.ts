import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { isNotModified } from '../../server/pages/conditional';
import { negotiateEncoding, prefersMarkdown } from '../../server/pages/negotiation';
import { compressOnce, precompress, type Representation, type ResponseMeta } from '../../server/pages/representation';
import { send } from '../../server/pages/send';

const meta: ResponseMeta = {
  status: 200,
  contentType: 'text/plain; charset=utf-8',
  cacheControl: 'public, no-cache',
  headers: { 'X-Content-Type-Options': 'nosniff', Vary: 'Accept-Encoding' },
};
const body = Buffer.from('Citewise '.repeat(200), 'utf8');

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0, identity', 'identity'],
    ['identity', 'identity'],
    [`gzip, ${'x'.repeat(300)}`, 'gzip'],
  ])('%j -> %s', (header, encoding) => {
    expect(negotiateEncoding(header)).toBe(encoding);
  });
});

describe('isNotModified', () => {
  const etags = new Set(['"abc"', '"abc-gz"']);
  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc-gz"', true],
    ['"other", "abc"', true],
    ['"other"', false],
    ['*', true],
  ])('If-None-Match %j -> %s', (header, expected) => {
    expect(isNotModified(etags, header)).toBe(expected);
  });
  it('is never true for a representation without validators', () => {
    expect(isNotModified(new Set(), '*')).toBe(false);
  });
});

describe('precompress', () => {
  const representation = precompress(body, meta);
  it('keeps the body in every encoding, each decoding to the same bytes', () => {
    expect(representation.variants.identity?.body.equals(body)).toBe(true);
    expect(gunzipSync(representation.variants.gzip!.body).equals(body)).toBe(true);
    expect(brotliDecompressSync(representation.variants.br!.body).equals(body)).toBe(true);
  });
  it('gives each encoding its own strong ETag and full headers', () => {
    expect(representation.etags.size).toBe(3);
    const headers = Object.fromEntries(chunk(representation.variants.br!.headers));
    expect(headers).toMatchObject({ 'Content-Type': meta.contentType, 'Content-Encoding': 'br', 'Content-Length': representation.variants.br!.body.length, Vary: 'Accept-Encoding' });
    expect(representation.etags.has(String(headers.ETag))).toBe(true);
  });
});

describe('compressOnce', () => {
  it('makes only the encoding asked for, without a validator', () => {
    const representation = compressOnce(body, meta, 'gzip');
    expect(Object.keys(representation.variants)).toEqual(['gzip']);
    expect(representation.etags.size).toBe(0);
    expect(gunzipSync(representation.variants.gzip!.body).equals(body)).toBe(true);
  });
});

function chunk(flat: (string | number)[]): [string, string | number][] {
  const pairs: [string, string | number][] = [];
  for (let index = 0; index < flat.length; index += 2) pairs.push([String(flat[index]), flat[index + 1] as string | number]);
  return pairs;
}

describe('send', () => {
  let representation: Representation = precompress(body, meta);
  const server = createServer((req, res) => send(req, res, representation, ['X-Request-Id', 'test']));
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const fetchRaw = (headers: Record<string, string>, method = 'GET') =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      get({ host: '127.0.0.1', port, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (data: Buffer) => chunks.push(data));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it('sends the encoding the client takes, with its headers and the extra ones', async () => {
    representation = precompress(body, meta);
    const response = await fetchRaw({ 'Accept-Encoding': 'gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['x-request-id']).toBe('test');
    expect(gunzipSync(response.body).equals(body)).toBe(true);
  });

  it('answers 304 without a body to a validator the client holds', async () => {
    const first = await fetchRaw({ 'Accept-Encoding': 'br' });
    const again = await fetchRaw({ 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-length']).toBeUndefined();
  });

  it('sends headers but no body to HEAD', async () => {
    const response = await fetchRaw({}, 'HEAD');
    expect(response.status).toBe(200);
    expect(Number(response.headers['content-length'])).toBe(body.length);
    expect(response.body.length).toBe(0);
  });

  it('sends a per-response body in the one encoding it was made in, never 304', async () => {
    representation = compressOnce(body, meta, 'identity');
    const response = await fetchRaw({ 'Accept-Encoding': 'br', 'If-None-Match': '*' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.equals(body)).toBe(true);
  });
});

describe('prefersMarkdown', () => {
  it.each([
    [undefined, false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8', false],
    ['*/*', false],
    ['text/markdown', true],
    ['text/markdown, */*;q=0.1', true],
    ['text/markdown, */*', true],
    ['text/html, text/markdown', false],
    ['text/html;q=0.5, text/markdown', true],
    ['text/markdown;q=0.5, text/html', false],
    ['text/markdown;q=0, */*', false],
    ['*/*, text/html;q=0.1, text/markdown;q=0.9', true],
    ['text/x-markdown', true],
  ])('Accept %j -> %s', (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected);
  });
});
