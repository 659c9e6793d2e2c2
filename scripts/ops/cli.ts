import { parseArgs } from 'node:util';
import '../../server/private-files';
import { exitOnConfigError, loadConfig, type Config } from '../../server/config';
import { openConfigured, type Db } from '../../server/db/database';

/**
 * Reads `--name value` options and `--flag`s with Node's own parser (util.parseArgs); an unknown
 * option, a stray word or a missing value stops the command with one clear line, exit status 2.
 */
export function parseOptions(argv: string[], known: string[], flags: string[] = []): Record<string, string | true> {
  const listed = [...known, ...flags].map((option) => `--${option}`).join(' ');
  // A value never starts with "--": "--id --send" is an option without its value, not an id.
  const missing = argv.findIndex((arg, index) => known.includes(arg.replace(/^--/, '')) && arg.startsWith('--') && (argv[index + 1] === undefined || argv[index + 1]?.startsWith('--')));
  if (missing !== -1) fail(`${argv[missing] ?? ''} needs a value`);
  try {
    const { values } = parseArgs({
      args: argv,
      options: Object.fromEntries([...known.map((name) => [name, { type: 'string' as const }]), ...flags.map((name) => [name, { type: 'boolean' as const }])]),
      strict: true,
      allowPositionals: false,
    });
    const options: Record<string, string | true> = {};
    for (const [name, value] of Object.entries(values)) if (typeof value === 'string' || value === true) options[name] = value;
    return options;
  } catch (error) {
    // Node names the word it could not take in quotes: an option it does not know, or a stray word.
    const word = /'([^']*)'/.exec(error instanceof Error ? error.message : '')?.[1]?.split('=')[0];
    fail(`Unknown argument ${word ?? argv.join(' ')}. Options: ${listed}`);
  }
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
