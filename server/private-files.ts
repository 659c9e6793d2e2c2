import { chmodSync, statSync } from 'node:fs';

/**
 * The database, its WAL, the backups, the .eml copies of mail and CSV exports hold personal data:
 * every file and folder the server or an ops command creates is readable by its owner only.
 * Imported first by every process (server/index.ts, scripts/ops/cli.ts), so that nothing is
 * created before the mask is set.
 */
process.umask(0o077);

/**
 * Makes files and folders made before the mask (by an earlier release, or by hand) their owner's
 * only: 0600 and 0700. Paths that do not exist, or belong to another user, are left alone.
 */
export function keepPrivate(...paths: string[]): void {
  for (const file of paths) {
    try {
      const stat = statSync(file);
      if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) continue;
      const mode = stat.isDirectory() ? 0o700 : 0o600;
      if ((stat.mode & 0o777) !== mode) chmodSync(file, mode);
    } catch {
      // Absent, or not ours to change: nothing to do.
    }
  }
}
