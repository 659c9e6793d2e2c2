// npm run report:ai -- [--days N] [--to YYYY-MM-DD] [--out FILE]
// What AI did on the site: crawler fetches by company and page, visits AI assistants sent, leads
// per day. Prints tables; --out also writes a self-contained HTML report with charts. Opens the
// database read-only, so it runs safely while the site serves.
import { writeFileSync } from 'node:fs';
import { openDatabaseReadOnly } from '../../server/db/database';
import { buildAiReport, renderHtmlReport, renderTextReport, reportDays } from '../../server/ledger/ai-report';
import { configuredDatabase, fail, parseOptions } from './cli';

const options = parseOptions(process.argv.slice(2), ['days', 'to', 'out']);
const days = options.days === undefined ? 28 : Number(options.days);
if (!Number.isInteger(days) || days < 1 || days > 366) fail(`--days must be a whole number from 1 to 366, not ${String(options.days)}`);
const to = options.to ?? new Date().toISOString().slice(0, 10);
if (typeof to !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(to) || Number.isNaN(Date.parse(to))) fail(`--to must be a date YYYY-MM-DD, not ${String(options.to)}`);

const { config, db } = configuredDatabase(openDatabaseReadOnly);
try {
  const report = buildAiReport(db, new URL(config.siteUrl).host, reportDays(to as string, days));
  process.stdout.write(renderTextReport(report));
  if (typeof options.out === 'string') {
    writeFileSync(options.out, renderHtmlReport(report, new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC'));
    console.error(`Wrote the HTML report to ${options.out}`);
  }
} finally {
  db.close();
}
