import '../../server/private-files';
import { exitOnConfigError, loadConfig, type Config } from '../../server/config';
import { openConfigured, type Db } from '../../server/db/database';

/** Reads `--name value` options; an unknown option or a missing value stops with a clear line. */
export function parseOptions(argv: string[], known: string[], flags: string[] = []): Record<string, string | true> {
  const options: Record<string, string | true> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const name = arg.replace(/^--/, '');
    if (!arg.startsWith('--') || (!known.includes(name) && !flags.includes(name))) fail(`Unknown argument ${arg}. Options: ${[...known, ...flags].map((option) => `--${option}`).join(' ')}`);
    if (flags.includes(name)) {
      options[name] = true;
      continue;
    }
    const value = argv[index + 1];
    if (value === undefined || value.startsWith('--')) fail(`--${name} needs a value`);
    options[name] = value;
    index += 1;
  }
  return options;
}

export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The configuration and the database an ops command works on; a bad one stops it with one line. */
export function configuredDatabase(open: (file: string) => Db): { config: Config; db: Db } {
  const config = exitOnConfigError(() => loadConfig());
  return { config, db: exitOnConfigError(() => openConfigured(config.databasePath, open)) };
}
