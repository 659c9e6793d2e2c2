import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Starting and stopping the processes that `npm run bench` and `npm run lighthouse` measure. They
 * only ever listen on, and are only ever loaded at, the loopback address.
 */

export const ROOT = path.resolve(__dirname, '..', '..');
export const HOST = '127.0.0.1';
export const SERVER_ENTRY = path.join(ROOT, 'dist', 'server', 'index.js');

/** Refuses any URL that is not on 127.0.0.1: these tools load what they are pointed at hard. */
export function assertLoopback(url: string): void {
  if (new URL(url).hostname !== HOST) throw new Error(`Refusing to load ${url}: only ${HOST} may be targeted`);
}

/**
 * The pages the measuring scripts load unless told otherwise: the home page, an article and
 * /free-audit (rendered for each visitor). Call it once built: shared/generated/ comes from the
 * build.
 */
export async function measuredPages(): Promise<string[]> {
  const { articles } = await import('../../shared/generated/articles');
  const { routesPaths } = await import('../../shared/site');
  const article = articles[0];
  if (!article) throw new Error('The site has no article');
  return [routesPaths.home, article.path, routesPaths.freeAudit];
}

/** Builds the site when dist/ has no server yet. */
export function ensureBuilt(): void {
  if (existsSync(SERVER_ENTRY)) return;
  console.log('dist/ is missing: building first (npm run build)');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

export const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Core 0 for the servers under test, the other cores for whatever loads them, so that the load
 * generator does not take the server's CPU. One core, or no taskset: nothing is pinned.
 */
export const cores = {
  server: hasTaskset ? '0' : undefined,
  client: hasTaskset && availableParallelism() > 1 ? (availableParallelism() === 2 ? '1' : `1-${availableParallelism() - 1}`) : undefined,
};

/** A command, prefixed with `taskset -c <cores>` when the cores are given. */
export function pinned(coreList: string | undefined, command: string, args: string[]): [string, string[]] {
  return coreList ? ['taskset', ['-c', coreList, command, ...args]] : [command, args];
}

/** A port nothing listens on now (the OS picks it; a tiny race with other programs is accepted). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Waits until GET <url><readyPath> answers, or the process exits. */
async function waitUntilReady(child: ChildProcess, url: string, readyPath: string, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before it was ready: ${stderr()}`);
    try {
      const response = await fetch(`${url}${readyPath}`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready after 60 s: ${stderr()}`);
}

/**
 * Starts a Node process (pinned to the server core) that listens on 127.0.0.1:PORT, and waits
 * until it answers. Its stdout (a JSON log line per request) goes to /dev/null: the server still
 * pays for writing it, as in production, and this process does not spend a core reading it.
 */
export async function startNodeServer(name: string, args: string[], env: Record<string, string> = {}, readyPath = '/', knownPort?: number): Promise<RunningServer> {
  const port = knownPort ?? (await freePort());
  const url = `http://${HOST}:${port}`;
  const [command, commandArgs] = pinned(cores.server, process.execPath, args);
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST, PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killed);
    }
  };
  try {
    await waitUntilReady(child, url, readyPath, () => stderr);
  } catch (error) {
    await stop();
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { name, url, child, stop };
}

/**
 * The built server (dist/server/index.js, or another build's) over a fresh database in a temporary folder. With no
 * siteUrl it runs as production does, on https (HSTS and all); a browser on plain http needs the
 * http origin instead, or its CSP would upgrade every asset request to https.
 */
export async function startSiteServer(siteUrl?: (url: string) => string, env: Record<string, string> = {}, serverEntry = SERVER_ENTRY): Promise<RunningServer & { dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-bench-'));
  try {
    const port = await freePort();
    const server = await startNodeServer('citewise', [serverEntry], {
      DATABASE_PATH: path.join(dir, 'site.db'),
      SITE_URL: siteUrl ? siteUrl(`http://${HOST}:${port}`) : 'https://www.citewise.example',
      // The bench measures the demo content as it ships, placeholders included.
      ALLOW_PLACEHOLDER_CONTENT: '1',
      ...env,
    }, '/healthz', port);
    return {
      ...server,
      dir,
      async stop() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Stops every server on the way out, also on Ctrl-C, so that none is left holding a core. */
export function stopOnExit(servers: RunningServer[]): () => Promise<void> {
  const stopAll = async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return stopAll;
}
