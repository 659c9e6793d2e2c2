import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../db/database';
import { freeName } from './backup-files';
import { assertSiteDatabase, BackupError, firstLine, fsyncPath, inspectDatabaseFile, writeBackup, type DatabaseSummary } from './database-file';

export interface RestoreReport {
  restored: DatabaseSummary;
  /** Where the database that was replaced is kept (null: there was none). */
  replaced: string | null;
}

/**
 * Takes the database for this process alone, or refuses. Every connection to a WAL database holds
 * a shared lock on its file for as long as it is open, so an exclusive lock fails while the site
 * (or an ops command) has it open, whatever state it is in; the operating system drops those locks
 * with the process, so a server killed with -9 does not block a restore. Null when the file cannot
 * be opened as a database at all (damaged): then nothing can be holding it as one either.
 */
function lockDatabase(databasePath: string): Db | null {
  let db: Db | undefined;
  try {
    db = new Database(databasePath, { fileMustExist: true, timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    // The lock is taken by the first write transaction and kept until the connection closes.
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY') {
      throw new BackupError(`${databasePath} is open in another process (the site, or an ops command): stop it, then restore again`);
    }
    return null;
  }
}

/**
 * Writes everything the locked database holds into its one file (its WAL, including one a killed
 * server left, is checkpointed and switched off), so that it can be kept as a single file. False
 * when that fails (a damaged database): it is then kept with its -wal and -shm as they are.
 */
function foldIntoOneFile(db: Db): boolean {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    return db.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
  } catch {
    return false;
  }
}

/**
 * Puts the database in `file` in place of the one at `databasePath`: refuses, changing nothing,
 * unless the file is a sound database of this site (inspectDatabaseFile, assertSiteDatabase) and
 * no process has the current database open. The current database is kept beside it, renamed
 * `<name>-before-restore-<UTC time>.db`. Nothing may be left beside the restored file that SQLite
 * would take for its own: a -wal there would be replayed into it and corrupt it.
 */
export async function restoreDatabase(file: string, databasePath: string, now: Date): Promise<RestoreReport> {
  const checked = inspectDatabaseFile(file);
  assertSiteDatabase(checked);
  const dir = path.dirname(databasePath);
  mkdirSync(dir, { recursive: true });
  const lock = existsSync(databasePath) ? lockDatabase(databasePath) : null;
  // Written (and checked again) beside the database first, so that the swap is two renames.
  const incoming = path.join(dir, `.${path.basename(databasePath)}.restoring`);
  try {
    rmSync(incoming, { force: true });
    const source = new Database(file, { readonly: true, fileMustExist: true });
    let restored: DatabaseSummary;
    try {
      restored = await writeBackup(source, incoming);
    } finally {
      source.close();
    }
    let replaced: string | null = null;
    if (existsSync(databasePath)) {
      const folded = lock !== null && foldIntoOneFile(lock);
      replaced = freeName(dir, databasePath, now, '-before-restore-');
      renameSync(databasePath, replaced);
      for (const suffix of ['-wal', '-shm']) {
        if (!existsSync(`${databasePath}${suffix}`)) continue;
        if (folded) rmSync(`${databasePath}${suffix}`);
        else renameSync(`${databasePath}${suffix}`, `${replaced}${suffix}`);
      }
    } else {
      // Left without their database (it was deleted): they belong to nothing that can be read.
      for (const suffix of ['-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true });
    }
    renameSync(incoming, databasePath);
    fsyncPath(dir);
    return { restored: { ...restored, file: checked.file }, replaced };
  } catch (error) {
    throw error instanceof BackupError ? error : new BackupError(`it stopped on ${firstLine(error)}`);
  } finally {
    lock?.close();
    rmSync(incoming, { force: true });
  }
}
