import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GzipTemplate } from '../../server/render/gzip-template';

const TOKEN = '{{token}}';
const STARTED = '{{started}}';

/** Text that repeats itself a lot, like HTML, so that deflate finds back-references everywhere. */
function pageLike(size: number, seed: string): string {
  const words = ['<div class="card">', '<p>', 'visibility', 'ChatGPT', 'recommend', '</p>', '</div>', 'audit', seed, '\n'];
  let text = '';
  for (let i = 0; text.length < size; i += 1) text += words[(i * 7 + (i >> 3)) % words.length];
  return text;
}

const fill = (template: string, token: string, started: string) => template.replaceAll(TOKEN, token).replaceAll(STARTED, started);

describe('GzipTemplate', () => {
  it('gives a gzip body that any gunzip decodes to the page with the values in every slot', () => {
    const page = `${pageLike(20_000, 'a')}<input value="${TOKEN}"><input value="${STARTED}">${pageLike(8_000, 'b')}{"csrfToken":"${TOKEN}","formStarted":"${STARTED}"}</body></html>`;
    const template = new GzipTemplate(page, [TOKEN, STARTED]);
    for (let i = 0; i < 20; i += 1) {
      const token = randomBytes(39).toString('base64url');
      const started = `${Date.now() + i}.${randomBytes(32).toString('base64url')}`;
      expect(gunzipSync(template.gzip([token, started])).toString('utf8')).toBe(fill(page, token, started));
    }
  });

  it('is about as small as gzip of the whole filled page', () => {
    const page = `${pageLike(22_000, 'a')}<input value="${TOKEN}">${pageLike(8_000, 'b')}"${STARTED}"`;
    const token = randomBytes(39).toString('base64url');
    const started = randomBytes(40).toString('base64url');
    const whole = gzipSync(fill(page, token, started), { level: 9 }).length;
    expect(new GzipTemplate(page, [TOKEN, STARTED]).gzip([token, started]).length).toBeLessThan(whole * 1.05 + 100);
  });

  it('stays exact when the values change length, sit side by side, or open and close the page', () => {
    const page = `${TOKEN}${STARTED}${pageLike(3_000, 'x')}${STARTED}-${TOKEN}`;
    const template = new GzipTemplate(page, [TOKEN, STARTED]);
    for (const [token, started] of [['a', 'bb'], ['a much longer token value', ''], ['', 'x'.repeat(5_000)], ['ünïcödé ✓', 'ok']] as const) {
      expect(gunzipSync(template.gzip([token, started])).toString('utf8')).toBe(fill(page, token, started));
    }
  });

  it('reaches back across a page longer than deflate’s 32 KB window', () => {
    const page = `${pageLike(50_000, 'a')}${TOKEN}${pageLike(40_000, 'a')}${TOKEN}${pageLike(35_000, 'c')}`;
    const token = randomBytes(30).toString('hex');
    expect(gunzipSync(new GzipTemplate(page, [TOKEN]).gzip([token])).toString('utf8')).toBe(page.replaceAll(TOKEN, token));
  });

  it('refuses a page or a value holding the byte 0x01 it marks slots with, and a wrong number of values', () => {
    expect(() => new GzipTemplate(`a\u0001${TOKEN}`, [TOKEN])).toThrow(/0x01/);
    const template = new GzipTemplate(`a${TOKEN}b`, [TOKEN]);
    expect(() => template.gzip(['x\u0001y'])).toThrow(/0x01/);
    expect(() => template.gzip([])).toThrow(/1 values expected/);
  });
});
