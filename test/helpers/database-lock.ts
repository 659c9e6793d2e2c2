import { spawn } from 'node:child_process';
import { ROOT } from './test-app';

/**
 * What ops do when they open the database in another program and keep a write transaction
 * open: `BEGIN EXCLUSIVE` on a second better-sqlite3 connection, released by a timer. It runs in
 * its own process because better-sqlite3 is synchronous: while the app waits for the lock, the
 * test's own event loop is blocked too, so a holder in this process could never let go.
 */
export function holdExclusiveLock(file: string, holdMs: number) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    setTimeout(() => {
      db.exec('COMMIT');
      db.close();
      process.stdout.write('released\\n');
    }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], { cwd: ROOT });
  let output = '';
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before locking`)));
  });
  const released = new Promise<string>((resolve) => child.on('exit', (code) => resolve(`${code}: ${output.trim().split('\n').join(', ')}`)));
  return { locked, released };
}
