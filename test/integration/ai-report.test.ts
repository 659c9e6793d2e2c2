import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sampleReport } from '../../scripts/sample-ai-report';
import { seedSampleLedger } from '../../scripts/lib/ai-ledger-sample';
import { checkHtml } from '../helpers/html-checker';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT } from '../helpers/locations';

jest.setTimeout(60_000);

let app: TestApp;
beforeEach(() => {
  app = createTestApp();
});
afterEach(() => app.close());

/** npm run report:ai, as ops run it, while the site holds the database open. */
function report(args: string[]) {
  return spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'report-ai.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', DATABASE_PATH: app.config.databasePath, SITE_URL: 'https://www.citewise.example' },
    encoding: 'utf8',
  });
}

describe('npm run report:ai', () => {
  it('prints crawler fetches by company and page, referrals by assistant and landing page, and leads per day', () => {
    seedSampleLedger(app.db, '2026-11-21', 28);
    const sum = (sql: string) => (app.db.prepare(sql).get() as { n: number }).n;
    const result = report(['--days', '7', '--to', '2026-11-21']);
    expect(result.status).toBe(0);
    const text = result.stdout;
    expect(text).toContain('AI on www.citewise.example: 2026-11-15 to 2026-11-21 (7 days, UTC)');
    const openAi = sum("SELECT sum(count) AS n FROM ai_ledger WHERE source = 'crawler' AND family = 'OpenAI' AND day >= '2026-11-15'");
    expect(text).toMatch(new RegExp(`^OpenAI +${openAi} `, 'm'));
    const chatGpt = sum("SELECT sum(count) AS n FROM ai_ledger WHERE source = 'referral' AND family = 'ChatGPT' AND day >= '2026-11-15' AND path = '/'");
    expect(text).toMatch(new RegExp(`^ChatGPT +/ +${chatGpt}$`, 'm'));
    const leads = sum("SELECT count(*) AS n FROM audit_submissions WHERE created_at LIKE '2026-11-21%'");
    // The day's crawler fetches, assistant visits, AI-readiness checks (none seeded) and leads.
    expect(text).toMatch(new RegExp(`^2026-11-21 +\\d+ +\\d+ +0 +${leads}$`, 'm'));
    // Every page each crawler fetched, with its count: the family's first row names it.
    const openAiPages = app.db
      .prepare("SELECT path, sum(count) AS n FROM ai_ledger WHERE source = 'crawler' AND family = 'OpenAI' AND day >= '2026-11-15' GROUP BY path ORDER BY n DESC, path")
      .all() as { path: string; n: number }[];
    expect(openAiPages.length).toBeGreaterThan(3);
    const section = text.slice(text.indexOf('Crawler fetches by family and page'));
    const lines = section.split('\n');
    const first = lines.findIndex((line) => line.startsWith('OpenAI '));
    expect(lines.slice(first, first + openAiPages.length).map((line) => line.replace(/^OpenAI/, '').trim().split(/ +/))).toEqual(
      openAiPages.map((page) => [page.path, String(page.n)]),
    );
  });

  it('writes a self-contained HTML report with charts, valid, with every name escaped', async () => {
    seedSampleLedger(app.db, '2026-11-21', 28);
    app.db.prepare("INSERT INTO ai_ledger (day, path, source, family, agent, kind, count) VALUES ('2026-11-20', '/', 'crawler', '<script>alert(1)</script>', 'x', 'training', 1)").run();
    const out = path.join(app.dir, 'report.html');
    expect(report(['--to', '2026-11-21', '--out', out]).status).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).not.toMatch(/<script|<link|\ssrc=|url\(|https?:\/\/(?!www\.w3\.org)/);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(await checkHtml(new Map([['report', html]]))).toEqual([]);
  });

  it('refuses a bad option with a clear line', () => {
    const result = report(['--days', 'many']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('--days must be a whole number from 1 to 366, not many');
  });

  it('has a sample in docs/ that is what it makes today', () => {
    expect(readFileSync(path.join(ROOT, 'docs', 'sample-ai-report.html'), 'utf8')).toBe(sampleReport());
  });
});
