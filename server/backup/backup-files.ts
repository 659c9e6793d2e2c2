import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The names of backups: `<database>-<UTC time>.db` beside one another in the backup folder, for
 * example `site-20300304T090000Z.db` for `site.db`. The time is when the copy was taken, so the
 * names sort by age and a listing says what each one holds without opening it.
 */

export interface BackupFile {
  file: string;
  takenAt: Date;
}

/** `site.db` → `site`: the stem every backup of that database is named after. */
function stemOf(databasePath: string): string {
  const name = path.basename(databasePath);
  const extension = path.extname(name);
  return extension ? name.slice(0, -extension.length) : name;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 2030-03-04T09:00:00.123Z → 20300304T090000Z (ISO 8601's basic format, to the second). */
function compactUtc(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

function parseCompactUtc(stamp: string): Date {
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stamp) ?? [];
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

/**
 * `<dir>/<stem><label><UTC time>.db`, or with `-2`, `-3`... after the time when a file of that
 * name exists already (two copies in one second), so that no copy ever replaces another.
 */
export function freeName(dir: string, databasePath: string, time: Date, label = '-'): string {
  const base = path.join(dir, `${stemOf(databasePath)}${label}${compactUtc(time)}`);
  for (let n = 1; ; n += 1) {
    const file = n === 1 ? `${base}.db` : `${base}-${n}.db`;
    if (!existsSync(file) && !existsSync(partialName(file))) return file;
  }
}

/** Where a backup is written until it has been checked: a name no listing takes for a backup. */
export function partialName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.partial`);
}

/** Removes a partial file and the journal files SQLite may have left beside it. */
export function removePartial(file: string): void {
  const partial = partialName(file);
  // Nothing was written where there is no folder (it could not be made).
  if (!statSync(path.dirname(partial), { throwIfNoEntry: false })?.isDirectory()) return;
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
}

/** The backups of `databasePath` in `dir`, newest first (a missing folder holds none). */
export function listBackups(dir: string, databasePath: string): BackupFile[] {
  const pattern = new RegExp(`^${escapeRegExp(stemOf(databasePath))}-(\\d{8}T\\d{6}Z)(?:-(\\d+))?\\.db$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const match = pattern.exec(name);
      return match?.[1] ? [{ file: path.join(dir, name), takenAt: parseCompactUtc(match[1]), order: Number(match[2] ?? 1) }] : [];
    })
    .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime() || b.order - a.order)
    .map(({ file, takenAt }) => ({ file, takenAt }));
}

/**
 * When each backup is deleted by the schedule, which keeps the newest `keep`: the one in place i
 * (0 = newest) goes when `keep - i` more have been taken, one every `intervalHours` after the
 * newest. Null when the schedule is off: then backups stay until someone deletes them.
 */
export function ageOutTimes(backups: BackupFile[], intervalHours: number, keep: number): (Date | null)[] {
  const newest = backups[0];
  if (intervalHours === 0 || !newest) return backups.map(() => null);
  const interval = intervalHours * 3_600_000;
  return backups.map((_, index) => new Date(newest.takenAt.getTime() + Math.max(keep - index, 1) * interval));
}

/** A partial file this old belongs to a backup that was killed, not one still being written. */
const ABANDONED_PARTIAL_MS = 60 * 60 * 1000;

/**
 * Deletes all but the newest `keep` backups, and partial files left by a backup that was killed;
 * returns the backups deleted.
 */
export function pruneBackups(dir: string, databasePath: string, keep: number): string[] {
  const deleted = listBackups(dir, databasePath)
    .slice(keep)
    .map(({ file }) => {
      rmSync(file, { force: true });
      return file;
    });
  const partial = new RegExp(`^\\.${escapeRegExp(stemOf(databasePath))}-.*\\.partial(-journal|-wal|-shm)?$`);
  for (const name of readdirSync(dir)) {
    if (!partial.test(name)) continue;
    const file = path.join(dir, name);
    // Real time, as the file system stamps it (not the schedule's clock).
    if (Date.now() - statSync(file).mtimeMs > ABANDONED_PARTIAL_MS) rmSync(file, { force: true });
  }
  return deleted;
}
