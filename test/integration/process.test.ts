import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '../helpers/process-forms';
import { startServerProcess } from '../helpers/server-process';
import { ROOT } from '../helpers/locations';

jest.setTimeout(60_000);

describe('the server process', () => {
  it('logs JSON lines with a request id for each request', async () => {
    const server = await startServerProcess();
    const response = await fetch(`${server.url}/blog`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(response.headers.get('x-request-id')).toBe('trace-123');
    const other = await fetch(`${server.url}/`);
    const generated = other.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const logged = () => server.logs.find((log) => (log.req as { id?: string } | undefined)?.id === 'trace-123');
    await waitFor('the request\'s log line', () => logged() !== undefined, 5000);
    const entry = logged();
    expect(entry).toMatchObject({ msg: 'request completed', res: { statusCode: 200 } });
    expect(await server.stop()).toBe(0);
  });

  it('on SIGTERM stops accepting, finishes the request in flight, closes the database and exits 0', async () => {
    const server = await startServerProcess();
    const url = new URL(`${server.url}/case-studies`);
    // A slow reader keeps the response in flight while the signal arrives.
    const body = new Promise<{ status: number; length: number }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { Connection: 'keep-alive' } }, (res) => {
        res.pause();
        server.child.kill('SIGTERM');
        let length = 0;
        setTimeout(() => {
          res.on('data', (chunk: Buffer) => {
            length += chunk.length;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
          res.resume();
        }, 300);
      });
      req.on('error', reject);
      req.end();
    });
    const result = await body;
    expect(result.status).toBe(200);
    expect(result.length).toBeGreaterThan(1000);
    const started = Date.now();
    const code = await server.stop();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.logs.map((log) => log.msg)).toEqual(expect.arrayContaining(['Shutting down: no new connections, finishing requests in flight', 'Stopped']));
    await expect(fetch(`${server.url}/`)).rejects.toThrow();
  });

  it('exits 1 with a fatal log line, not lost in the asynchronous log buffer, when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const dir = mkdtempSync(path.join(tmpdir(), 'citewise-port-taken-'));
    try {
      const result = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'server', 'index.js')], {
        env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATABASE_PATH: path.join(dir, 'site.db'), NODE_ENV: 'production' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { level: number; msg: string; err?: { code?: string } });
      expect(lines.at(-1)).toMatchObject({ level: 60, msg: 'The server could not listen', err: { code: 'EADDRINUSE' } });
    } finally {
      taken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops at start with one clear line naming a bad variable', () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'server', 'index.js')], {
      env: { PATH: process.env.PATH ?? '', PORT: 'abc' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: PORT="abc"/);
  });

  it.each([
    ['a folder', (dir: string) => dir],
    ['a file that is not a database', (dir: string) => {
      writeFileSync(path.join(dir, 'notes.txt'), 'not SQLite '.repeat(100));
      return path.join(dir, 'notes.txt');
    }],
    ['a file inside a file', (dir: string) => {
      writeFileSync(path.join(dir, 'plain'), 'x');
      return path.join(dir, 'plain', 'site.db');
    }],
  ])('stops at start with one line naming DATABASE_PATH when it is %s', (_what, make) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'citewise-bad-db-'));
    try {
      const databasePath = make(dir);
      const result = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'server', 'index.js')], {
        env: { PATH: process.env.PATH ?? '', PORT: '0', DATABASE_PATH: databasePath, NODE_ENV: 'production' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Invalid configuration: DATABASE_PATH=${JSON.stringify(databasePath)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
