import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { ROOT } from '../helpers/locations';

// The app with its chunks, and the entry script inlined into every page: both reach the browser.
const metafiles = ['client-meta.json', 'entry-meta.json'].map((name) => JSON.parse(readFileSync(path.join(ROOT, 'dist', name), 'utf8')) as Metafile);
const inputs = metafiles.flatMap((meta) => Object.keys(meta.inputs));

describe('the browser bundle', () => {
  it('holds no server-only module', () => {
    const serverOnly = inputs.filter((input) => input.startsWith('server/') || /\.server\.tsx?$/.test(input));
    expect(serverOnly).toEqual([]);
  });

  it('holds no server-side package (database, mail, schema validation, HTTP framework)', () => {
    const packages = ['better-sqlite3', 'nodemailer', 'express', 'helmet', 'pino', 'zod', 'yaml', 'marked', 'styled-components/dist/styled-components.cjs'];
    const leaked = inputs.filter((input) => packages.some((name) => input.includes(`node_modules/${name}/`)));
    expect(leaked).toEqual([]);
  });
});
