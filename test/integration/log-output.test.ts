import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { LINES_LOST_MESSAGE, LOG_BUFFER_BYTES } from '../../server/logger';
import { holdExclusiveLock } from '../helpers/database-lock';
import { validAudit } from '../helpers/forms';
import { openProcessForm, postProcessForm, waitFor } from '../helpers/process-forms';
import { startServerWithLogOutput, type UnloggedServerProcess } from '../helpers/server-process';

jest.setTimeout(120_000);

/*
 * The log is often on the same disk as the database (Docker's json-file logs, journald, a
 * redirect to a file), or read by a collector that can stall or die. Whatever happens to it, the
 * site keeps serving, taking leads and answering /healthz, holds a bounded amount of log in
 * memory, and stops on SIGTERM as promptly as ever (docker stop allows 10 s; we allow 2).
 */

/** A link with a long tracking parameter, as crawlers and ad clicks send: each log line is about 8 KB. */
const BURST_PATH = `/?ref=${'a'.repeat(8000)}`;
const CONCURRENCY = 10;

let running: UnloggedServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.map((server) => server.stop('SIGKILL')));
  running = [];
});

async function start(output: 'full-disk' | 'pipe'): Promise<UnloggedServerProcess> {
  const server = await startServerWithLogOutput(output);
  running.push(server);
  return server;
}

/** GETs `path` `count` times over CONCURRENCY keep-alive connections; resolves with the statuses seen. */
async function requestMany(baseUrl: string, requestPath: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${baseUrl}${requestPath}`, { agent, headers: { 'Accept-Encoding': 'br' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (statuses.length < count) {
        const index = statuses.push(0) - 1;
        statuses[index] = await one();
      }
    }),
  );
  agent.destroy();
  return statuses;
}

/** The process's resident memory in bytes, as ops see it in top or the container's stats. */
function residentBytes(pid: number | undefined): number {
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kilobytes) * 1024;
}

/** Reads the pipe from now on: every JSON line, and the bytes that came before each. */
function readLog(stdout: Readable): { line: Record<string, unknown>; bytesBefore: number }[] {
  const lines: { line: Record<string, unknown>; bytesBefore: number }[] = [];
  let buffered = '';
  let bytes = 0;
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) {
      lines.push({ line: JSON.parse(part) as Record<string, unknown>, bytesBefore: bytes });
      bytes += Buffer.byteLength(part) + 1;
    }
  });
  return lines;
}

const isBurstLine = (line: Record<string, unknown>) => ((line.req as { url?: string } | undefined)?.url ?? '') === BURST_PATH;

/** Stops the server with SIGTERM and expects a clean exit within 2 s. */
async function expectCleanStop(server: UnloggedServerProcess): Promise<void> {
  const signalled = Date.now();
  expect(await server.stop('SIGTERM')).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(2000);
  // No crash and no warning on the way out.
  expect(server.stderr()).toBe('');
}

describe('stdout on a full disk (/dev/full: every write fails with ENOSPC)', () => {
  it('serves pages and /healthz, takes a lead, answers 503 while the database cannot write, and exits 0 on SIGTERM', async () => {
    const server = await start('full-disk');
    for (const page of ['/', '/blog', '/free-audit', '/healthz']) expect((await fetch(`${server.url}${page}`)).status).toBe(200);
    expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);

    const stored = await openProcessForm(server.url, '/free-audit');
    const refused = await openProcessForm(server.url, '/free-audit');
    expect(await postProcessForm(server.url, '/free-audit', stored, { ...validAudit, email: 'stored@full-log.example.co.uk' })).toBe(303);

    // Ops hold the database until the visitor has been answered (longer than the busy timeout):
    // the visitor is told, nothing is written.
    const databasePath = path.join(server.dir, 'site.db');
    const lock = holdExclusiveLock(databasePath);
    await lock.locked;
    expect(await postProcessForm(server.url, '/free-audit', refused, { ...validAudit, email: 'refused@full-log.example.co.uk' })).toBe(503);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await lock.release();

    const db = new Database(databasePath, { readonly: true });
    try {
      expect(db.prepare('SELECT email FROM audit_submissions').all()).toEqual([{ email: 'stored@full-log.example.co.uk' }]);
    } finally {
      db.close();
    }
    await expectCleanStop(server);
  });
});

describe('stdout on a pipe nobody reads', () => {
  it('holds a bounded amount of log under a burst, counts what it drops and says so once the reader is back; exits 0 on SIGTERM with the pipe closed', async () => {
    const server = await start('pipe');
    const stdout = server.child.stdout;
    if (!stdout) throw new Error('no stdout pipe');
    // The first burst fills the pipe and the log's buffer, and grows the heap to its working size.
    const warmUp = 2000;
    const burst = 10_000;
    expect((await requestMany(server.url, BURST_PATH, warmUp)).filter((status) => status !== 200)).toEqual([]);
    const before = residentBytes(server.child.pid);
    expect((await requestMany(server.url, BURST_PATH, burst)).filter((status) => status !== 200)).toEqual([]);
    const grown = residentBytes(server.child.pid) - before;
    // Kept, the burst's lines would take more than 80 MB (an 8 KB line each).
    expect(grown).toBeLessThan(32 * 1024 * 1024);

    // The reader is back: the lines held come out, then one line says how many were dropped.
    const lines = readLog(stdout);
    const isReport = ({ line }: { line: Record<string, unknown> }) => line.msg === LINES_LOST_MESSAGE;
    await waitFor('the dropped lines to be reported', () => lines.some(isReport), 30_000);
    const report = lines.find(isReport);
    if (!report) throw new Error('no report');
    expect(report.line).toMatchObject({ level: 40, cause: 'EAGAIN' });
    const written = lines.slice(0, lines.indexOf(report)).filter(({ line }) => isBurstLine(line)).length;
    // Each request either reached the log or was counted in the report.
    expect(written + Number(report.line.lostLines)).toBe(warmUp + burst);
    expect(written).toBeGreaterThan(0);
    // What was held while nobody read: the buffer, and what the pipe itself takes.
    expect(report.bytesBefore).toBeLessThan(LOG_BUFFER_BYTES + 1024 * 1024);

    stdout.destroy();
    await expectCleanStop(server);
  });

  it('exits 0 on SIGTERM while the pipe is full and its reader has stopped', async () => {
    const server = await start('pipe');
    expect((await requestMany(server.url, BURST_PATH, 2000)).filter((status) => status !== 200)).toEqual([]);
    await expectCleanStop(server);
  });
});
