// npm run export:csv -- [--table audit|contact|quarantine|checks|clients | --checks | --clients] [--since YYYY-MM-DD] [--out FILE] [--no-bom]
// Writes the leads (or the held submissions, the public AI-readiness checks, or the monitored clients' runs, one row a run) as CSV (stdout by
// default). Opens the database read-only, so it runs safely while the site serves.
import { writeFileSync } from 'node:fs';
import { openDatabaseReadOnly } from '../../server/db/database';
import { exportCsv, type ExportTable } from '../../server/ops/csv-export';
import { configuredDatabase, fail, parseOptions } from './cli';

const options = parseOptions(process.argv.slice(2), ['table', 'since', 'out'], ['no-bom', 'checks', 'clients']);
if ([options.checks, options.clients, options.table].filter((given) => given !== undefined).length > 1) fail('--checks is --table checks, --clients is --table clients: give one of them');
const table = options.checks ? 'checks' : options.clients ? 'clients' : (options.table ?? 'audit');
if (table !== 'audit' && table !== 'contact' && table !== 'quarantine' && table !== 'checks' && table !== 'clients') fail(`--table must be audit, contact, quarantine, checks or clients, not ${String(table)}`);
const since = options.since;
if (since !== undefined && (typeof since !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(since)))) {
  fail(`--since must be a date YYYY-MM-DD, not ${String(since)}`);
}

const { db } = configuredDatabase(openDatabaseReadOnly);
try {
  const { csv, rows } = exportCsv(db, table as ExportTable, typeof since === 'string' ? since : undefined);
  // A byte-order mark, so that spreadsheet programs read the file as UTF-8 (£, accents).
  const output = options['no-bom'] ? csv : `\uFEFF${csv}`;
  if (typeof options.out === 'string') {
    writeFileSync(options.out, output);
    console.error(`Wrote ${rows} ${table} rows to ${options.out}`);
  } else {
    process.stdout.write(output);
  }
} finally {
  db.close();
}
