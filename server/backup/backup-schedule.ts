import { spawn } from 'node:child_process';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { keepPrivate } from '../private-files';
import { freeName, listBackups, pruneBackups, removePartial } from './backup-files';
import { firstLine, type DatabaseSummary } from './database-file';

/** A backup being written: its outcome, and a way to abandon it at once. */
export interface RunningBackup {
  done: Promise<DatabaseSummary>;
  /** Stops it now and removes its partial file; `done` then rejects. */
  cancel(): void;
}

/**
 * Runs the backup command (`npm run backup`, dist/scripts/backup.js) for one file, in a child
 * process. The copy and its integrity_check are synchronous SQLite work that would hold up the
 * site's requests on a large database, and a worker thread cannot be dropped mid-call (the
 * process's exit waits for it); a child process can be killed at once, so a stop is never held up.
 * It also means the schedule runs exactly what ops run by hand.
 */
export function backupCommand(script: string, env: NodeJS.ProcessEnv): (file: string) => RunningBackup {
  return (file) => {
    const child = spawn(process.execPath, [script, '--out', file, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const done = new Promise<DatabaseSummary>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code !== 0) {
          reject(new Error(stderr.trim().split('\n').pop() || `the backup command ended with ${signal ?? `status ${code}`}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout) as DatabaseSummary);
        } catch (error) {
          reject(error);
        }
      });
    });
    return {
      done,
      cancel() {
        child.kill('SIGKILL');
        removePartial(file);
      },
    };
  };
}

export interface BackupScheduleOptions {
  databasePath: string;
  /** BACKUP_DIR */
  dir: string;
  /** BACKUP_INTERVAL_HOURS; 0: the schedule is off. */
  intervalHours: number;
  /** BACKUP_KEEP: how many of the newest backups stay. */
  keep: number;
  /** Backups are named, and fall due, by this clock. */
  clock: () => Date;
  logger: Logger;
  /** Writes one backup to `file` (the process: backupCommand). */
  take: (file: string) => RunningBackup;
  /** The least wait after start before a backup (default a minute). */
  firstDelayMs?: number;
}

const HOUR_MS = 3_600_000;
/** A failed backup is tried again after this long (or after the interval, if that is shorter). */
const RETRY_AFTER_MS = HOUR_MS;

/**
 * The server's own backups: one every BACKUP_INTERVAL_HOURS, counted from the newest backup in
 * the folder (so a restart neither skips one nor takes an extra one), keeping the newest
 * BACKUP_KEEP. A failure is logged at error level and tried again later; nothing here can stop the
 * site. The first backup after a start waits a minute, for the start-up work (pages rendered into
 * memory, mail left from before) to be done.
 */
export class BackupSchedule {
  private nextDueAt: Date | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: RunningBackup | null = null;
  private pass: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: BackupScheduleOptions) {}

  /** From the process's configuration, with its clock and log. */
  static fromConfig(config: Config, rest: Pick<BackupScheduleOptions, 'clock' | 'logger' | 'take'>): BackupSchedule {
    return new BackupSchedule({ databasePath: config.databasePath, dir: config.backupDir, intervalHours: config.backupIntervalHours, keep: config.backupKeep, ...rest });
  }

  start(): void {
    const { intervalHours, clock, logger, dir, databasePath } = this.options;
    if (intervalHours === 0) {
      logger.info('Scheduled backups are off (BACKUP_INTERVAL_HOURS=0)');
      return;
    }
    const now = clock().getTime();
    const backups = listBackups(dir, databasePath);
    // Copies of the database: as private as the database itself, whoever made them before.
    keepPrivate(dir, ...backups.map((backup) => backup.file));
    const newest = backups[0];
    const due = newest ? newest.takenAt.getTime() + intervalHours * HOUR_MS : now;
    this.nextDueAt = new Date(Math.max(due, now + (this.options.firstDelayMs ?? 60_000)));
    logger.info({ dir, everyHours: intervalHours, keep: this.options.keep, nextAt: this.nextDueAt.toISOString() }, 'Scheduled backups started');
    this.wait();
  }

  /** When the next backup is due (null: the schedule is off or stopped). */
  get nextDue(): Date | null {
    return this.nextDueAt;
  }

  /**
   * Takes a backup if one is due by the clock, then deletes all but the newest `keep`. Resolves
   * when that is done (joining a pass already under way); never rejects.
   */
  runDue(): Promise<void> {
    if (this.pass) return this.pass;
    if (this.stopped || !this.nextDueAt || this.options.clock() < this.nextDueAt) return Promise.resolve();
    this.pass = this.takeOne().finally(() => {
      this.pass = null;
    });
    return this.pass;
  }

  private async takeOne(): Promise<void> {
    const { clock, logger, dir, databasePath, keep, intervalHours, take } = this.options;
    const takenAt = clock();
    let file = '';
    try {
      file = freeName(dir, databasePath, takenAt);
      this.running = take(file);
      const summary = await this.running.done;
      this.nextDueAt = new Date(takenAt.getTime() + intervalHours * HOUR_MS);
      logger.info({ file, bytes: summary.bytes, schemaVersion: summary.schemaVersion, tables: summary.tables }, 'Backup written');
    } catch (error) {
      // A backup cancelled by the stop is no failure.
      if (this.stopped) return;
      this.nextDueAt = new Date(takenAt.getTime() + Math.min(intervalHours * HOUR_MS, RETRY_AFTER_MS));
      logger.error({ err: firstLine(error), file, retryAt: this.nextDueAt.toISOString() }, 'Scheduled backup failed; the site goes on and it is tried again');
      return;
    } finally {
      this.running = null;
    }
    try {
      const deleted = pruneBackups(dir, databasePath, keep);
      if (deleted.length > 0) logger.info({ deleted, keep }, 'Old backups deleted');
    } catch (error) {
      logger.error({ err: firstLine(error), dir }, 'Old backups could not be deleted');
    }
  }

  /** Stops the schedule and abandons a backup being written (its partial file is removed). */
  stop(): void {
    this.stopped = true;
    this.nextDueAt = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running?.cancel();
  }

  /** Wakes at the due time, or within a minute, so that a change of the clock is noticed. */
  private wait(): void {
    if (this.stopped || !this.nextDueAt) return;
    const wait = Math.min(Math.max(this.nextDueAt.getTime() - this.options.clock().getTime(), 0), 60_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runDue().finally(() => this.wait());
    }, wait);
    this.timer.unref();
  }
}
