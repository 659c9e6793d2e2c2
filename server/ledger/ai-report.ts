import { escapeHtml } from '../../shared/escape-html';
import type { Db } from '../db/database';

/** What the ledger and the lead tables say about a period of whole UTC days. */
export interface AiReport {
  site: string;
  days: string[];
  /** Crawler fetches per family: by kind, by day and by page. */
  crawlers: { family: string; total: number; byKind: Record<string, number>; byDay: number[]; pages: { path: string; count: number }[] }[];
  /** Visits each assistant sent: by day and by landing page. */
  referrals: { assistant: string; total: number; byDay: number[]; pages: { path: string; count: number }[] }[];
  /** Leads stored per day (both forms). */
  leads: number[];
  /** Public AI-readiness checks asked for per day (kept 30 days: older days count none). */
  checks: number[];
}

const KINDS = ['training', 'search', 'user'] as const;

/** The days from `to` back `count` days, oldest first, as YYYY-MM-DD. */
export function reportDays(to: string, count: number): string[] {
  const end = Date.parse(`${to}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10));
}

/** Reads the period from the database (read-only: safe while the site runs). */
export function buildAiReport(db: Db, site: string, days: string[]): AiReport {
  const from = days[0] ?? '';
  const to = days.at(-1) ?? '';
  const dayIndex = new Map(days.map((day, index) => [day, index]));
  const rows = db
    .prepare<[string, string], { day: string; path: string; source: string; family: string; kind: string; count: number }>(
      `SELECT day, path, source, family, kind, sum(count) AS count FROM ai_ledger WHERE day BETWEEN ? AND ? GROUP BY day, path, source, family, kind`,
    )
    .all(from, to);

  interface Tally {
    name: string;
    total: number;
    byKind: Record<string, number>;
    byDay: number[];
    pageCounts: Map<string, number>;
  }
  const tallies = { crawler: new Map<string, Tally>(), referral: new Map<string, Tally>() };
  for (const row of rows) {
    const index = dayIndex.get(row.day);
    const bucket = row.source === 'crawler' ? tallies.crawler : tallies.referral;
    if (index === undefined) continue;
    const tally = bucket.get(row.family) ?? { name: row.family, total: 0, byKind: {}, byDay: days.map(() => 0), pageCounts: new Map<string, number>() };
    bucket.set(row.family, tally);
    tally.total += row.count;
    tally.byDay[index] = (tally.byDay[index] ?? 0) + row.count;
    tally.byKind[row.kind] = (tally.byKind[row.kind] ?? 0) + row.count;
    tally.pageCounts.set(row.path, (tally.pageCounts.get(row.path) ?? 0) + row.count);
  }
  const ranked = (bucket: Map<string, Tally>) =>
    [...bucket.values()]
      .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name))
      .map((tally) => ({
        ...tally,
        pages: [...tally.pageCounts].map(([path, count]) => ({ path, count })).sort((a, b) => b.count - a.count || a.path.localeCompare(b.path)),
      }));

  const leadRows = db
    .prepare<[string, string, string, string], { day: string; n: number }>(
      `SELECT day, count(*) AS n FROM (
         SELECT substr(created_at, 1, 10) AS day FROM audit_submissions WHERE substr(created_at, 1, 10) BETWEEN ? AND ?
         UNION ALL
         SELECT substr(created_at, 1, 10) FROM contact_messages WHERE substr(created_at, 1, 10) BETWEEN ? AND ?
       ) GROUP BY day`,
    )
    .all(from, to, from, to);
  const leads = days.map(() => 0);
  for (const row of leadRows) {
    const index = dayIndex.get(row.day);
    if (index !== undefined) leads[index] = row.n;
  }
  const checks = days.map(() => 0);
  const checkRows = db
    .prepare<[string, string], { day: string; n: number }>(
      `SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM site_checks WHERE audit_id IS NULL AND substr(created_at, 1, 10) BETWEEN ? AND ? GROUP BY day`,
    )
    .all(from, to);
  for (const row of checkRows) {
    const index = dayIndex.get(row.day);
    if (index !== undefined) checks[index] = row.n;
  }
  return {
    site,
    days,
    crawlers: ranked(tallies.crawler).map((tally) => ({ family: tally.name, total: tally.total, byKind: tally.byKind, byDay: tally.byDay, pages: tally.pages })),
    referrals: ranked(tallies.referral).map((tally) => ({ assistant: tally.name, total: tally.total, byDay: tally.byDay, pages: tally.pages })),
    leads,
    checks,
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const dayCount = (days: readonly string[]) => `${days.length} ${days.length === 1 ? 'day' : 'days'}`;

/** Plain-text tables for the terminal. */
export function renderTextReport(report: AiReport): string {
  const table = (header: string[], rows: (string | number)[][]) => {
    const cells = [header, ...rows.map((row) => row.map(String))];
    const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
    return cells.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')).join('\n');
  };
  const period = `${report.days[0]} to ${report.days.at(-1)} (${dayCount(report.days)}, UTC)`;
  const crawlerRows = report.crawlers.map((entry) => [entry.family, entry.total, ...KINDS.map((kind) => entry.byKind[kind] ?? 0)]);
  const crawlerPageRows = report.crawlers.flatMap((entry) => entry.pages.map((page, index) => [index === 0 ? entry.family : '', page.path, page.count]));
  const referralRows = report.referrals.flatMap((entry) => entry.pages.map((page, index) => [index === 0 ? entry.assistant : '', page.path, page.count]));
  const leadRows = report.days.map((day, index) => [
    day,
    sum(report.crawlers.map((entry) => entry.byDay[index] ?? 0)),
    sum(report.referrals.map((entry) => entry.byDay[index] ?? 0)),
    report.checks[index] ?? 0,
    report.leads[index] ?? 0,
  ]);
  return [
    `AI on ${report.site}: ${period}`,
    '',
    'Crawler fetches by family',
    crawlerRows.length > 0 ? table(['family', 'fetches', ...KINDS], crawlerRows) : '  none',
    '',
    'Crawler fetches by family and page',
    crawlerPageRows.length > 0 ? table(['family', 'page', 'fetches'], crawlerPageRows) : '  none',
    '',
    'AI referrals by assistant and landing page',
    referralRows.length > 0 ? table(['assistant', 'landing page', 'visits'], referralRows) : '  none',
    '',
    'Per day',
    table(['day', 'AI fetches', 'AI referrals', 'AI-readiness checks', 'leads'], leadRows),
    '',
  ].join('\n');
}

const PALETTE = ['#6d28d9', '#2563eb', '#0891b2', '#059669', '#d97706', '#db2777', '#475569', '#65a30d', '#dc2626', '#0d9488'];

/** A stacked bar chart as inline SVG: one bar per day, one colour per series. */
function stackedBars(days: string[], series: { name: string; values: number[] }[], title: string): string {
  const width = 760;
  const height = 220;
  const left = 40;
  const bottom = 28;
  const top = 10;
  const totals = days.map((_, index) => sum(series.map((entry) => entry.values[index] ?? 0)));
  const max = Math.max(1, ...totals);
  const step = (width - left - 8) / Math.max(1, days.length);
  const barWidth = Math.max(2, step * 0.7);
  const y = (value: number) => top + (height - top - bottom) * (1 - value / max);
  const bars = days.flatMap((day, index) => {
    let base = 0;
    return series.flatMap((entry, seriesIndex) => {
      const value = entry.values[index] ?? 0;
      if (value === 0) return [];
      const rect = `<rect x="${(left + index * step + (step - barWidth) / 2).toFixed(1)}" y="${y(base + value).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(y(base) - y(base + value)).toFixed(1)}" fill="${PALETTE[seriesIndex % PALETTE.length]}"><title>${escapeHtml(`${day} ${entry.name}: ${value}`)}</title></rect>`;
      base += value;
      return [rect];
    });
  });
  const labelEvery = Math.ceil(days.length / 8);
  const labels = days
    .map((day, index) => (index % labelEvery === 0 ? `<text x="${(left + index * step + step / 2).toFixed(1)}" y="${height - 8}" text-anchor="middle">${escapeHtml(day.slice(5))}</text>` : ''))
    .join('');
  const grid = [0, 0.5, 1]
    .map((fraction) => {
      const value = Math.round(max * fraction);
      return `<line x1="${left}" x2="${width - 8}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#e2e8f0"/><text x="${left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${value}</text>`;
    })
    .join('');
  const legend = series.map((entry, index) => `<li><span style="background:${PALETTE[index % PALETTE.length]}"></span>${escapeHtml(entry.name)}</li>`).join('');
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}" font-size="11" fill="#475569">${grid}${bars.join('')}${labels}</svg><ul class="legend">${legend}</ul></figure>`;
}

/** A self-contained HTML page (no script, no external file) to keep or to show a client. */
export function renderHtmlReport(report: AiReport, generatedAt: string): string {
  const period = `${report.days[0]} to ${report.days.at(-1)}`;
  const totalFetches = sum(report.crawlers.map((entry) => entry.total));
  const totalReferrals = sum(report.referrals.map((entry) => entry.total));
  const totalLeads = sum(report.leads);
  const row = (cells: (string | number)[]) =>
    `<tr>${cells.map((cell, index) => (index === 0 ? `<th scope="row">${escapeHtml(String(cell))}</th>` : `<td${typeof cell === 'string' ? ' class="pages"' : ''}>${escapeHtml(String(cell))}</td>`)).join('')}</tr>`;
  const crawlerTable = report.crawlers.map((entry) => row([entry.family, entry.total, ...KINDS.map((kind) => entry.byKind[kind] ?? 0)])).join('');
  const crawlerPageTable = report.crawlers.flatMap((entry) => entry.pages.map((page) => row([entry.family, page.path, page.count]))).join('');
  const referralTable = report.referrals.flatMap((entry) => entry.pages.map((page) => row([entry.assistant, page.path, page.count]))).join('');
  const dayTable = report.days
    .map((day, index) => row([day, sum(report.crawlers.map((entry) => entry.byDay[index] ?? 0)), sum(report.referrals.map((entry) => entry.byDay[index] ?? 0)), report.checks[index] ?? 0, report.leads[index] ?? 0]))
    .join('');
  const none = (colspan: number) => `<tr><td colspan="${colspan}">None in this period.</td></tr>`;
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>AI on ${escapeHtml(report.site)}: ${escapeHtml(period)}</title>
<style>
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#0f172a;background:#f8fafc}
main{max-width:820px;margin:0 auto;padding:32px 20px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:18px;margin:36px 0 12px}h3{font-size:15px;margin:20px 0 8px}
.lead{color:#475569;margin:0 0 24px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin:0;padding:0;list-style:none}
.figures li{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:14px 16px}
.figures strong{display:block;font-size:28px;color:#4c1d95}
figure{margin:0 0 8px;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:16px}
figcaption{font-weight:600;margin-bottom:8px}
svg{width:100%;height:auto;display:block}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;margin:8px 0 0;padding:0;list-style:none;font-size:13px;color:#475569}
.legend span{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #e2e8f0;border-radius:12px;font-size:14px}
th,td{padding:8px 10px;border-bottom:1px solid #e2e8f0;text-align:right}
th:first-child,td:first-child,thead th,td.pages{text-align:left}tbody tr:last-child>*{border-bottom:0}
footer{margin-top:32px;color:#64748b;font-size:13px}
</style>
</head>
<body>
<main>
<h1>What AI did on ${escapeHtml(report.site)}</h1>
<p class="lead">${escapeHtml(period)} (${dayCount(report.days)}, UTC). AI crawlers reading the site, AI assistants sending visitors, the free AI-readiness checks visitors ran, and the leads that arrived.</p>
<ul class="figures">
<li><strong>${totalFetches.toLocaleString('en-GB')}</strong>fetches by AI crawlers</li>
<li><strong>${report.crawlers.length}</strong>AI companies reading the site</li>
<li><strong>${totalReferrals.toLocaleString('en-GB')}</strong>visits sent by AI assistants</li>
<li><strong>${sum(report.checks).toLocaleString('en-GB')}</strong>free AI-readiness checks</li>
<li><strong>${totalLeads.toLocaleString('en-GB')}</strong>leads</li>
</ul>
<h2>AI crawlers</h2>
${stackedBars(report.days, report.crawlers.map((entry) => ({ name: entry.family, values: entry.byDay })), 'Fetches by AI crawlers per day, by company')}
<table><thead><tr><th scope="col">Company</th><th scope="col">Fetches</th><th scope="col">Training</th><th scope="col">Search</th><th scope="col">For a user</th></tr></thead><tbody>${crawlerTable || none(5)}</tbody></table>
<h3>What each company fetched</h3>
<table><thead><tr><th scope="col">Company</th><th scope="col">Page</th><th scope="col">Fetches</th></tr></thead><tbody>${crawlerPageTable || none(3)}</tbody></table>
<h2>Visits from AI assistants</h2>
${stackedBars(report.days, report.referrals.map((entry) => ({ name: entry.assistant, values: entry.byDay })), 'Visits sent by AI assistants per day')}
<table><thead><tr><th scope="col">Assistant</th><th scope="col">Landing page</th><th scope="col">Visits</th></tr></thead><tbody>${referralTable || none(3)}</tbody></table>
<h2>Leads</h2>
${stackedBars(report.days, [{ name: 'Free AI-readiness checks', values: report.checks }, { name: 'Leads (audit requests and messages)', values: report.leads }], 'AI-readiness checks and leads per day')}
<h2>Day by day</h2>
<table><thead><tr><th scope="col">Day</th><th scope="col">AI fetches</th><th scope="col">AI referrals</th><th scope="col">AI-readiness checks</th><th scope="col">Leads</th></tr></thead><tbody>${dayTable}</tbody></table>
<footer>Counts only: no cookie, no address and no person is recorded. Crawlers are recognised by their user agent; visits from assistants by the page they came from or a utm_source. Made ${escapeHtml(generatedAt)}.</footer>
</main>
</body>
</html>
`;
}
