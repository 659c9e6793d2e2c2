// npm run backup -- [--out FILE] [--json]
// Writes a consistent copy of the database while the site runs and takes leads (SQLite's online
// backup), checks it (integrity_check, rows per table) and prints where it went: by default
// BACKUP_DIR (backups/ beside the database), named with the UTC time. --json prints the summary
// as one JSON object instead (the server's schedule runs this command with it).
import path from 'node:path';
import { freeName } from '../../server/backup/backup-files';
import { BackupError, describeTables, firstLine, writeBackup } from '../../server/backup/database-file';
import { openDatabaseReadOnly } from '../../server/db/database';
import { configuredDatabase, parseOptions } from './cli';

const options = parseOptions(process.argv.slice(2), ['out'], ['json']);
const { config, db } = configuredDatabase(openDatabaseReadOnly);
const file = typeof options.out === 'string' ? path.resolve(options.out) : freeName(config.backupDir, config.databasePath, new Date());

writeBackup(db, file)
  .then((summary) => {
    if (options.json) {
      process.stdout.write(`${JSON.stringify(summary)}\n`);
      return;
    }
    console.log(`Backup written to ${summary.file}`);
    console.log(`  ${summary.bytes} bytes, schema ${summary.schemaVersion}, integrity_check ok`);
    console.log(`  rows: ${describeTables(summary)}`);
  })
  .catch((error: unknown) => {
    console.error(error instanceof BackupError ? error.message : `The backup failed: ${firstLine(error)}`);
    process.exitCode = 1;
  })
  .finally(() => db.close());
