import request from 'supertest';
import { createTestApp, type TestApp } from '../helpers/test-app';

let testApp: TestApp;
beforeAll(() => {
  testApp = createTestApp();
});
afterAll(() => testApp.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk, which the PNG format puts first, right after the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// The og:image and twitter:image of every page but the articles (which have their own cards), and
// the JSON-LD logo, point at these files: a share preview or a rich result shows nothing if they
// are missing or the wrong size.
describe.each([
  { path: '/og-image.png', width: 1200, height: 630 },
  { path: '/logo.png', width: 512, height: 512 },
])('$path', ({ path, width, height }) => {
  it(`is served as a ${width}x${height} PNG`, async () => {
    const response = await request(testApp.app).get(path).responseType('blob');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(Buffer.isBuffer(response.body)).toBe(true);
    expect(pngSize(response.body)).toEqual({ width, height });
  });
});

// Browsers, feed readers and link previewers ask for /favicon.ico whatever the page links; a 404
// there fills the log and leaves them without the brand mark.
describe('/favicon.ico', () => {
  it('is served as an icon holding the mark at 16, 32 and 48 px', async () => {
    const response = await request(testApp.app).get('/favicon.ico').responseType('blob');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/);
    const bytes = response.body as Buffer;
    // ICONDIR: reserved 0, type 1 (icon), then one 16-byte entry per image whose first two bytes
    // are its width and height.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
    const count = bytes.readUInt16LE(4);
    const sizes = Array.from({ length: count }, (_, index) => [bytes[6 + 16 * index], bytes[7 + 16 * index]]);
    expect(sizes.sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0))).toEqual([[16, 16], [32, 32], [48, 48]]);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
  });
});
