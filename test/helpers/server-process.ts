import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, TEST_PAGE_CACHE } from './locations';

export interface ServerProcess {
  url: string;
  dir: string;
  child: ChildProcessWithoutNullStreams;
  /** Every log line the process wrote, parsed. */
  logs: Record<string, unknown>[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built server (dist/server/index.js) as a real process on a free port: the
 * repository's build, or that of a copy built from other content (site-copy.ts). Resolves when it
 * logs `readyAt` ('Listening', with its URL; an earlier line to catch it during start-up).
 */
export function startServerProcess(env: Record<string, string> = {}, root: string = ROOT, readyAt = 'Listening'): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-process-'));
  const child = spawn(process.execPath, [path.join(root, 'dist', 'server', 'index.js')], { cwd: root, env: serverEnv(dir, env) });
  const logs: Record<string, unknown>[] = [];
  let buffered = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // A server that never gets there is killed, so that it cannot hold the test run open.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not log "${readyAt}": ${buffered}`));
    }, 30000);
    child.stderr.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.msg === readyAt) {
            clearTimeout(timer);
            resolve({
              url: typeof entry.url === 'string' ? entry.url : '',
              dir,
              child,
              logs,
              async stop(signal: NodeJS.Signals = 'SIGTERM') {
                if (child.exitCode === null) child.kill(signal);
                const code = await exited;
                rmSync(dir, { recursive: true, force: true });
                return code;
              },
            });
          }
        } catch {
          // not a JSON log line
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${buffered}`));
    });
  });
}

/** Whether `env` runs a test's own site (an http SITE_URL, the default), not a public one (https), which refuses the settings below. */
const onTestSite = (env: Record<string, string>) => !(env.SITE_URL ?? '').startsWith('https:');

/**
 * On a test's site, background processes (site checks, probes, audit runs) run at normal
 * priority, so that a machine busy with other test files does not starve them: for the built
 * server and for the ops commands alike. A test of the priority passes its own value.
 */
export function backgroundPriorityFor(env: Record<string, string>): Record<string, string> {
  return onTestSite(env) ? { BACKGROUND_PRIORITY: 'normal' } : {};
}

/**
 * The built server's environment: a free port on loopback, a database in `dir`, then `env`. On a
 * test's site a post may also follow its form at once; a test of the fill time passes its own value.
 */
function serverEnv(dir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const forTests = { ...backgroundPriorityFor(env), ...(onTestSite(env) ? { FORM_MIN_FILL_MS: '0' } : {}) };
  return {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: path.join(dir, 'site.db'),
    NODE_ENV: 'production',
    // Tests run the demo content, placeholders and all, on an https SITE_URL too; the refusal
    // itself is tested by passing ALLOW_PLACEHOLDER_CONTENT=0.
    ALLOW_PLACEHOLDER_CONTENT: '1',
    PAGE_CACHE_DIR: TEST_PAGE_CACHE,
    ...forTests,
    ...env,
  };
}

/** Listens on `port` of the loopback address (0: one the kernel picks) and closes at once: the port it had, or null when it was in use. */
function listenBriefly(port: number): Promise<number | null> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const { port: had } = server.address() as AddressInfo;
      server.close(() => resolve(had));
    });
  });
}

/** A loopback port nothing listens on (free a moment ago): connections to it are refused. */
export async function freePort(): Promise<number> {
  const port = await listenBriefly(0);
  if (port === null) throw new Error('the kernel gave no loopback port');
  return port;
}

/** The first port the kernel gives outgoing connections (and listen(0)) their own port from. */
function ephemeralPortsStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST_CHOSEN_PORT = 10_000;
const PORT_BANDS = 16;

/**
 * A port for a server that a test starts on a port it chose beforehand (its SITE_URL names it, or
 * its log cannot say where it listens). Not one listen(0) gives, as freePort does: the kernel
 * gives those same ports to outgoing connections, and one of the many loopback connections of a
 * run can take it between this choice and the server's listen, which then stops with EADDRINUSE.
 * These are below that range: each jest worker has a band of its own, so files running at once
 * never choose the same port, and each `name` (the test file's) starts at the same place in its
 * band every run, passing over a port in use; its server's pages, which name SITE_URL, are then
 * often in the page cache from the run before.
 */
export async function serverPort(name: string): Promise<number> {
  const bandSize = Math.floor((ephemeralPortsStart() - LOWEST_CHOSEN_PORT) / PORT_BANDS);
  const band = (Number(process.env.JEST_WORKER_ID ?? '1') - 1) % PORT_BANDS;
  const first = [...name].reduce((hash, character) => (hash * 31 + character.charCodeAt(0)) % bandSize, 0);
  for (let offset = 0; offset < bandSize; offset += 1) {
    const port = LOWEST_CHOSEN_PORT + band * bandSize + ((first + offset) % bandSize);
    if ((await listenBriefly(port)) !== null) return port;
  }
  throw new Error(`no port free for ${name} in ${LOWEST_CHOSEN_PORT + band * bandSize} to ${LOWEST_CHOSEN_PORT + (band + 1) * bandSize - 1}`);
}

/**
 * Where the server's stdout goes when the test does not read its log: `full-disk` is /dev/full
 * (every write fails with ENOSPC, as on a full volume); `pipe` is a pipe the test reads only when
 * it chooses to (`child.stdout`), so until then it fills up like one whose reader stopped.
 */
export type LogOutput = 'full-disk' | 'pipe';

export interface UnloggedServerProcess {
  url: string;
  dir: string;
  child: ChildProcess;
  /** What the process wrote to stderr. */
  stderr(): string;
  /** Signals the process and resolves with its exit code; null when it had to be killed (still running 10 s later). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built server with its stdout on `output`. Its log cannot say when it listens, so it
 * gets a port chosen here and is ready when /healthz answers 200.
 */
export async function startServerWithLogOutput(output: LogOutput, env: Record<string, string> = {}): Promise<UnloggedServerProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-log-output-'));
  const port = await serverPort('log-output');
  const stdout = output === 'full-disk' ? openSync('/dev/full', 'w') : 'pipe';
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'server', 'index.js')], {
    cwd: ROOT,
    env: serverEnv(dir, { PORT: String(port), ...env }),
    stdio: ['ignore', stdout, 'pipe'],
  });
  if (typeof stdout === 'number') closeSync(stdout);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    const status = await fetch(`${url}/healthz`).then((response) => response.status, () => 0);
    if (status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /healthz with 200: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    dir,
    child,
    stderr: () => stderr,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A process that does not exit is what these tests look for: it must not outlive them.
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(kill);
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
