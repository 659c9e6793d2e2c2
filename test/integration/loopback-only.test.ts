import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `scripts/loopback-only.mjs`, which npm test runs jest through: the command runs where loopback
 * is the only interface, or not at all unless a developer says so.
 */

const SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'loopback-only.mjs');
/** The interfaces the command sees, one name a line. */
const INTERFACES = ['sh', '-c', "ip -o link | cut -d: -f2 | tr -d ' '"];

function loopbackOnly(args: string[], options: SpawnSyncOptions & { env?: NodeJS.ProcessEnv } = {}) {
  const { env, ...rest } = options;
  const { ALLOW_OUTBOUND_TESTS: _unset, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', ...rest, env: { ...inherited, ...env } });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

let bin: string;
beforeAll(() => {
  // A PATH with node and sh but no unshare: a machine where no namespace can be made.
  bin = mkdtempSync(path.join(os.tmpdir(), 'no-unshare-'));
  symlinkSync(process.execPath, path.join(bin, 'node'));
  symlinkSync('/bin/sh', path.join(bin, 'sh'));
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('the tests run with loopback only', () => {
  it('runs the command where loopback is its only interface, and exits with its status', () => {
    const listed = loopbackOnly(INTERFACES);
    expect(listed).toMatchObject({ status: 0, stdout: 'Running sh in a network namespace with loopback only.\nlo\n' });
    expect(loopbackOnly(['sh', '-c', 'exit 3']).status).toBe(3);
  });

  it('as a user who is not root, whom unshare --net refuses, makes the namespace inside a user namespace of its own', () => {
    // Run as nobody when the tests run as root, as they do in CI; as the user itself otherwise.
    const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const command = [...asUser, process.execPath, SCRIPT, ...INTERFACES];
    const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('Running sh in a network namespace with loopback only.\nlo\n');
  });

  it('where no namespace can be made, stops with one line and exit status 1, and never runs the command', () => {
    const refused = loopbackOnly(['sh', '-c', 'echo ran'], { env: { PATH: bin } });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      "No network namespace could be made here (unshare (util-linux) is not on the PATH), so sh was not run: set ALLOW_OUTBOUND_TESTS=1 to run it on the machine's own network (docs/testing.md).\n",
    );
  });

  it('runs it on the machine\'s own network only when ALLOW_OUTBOUND_TESTS=1, and says so', () => {
    const allowed = loopbackOnly(['sh', '-c', 'echo ran'], { env: { PATH: bin, ALLOW_OUTBOUND_TESTS: '1' } });
    expect(allowed).toMatchObject({ status: 0, stdout: 'ran\n' });
    expect(allowed.stderr).toBe("No network namespace could be made here (unshare (util-linux) is not on the PATH): ALLOW_OUTBOUND_TESTS=1, so sh runs on the machine's own network.\n");
    expect(loopbackOnly(['sh', '-c', 'echo ran'], { env: { PATH: bin, ALLOW_OUTBOUND_TESTS: 'yes' } }).status).toBe(1);
  });
});
