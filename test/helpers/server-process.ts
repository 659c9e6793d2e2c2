import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './test-app';

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
  const child = spawn(process.execPath, [path.join(root, 'dist', 'server', 'index.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: path.join(dir, 'site.db'),
      NODE_ENV: 'production',
      // Tests run the demo content, placeholders and all, on an https SITE_URL too; the refusal
      // itself is tested by passing ALLOW_PLACEHOLDER_CONTENT=0.
      ALLOW_PLACEHOLDER_CONTENT: '1',
      ...env,
    },
  });
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
