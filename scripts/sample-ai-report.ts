// npx tsx scripts/sample-ai-report.ts: writes docs/sample-ai-report.html, the AI report over a
// made-up month (test/helpers/ai-ledger-sample.ts), to show what `npm run report:ai` makes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from '../server/db/database';
import { buildAiReport, renderHtmlReport, reportDays } from '../server/ledger/ai-report';
import { seedSampleLedger } from './lib/ai-ledger-sample';

export const SAMPLE = { to: '2026-11-21', days: 28, site: 'www.citewise.example', made: 'from sample data (not real traffic)' };

/** The sample report's HTML: the same every time. */
export function sampleReport(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-sample-report-'));
  try {
    const db = openDatabase(path.join(dir, 'site.db'));
    migrate(db);
    seedSampleLedger(db, SAMPLE.to, SAMPLE.days);
    const html = renderHtmlReport(buildAiReport(db, SAMPLE.site, reportDays(SAMPLE.to, SAMPLE.days)), SAMPLE.made);
    db.close();
    return html;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const out = path.resolve(__dirname, '..', 'docs', 'sample-ai-report.html');
  writeFileSync(out, sampleReport());
  console.log(`Wrote ${out}`);
}
