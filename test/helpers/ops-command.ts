import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { backgroundPriorityFor } from './server-process';
import { ROOT } from './locations';

/** The built ops commands (dist/scripts/<name>.js, what `npm run <name>` runs). */
export type OpsCommand = 'export-csv' | 'erase' | 'report-ai' | 'backup' | 'restore' | 'probe' | 'audit' | 'clients' | 'check-site';

export interface OpsResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

const argv = (command: OpsCommand, args: string[]) => [path.join(ROOT, 'dist', 'scripts', `${command}.js`), ...args];
/** Only what the command is given (the test's own environment never leaks into it), its background processes at the tests' priority. */
const environment = (env: Record<string, string>) => ({ PATH: process.env.PATH ?? '', ...backgroundPriorityFor(env), ...env });

/** Runs an ops command to its end, as ops would from a shell. */
export function runOps(command: OpsCommand, args: string[], env: Record<string, string>): OpsResult {
  const result = spawnSync(process.execPath, argv(command, args), { env: environment(env), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same, without holding up the test's own event loop (its requests keep going meanwhile). */
export function runOpsInBackground(command: OpsCommand, args: string[], env: Record<string, string>): Promise<OpsResult> {
  const child = spawn(process.execPath, argv(command, args), { env: environment(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
