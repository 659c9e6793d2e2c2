import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations';

export type Db = Database.Database;

/** How long a writer waits for a lock held by another connection (ops, the CSV export) before failing. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the SQLite file for the server: WAL (readers never block the writer), synchronous=FULL
 * (an acknowledged lead survives a power cut), a busy timeout, foreign keys.
 */
export function openDatabase(file: string): Db {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return db;
}

/** For ops scripts: never writes, so it can run beside the live server. */
export function openDatabaseReadOnly(file: string): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  return db;
}

/** Applies the numbered migrations not yet applied, tracked in PRAGMA user_version. */
export function migrate(db: Db): number {
  const current = Number(db.pragma('user_version', { simple: true }));
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return Number(db.pragma('user_version', { simple: true }));
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
