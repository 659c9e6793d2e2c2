import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { createHttpServer } from '../../server/http-server';
import { createTestApp, type TestApp } from '../helpers/test-app';

let testApp: TestApp;
let server: Server;
let base: string;
let handled: boolean[];

beforeAll(async () => {
  testApp = createTestApp();
  await testApp.app.warmPages();
  const handle = testApp.app.fastPages.handle.bind(testApp.app.fastPages);
  handled = [];
  testApp.app.fastPages.handle = (req, res) => {
    const result = handle(req, res);
    handled.push(result);
    return result;
  };
  server = createHttpServer(testApp.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  testApp.close();
});

// Headers that differ per response by nature.
const perResponse = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

describe('the fast path for shared pages', () => {
  it.each(['/', '/blog', '/blog/robots-llms-txt-guide', '/privacy-policy'])('answers %s exactly as Express does, headers and bytes', async (path) => {
    handled.length = 0;
    const fast = await fetch(`${base}${path}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(handled).toEqual([true]);
    const express = await request(testApp.app).get(path).set('Accept-Encoding', 'br').buffer(true).parse((res, callback) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => callback(null, Buffer.concat(chunks)));
    });
    const strip = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !perResponse.has(name)));
    const fastHeaders = strip(Object.fromEntries(fast.headers.entries()));
    expect(fastHeaders).toEqual(strip(express.headers as Record<string, string>));
    expect(fast.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(fastHeaders['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(fastHeaders['content-security-policy']).toContain("frame-ancestors 'none'");
    // fetch decodes brotli; compare the decoded text with Express's page.
    const plain = await request(testApp.app).get(path).set('Accept-Encoding', 'identity');
    expect(await fast.text()).toBe(plain.text);
  });

  it('answers 304 to its ETag, HEAD without a body, and the same page with a query string', async () => {
    const first = await fetch(`${base}/how-it-works`, { headers: { 'Accept-Encoding': 'gzip' } });
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(`${base}/how-it-works`, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    const head = await fetch(`${base}/how-it-works`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const withQuery = await fetch(`${base}/how-it-works?utm_source=newsletter`);
    expect(withQuery.status).toBe(200);
  });

  it('leaves form pages, 404s, redirects and posts to Express', async () => {
    for (const [path, status] of [['/free-audit', 200], ['/no-such-page', 404], ['/blog/', 301]] as const) {
      handled.length = 0;
      const response = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(status);
      expect(handled).toEqual([false]);
    }
    const form = await fetch(`${base}/free-audit`);
    expect(form.headers.get('set-cookie')).toMatch(/^__Host-csrf=/);
  });
});
