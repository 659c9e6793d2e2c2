// npm run restore -- FILE
// Puts a backup in place of the database, with the site stopped. Checks FILE first (integrity,
// that it is this site's database, a schema this release knows) and refuses in one line, changing
// nothing, when it is not sound or the database is open in another process. The database it
// replaces is kept beside it.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BackupError, describeTables, firstLine } from '../../server/backup/database-file';
import { restoreDatabase } from '../../server/backup/restore';
import { exitOnConfigError, loadConfig } from '../../server/config';
import { openConfigured } from '../../server/db/database';
import { fail } from './cli';

const args = process.argv.slice(2);
const [file] = args;
if (args.length !== 1 || !file || file.startsWith('--')) fail('Usage: npm run restore -- FILE');
const config = exitOnConfigError(() => loadConfig());
// The file there is moved aside, never a folder or a device: a path that cannot hold a database is
// a configuration error, as for every other command.
exitOnConfigError(() =>
  openConfigured(config.databasePath, (target) => {
    if (existsSync(target) && !statSync(target).isFile()) throw new Error('it is not a file');
  }),
);

restoreDatabase(path.resolve(file), config.databasePath, new Date())
  .then(({ restored, replaced }) => {
    console.log(`Restored ${restored.file} to ${config.databasePath}`);
    console.log(`  schema ${restored.schemaVersion}, integrity_check ok; rows: ${describeTables(restored)}`);
    if (replaced) console.log(`The database it replaced is kept beside it: ${replaced}`);
    console.log('Erasures (npm run erase) made since the backup was taken are not in it: make them again before starting the site.');
  })
  .catch((error: unknown) => {
    console.error(`Not restored: ${error instanceof BackupError ? error.message : firstLine(error)}`);
    process.exitCode = 1;
  });
