import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../config';
import { keepPrivate } from '../private-files';
import { emailKey } from './email-key';
import { migrations } from './migrations';

export type Db = Database.Database;

/**
 * How long a write waits for a lock that another program holds (ops in the sqlite3 shell, an
 * erasure, a backup) before it fails: the server's start-up and every ops script, as SQLite's busy
 * timeout; a visitor's post (then told to try again) in all, tried again on a timer
 * (`retryWhileLocked`).
 */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * How long the running server's own writes wait for such a lock on the connection that serves
 * pages. better-sqlite3 waits synchronously, on the event loop that serves every page: while ops
 * hold the database, waits of seconds one after another would stop the site, so these give up
 * soon; a worker tries again later, a visitor's write on a timer.
 */
export const BACKGROUND_BUSY_TIMEOUT_MS = 100;

/** How often a visitor's write that met another program's lock is tried again, within BUSY_TIMEOUT_MS in all. */
const VISITOR_WRITE_RETRY_MS = 25;

/** How long a background worker waits before it tries again after the database refused it (such a lock, a full disk). */
export const REFUSED_RETRY_MS = 5_000;

/** SQL's email_key(address): the same key as emailKey(), for matching one person's rows. */
function addFunctions(db: Db): Db {
  db.function('email_key', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? emailKey(value) : null));
  return db;
}

/**
 * Opens the SQLite file for the server: WAL (readers never block the writer), synchronous=FULL
 * (an acknowledged lead survives a power cut), a busy timeout, foreign keys, and secure_delete
 * (a deleted row is overwritten, not left readable in a free page: erasure must erase).
 */
export function openDatabase(file: string): Db {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  // It holds personal data: its owner's only, whoever made it (see server/private-files.ts).
  keepPrivate(path.dirname(file), file, `${file}-wal`, `${file}-shm`);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('secure_delete = ON');
  return addFunctions(db);
}

/**
 * For the running server, once started: from now on a write on `db` waits only
 * BACKGROUND_BUSY_TIMEOUT_MS for another program's lock.
 */
export function waitBrieflyForLocks(db: Db): void {
  db.pragma(`busy_timeout = ${BACKGROUND_BUSY_TIMEOUT_MS}`);
}

/**
 * Runs a visitor's write (a lead, a held submission, a public check) once, without waiting for
 * another program's lock: it fails at once with SQLITE_BUSY instead, and `retryWhileLocked` tries
 * it again on a timer, so that the event loop serves pages meanwhile.
 */
export function withoutWaitingForLocks<T>(db: Db, write: () => T): T {
  const before = Number(db.pragma('busy_timeout', { simple: true }));
  db.pragma('busy_timeout = 0');
  try {
    return write();
  } finally {
    db.pragma(`busy_timeout = ${before}`);
  }
}

/** Whether `error` is SQLite's refusal because another connection holds the lock. */
function isLocked(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'SQLITE_BUSY';
}

/**
 * A visitor's write, which a person waits for and a lead is worth: tried at once, and while
 * another program holds the database's lock, tried again every VISITOR_WRITE_RETRY_MS on a timer
 * (never a wait that blocks the event loop) until BUSY_TIMEOUT_MS have passed; then it fails with
 * the last refusal. `onLocked` is told once, when the first try meets the lock. Any other error
 * fails it at once.
 */
export function retryWhileLocked<T>(write: () => T, onLocked?: () => void): Promise<T> {
  const started = performance.now();
  return new Promise<T>((resolve, reject) => {
    const attempt = (first: boolean) => {
      try {
        resolve(write());
      } catch (error) {
        if (!isLocked(error) || performance.now() - started >= BUSY_TIMEOUT_MS) {
          reject(error);
          return;
        }
        if (first) onLocked?.();
        setTimeout(() => attempt(false), VISITOR_WRITE_RETRY_MS);
      }
    };
    attempt(true);
  });
}

/**
 * Copies the WAL into the database file and empties it, so that no earlier copy of a page (an
 * erased row, a link a mail no longer keeps) stays readable in the -wal file; with secure_delete,
 * the database file keeps none either. False when a reader kept it from finishing (try again).
 */
export function emptyWal(db: Db): boolean {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return result?.busy === 0;
}

/** For ops scripts: never writes, so it can run beside the live server. */
export function openDatabaseReadOnly(file: string): Db {
  return addFunctions(new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS }));
}

/**
 * Opens the database at DATABASE_PATH with `open`. A path that cannot hold one (a folder, another
 * kind of file, a place that cannot be written) is a configuration error: one line naming the
 * variable and the reason, as for any other bad variable, not a stack trace.
 */
export function openConfigured<T>(file: string, open: (file: string) => T): T {
  try {
    return open(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(`Invalid configuration: DATABASE_PATH=${JSON.stringify(file)} cannot be used as the database: ${reason}`);
  }
}

/** Applies the numbered migrations not yet applied, tracked in PRAGMA user_version. */
export function migrate(db: Db, upTo = Number.POSITIVE_INFINITY): number {
  const current = Number(db.pragma('user_version', { simple: true }));
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > upTo) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return Number(db.pragma('user_version', { simple: true }));
}

/**
 * The tables a database at schema `version` holds: the migrations up to it, run on an empty
 * database in memory, so that a new migration's tables are known without a second list.
 */
export function tablesAtVersion(version: number): string[] {
  const db = addFunctions(new Database(':memory:'));
  try {
    migrate(db, version);
    return db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
  } finally {
    db.close();
  }
}

/** True when the database answers a read: what /healthz reports. */
export function isDatabaseReadable(db: Db): boolean {
  try {
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return true;
  } catch {
    return false;
  }
}
