import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { tablesAtVersion, type Db } from '../db/database';
import { LATEST_SCHEMA_VERSION } from '../db/migrations';
import { partialName, removePartial } from './backup-files';

/** Why a backup or a restore stopped, in one line that names the file. */
export class BackupError extends Error {}

/** What a checked database file holds. */
export interface DatabaseSummary {
  file: string;
  bytes: number;
  /** PRAGMA user_version: how far the site's migrations have brought it. */
  schemaVersion: number;
  /** Rows in each table. */
  tables: Record<string, number>;
}

/**
 * sqlite3_backup_step() copies this many pages at most (better-sqlite3 takes 0 to 2^31-1): all of
 * them, in one step. A backup on its own connection starts again whenever another connection (the
 * live site) writes between two steps, so in steps it might never finish on a busy site; one step
 * reads a single WAL snapshot, which the site's writers never wait for.
 */
const WHOLE_DATABASE = 0x7fffffff;

/** An error's first line: what a one-line refusal quotes. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** The reason a SQLite file cannot be used, as ops would say it. */
function unreadable(file: string, error: unknown): BackupError {
  const code = error instanceof Database.SqliteError ? error.code : '';
  if (code === 'SQLITE_NOTADB') return new BackupError(`${file} is not a SQLite database`);
  if (code === 'SQLITE_CORRUPT') return new BackupError(`${file} is damaged (${firstLine(error)}): it may be truncated or partly overwritten`);
  return new BackupError(`${file} cannot be read: ${firstLine(error)}`);
}

/**
 * Checks any SQLite file without changing it: `PRAGMA integrity_check` (which also finds a file
 * cut short), then counts the rows of every table. Throws BackupError when it is not sound.
 */
export function inspectDatabaseFile(file: string): DatabaseSummary {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  if (!statSync(file).isFile()) throw new BackupError(`${file} is not a file`);
  let db: Db;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw unreadable(file, error);
  }
  try {
    const problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).filter((line) => line !== 'ok');
    if (problems.length > 0) throw new BackupError(`${file} is damaged: integrity_check found ${problems.length} problem(s), the first: ${problems[0]}`);
    const names = db.prepare<[], { name: string }>(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`).all();
    const tables = Object.fromEntries(names.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n]));
    return { file, bytes: statSync(file).size, schemaVersion: Number(db.pragma('user_version', { simple: true })), tables };
  } catch (error) {
    throw error instanceof BackupError ? error : unreadable(file, error);
  } finally {
    db.close();
  }
}

/**
 * Throws unless the file is a database of this site that this code can run: the tables its
 * migrations make up to the file's schema version, and a version no newer than the code's (an
 * older one is brought up to date when the server starts). Tables added since are no reason to
 * refuse, so a release that adds one can still restore an older backup.
 */
export function assertSiteDatabase(summary: DatabaseSummary): void {
  const { file, schemaVersion } = summary;
  if (schemaVersion > LATEST_SCHEMA_VERSION) {
    throw new BackupError(`${file} was made by a newer release of the site (schema ${schemaVersion}; this one knows up to ${LATEST_SCHEMA_VERSION}): restore it with that release`);
  }
  const missing = tablesAtVersion(schemaVersion === 0 ? LATEST_SCHEMA_VERSION : schemaVersion).filter((table) => !(table in summary.tables));
  if (schemaVersion === 0 || missing.length > 0) {
    const lacks = missing.length > 0 ? `it has no ${missing.join(', ')} table${missing.length > 1 ? 's' : ''}` : 'it has no schema version';
    throw new BackupError(`${file} is not this site's database (${lacks})`);
  }
}

/** "audit_submissions 3, contact_messages 1, ...": a summary's row counts on one line. */
export function describeTables(summary: DatabaseSummary): string {
  return Object.entries(summary.tables)
    .map(([table, rows]) => `${table} ${rows}`)
    .join(', ');
}

/** Flushes a file, or a folder's list of names after a rename, to the disk. */
export function fsyncPath(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a consistent copy of `source` (an open connection, the live site's file included) to
 * `file` with SQLite's online backup, never a file copy, which could catch the database between
 * its file and its WAL. The copy is made under a partial name, turned into a single file (journal
 * mode DELETE, no -wal beside it), checked (inspectDatabaseFile), flushed to disk and only then
 * given its name: a file with a backup's name is always a whole, checked one.
 */
export async function writeBackup(source: Db, file: string): Promise<DatabaseSummary> {
  if (existsSync(file)) throw new BackupError(`${file} exists already: choose a new name`);
  const dir = path.dirname(file);
  const partial = partialName(file);
  try {
    mkdirSync(dir, { recursive: true });
    removePartial(file);
    const copied = await source.backup(partial, { progress: () => WHOLE_DATABASE });
    // better-sqlite3 reports a source it could not read within the busy timeout (another process
    // holds it exclusively: a restore) as a backup of no pages, and deletes the unfinished copy.
    if (copied.totalPages === 0 || !existsSync(partial)) throw new BackupError(`${source.name} could not be read for the backup: another process holds it exclusively (a restore?), or it is empty`);
    const copy = new Database(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const summary = inspectDatabaseFile(partial);
    fsyncPath(partial);
    renameSync(partial, file);
    fsyncPath(dir);
    return { ...summary, file };
  } catch (error) {
    throw error instanceof BackupError ? error : new BackupError(`The backup to ${file} failed: ${firstLine(error)}`);
  } finally {
    removePartial(file);
  }
}
