import { spawn } from 'node:child_process';
import { ROOT } from './locations';

/**
 * What ops do when they open the database in another program and keep a write transaction
 * open: `BEGIN EXCLUSIVE` on a second better-sqlite3 connection. It runs in its own process
 * because better-sqlite3 is synchronous: while the app waits for the lock, the test's own event
 * loop is blocked too, so a holder in this process could never let go.
 *
 * The lock is held until `release()` (a test that needs a hold longer than the app waits lets go
 * once it has seen the app give up, never on a timer that a slow machine could outrun), or until
 * `releaseAfterMs` for a test about a short hold. A holder the test forgot lets go after a minute.
 */
export function holdExclusiveLock(file: string, options: { releaseAfterMs?: number } = {}) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    let done = false;
    const letGo = () => {
      if (done) return;
      done = true;
      db.exec('COMMIT');
      db.close();
      process.stdout.write('released\\n');
      process.exit(0);
    };
    process.stdin.on('data', letGo);
    process.stdin.on('end', letGo);
    setTimeout(letGo, Number(process.argv[2])).unref();
  `;
  const holdMs = options.releaseAfterMs ?? 60_000;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before locking`)));
  });
  const released = new Promise<string>((resolve) => child.on('exit', (code) => resolve(`${code}: ${output.trim().split('\n').join(', ')}`)));
  return {
    locked,
    released,
    /** Lets go of the lock; resolves with the holder's exit code and what it printed. */
    release(): Promise<string> {
      child.stdin.end('release\n');
      return released;
    },
  };
}
