import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { assertLoopback, ensureBuilt, measuredPages, startSiteServer, stopOnExit, type RunningServer } from './bench/processes';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/chromium';
import { median } from './lib/median';

/**
 * `npm run lighthouse [-- --all | --path /page ...] [--runs 3] [--desktop]`: Lighthouse 12 in Debian's Chromium
 * against the built server on 127.0.0.1, with its mobile defaults (emulated phone, simulated slow
 * 4G and 4x CPU slowdown) or, with --desktop, its desktop ones. Pages: /, an article and
 * /free-audit; with --all, every route (the sitemap's, the pages kept out of it, and the 404
 * page). Each page is measured `runs` times for performance (the table shows the median of each
 * figure across the runs) and once more for accessibility, best practices and SEO. Prints one
 * table and exits 1 when a page misses a target: performance 100 with LCP at most 1.2 s, TBT at
 * most 50 ms and CLS 0, and no failed audit in the other categories but those a page fails by
 * design (BY_DESIGN). The full reports go to a temporary folder, named at the end.
 *
 * Lighthouse multiplies the CPU time it observes, so a busy machine lowers every score: each run
 * records Lighthouse's benchmarkIndex (this machine's speed at that moment), printed per page, and
 * the load average is printed before and after.
 */

// The new headless mode renders like a headed browser, which is what Lighthouse should measure.
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

const TARGETS = { score: 100, lcpMs: 1200, tbtMs: 50, cls: 0 };

/** A path that is no page: the 404 page, which is served like any other. */
const MISSING_PAGE = '/no-such-page';

/**
 * Audits a page fails on purpose. A page kept out of search results (the thank-you page, the 404
 * page) says noindex; the 404 page answers 404, which Chromium also logs as a console error.
 */
const BY_DESIGN = { noindex: ['is-crawlable'], missing: ['is-crawlable', 'http-status-code', 'errors-in-console'] };

interface Options {
  runs: number;
  all: boolean;
  desktop: boolean;
  /** Only these pages (--path, repeatable). */
  paths: string[];
}

function parseOptions(argv: string[]): Options {
  const options: Options = { runs: 3, all: false, desktop: false, paths: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const runs = Number(argv[i + 1]);
    if (arg === '--all') options.all = true;
    else if (arg === '--desktop') options.desktop = true;
    else if (arg === '--path' && argv[i + 1]?.startsWith('/')) {
      options.paths.push(argv[i + 1] ?? '/');
      i += 1;
    }
    else if (arg === '--runs' && Number.isInteger(runs) && runs > 0) {
      options.runs = runs;
      i += 1;
    } else throw new Error('Usage: npm run lighthouse [-- --all | --path /page ...] [--runs N] [--desktop]');
  }
  return options;
}

interface PerformanceRun {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's measure of this machine's speed during the run: a slower or busier machine shows a slower page. */
  benchmarkIndex: number;
  /** Performance audits that lost points, for the reader to act on. */
  advice: string[];
}

interface PageResult {
  path: string;
  runs: PerformanceRun[];
  /** Each figure's median across the runs. */
  median: Omit<PerformanceRun, 'advice'>;
  categories: { accessibility: number; bestPractices: number; seo: number };
  /** Audits that failed in those categories, but those the page fails by design. */
  failedAudits: string[];
}

type RunnerResult = NonNullable<Awaited<ReturnType<typeof import('lighthouse')['default']>>>;

const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100);

function performanceRun({ lhr }: RunnerResult): PerformanceRun {
  const audit = (id: string) => lhr.audits[id];
  const advice = (lhr.categories.performance?.auditRefs ?? [])
    .map((ref) => audit(ref.id))
    .filter((item): item is NonNullable<typeof item> => Boolean(item && item.score !== null && item.score < 0.9 && item.scoreDisplayMode !== 'informative'))
    .map((item) => `${item.title}${item.displayValue ? `: ${item.displayValue}` : ''}`);
  return {
    score: score(lhr.categories.performance?.score),
    fcpMs: audit('first-contentful-paint')?.numericValue ?? NaN,
    lcpMs: audit('largest-contentful-paint')?.numericValue ?? NaN,
    tbtMs: audit('total-blocking-time')?.numericValue ?? NaN,
    cls: audit('cumulative-layout-shift')?.numericValue ?? NaN,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    advice,
  };
}

function failures({ median: figures, failedAudits }: PageResult): string[] {
  const found: string[] = [];
  if (figures.score < TARGETS.score) found.push(`performance ${figures.score}`);
  if (figures.lcpMs > TARGETS.lcpMs) found.push(`LCP ${Math.round(figures.lcpMs)} ms`);
  if (figures.tbtMs > TARGETS.tbtMs) found.push(`TBT ${Math.round(figures.tbtMs)} ms`);
  if (figures.cls > TARGETS.cls) found.push(`CLS ${figures.cls.toFixed(3)}`);
  return [...found, ...failedAudits];
}

const reportName = (pagePath: string) => (pagePath === '/' ? 'home' : pagePath.replaceAll('/', '-').slice(1));

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  ensureBuilt();
  // ES modules only; imported here, as the build must have written shared/generated/ first.
  const { default: lighthouse } = await import('lighthouse');
  const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
  const chromeLauncher = await import('chrome-launcher');
  const { appRoutes, NOT_FOUND_PATH } = await import('../client/routes');
  const { indexablePaths } = await import('../server/seo/seo-sources');
  // Every page once: an alias (sitemap: false) shows a page that is already on the list.
  const everyRoute = [...appRoutes.filter((route) => route.path !== NOT_FOUND_PATH && route.sitemap !== false).map((route) => route.path), MISSING_PAGE];
  const paths = options.all ? everyRoute : options.paths.length > 0 ? options.paths : await measuredPages();
  const indexable = new Set(indexablePaths(appRoutes));
  const byDesign = (pagePath: string) => (pagePath === MISSING_PAGE ? BY_DESIGN.missing : indexable.has(pagePath) ? [] : BY_DESIGN.noindex);
  const config = options.desktop ? desktopConfig : undefined;

  const reportDir = mkdtempSync(path.join(tmpdir(), 'citewise-lighthouse-'));
  const servers: RunningServer[] = [];
  const stopAll = stopOnExit(servers);
  const results: PageResult[] = [];
  const loadBefore = loadavg();
  let chrome: Awaited<ReturnType<typeof chromeLauncher.launch>> | undefined;
  try {
    // http, not https: on https the CSP's upgrade-insecure-requests would send assets to a port
    // that speaks no TLS.
    const site = await startSiteServer((url) => url);
    servers.push(site);
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
    const port = chrome.port;
    const run = async (pagePath: string, categories: string[], name: string) => {
      const url = `${site.url}${pagePath}`;
      assertLoopback(url);
      // The 404 page is measured as the page it is, status and all.
      const flags = { port, output: ['html', 'json'] as ('html' | 'json')[], logLevel: 'error' as const, onlyCategories: categories, ignoreStatusCode: pagePath === MISSING_PAGE };
      let result = await lighthouse(url, flags, config);
      // On a busy machine Lighthouse now and then loses the trace of a load (NO_NAVSTART): try again.
      for (let retry = 1; result?.lhr.runtimeError && retry <= 2; retry += 1) {
        console.log(`  ${pagePath}: ${result.lhr.runtimeError.code}, running it again`);
        result = await lighthouse(url, flags, config);
      }
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      if (result.lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${result.lhr.runtimeError.message}`);
      const [html = '', json = ''] = Array.isArray(result.report) ? result.report : [result.report];
      writeFileSync(path.join(reportDir, `${reportName(pagePath)}-${name}.html`), html);
      writeFileSync(path.join(reportDir, `${reportName(pagePath)}-${name}.json`), json);
      return result;
    };
    for (const pagePath of paths) {
      const runs: PerformanceRun[] = [];
      for (let attempt = 1; attempt <= options.runs; attempt += 1) runs.push(performanceRun(await run(pagePath, ['performance'], `performance-${attempt}`)));
      const { lhr } = await run(pagePath, ['accessibility', 'best-practices', 'seo'], 'other-categories');
      const failedAudits = (['accessibility', 'best-practices', 'seo'] as const).flatMap((category) =>
        (lhr.categories[category]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1 && !byDesign(pagePath).includes(ref.id))
          .map((ref) => `${category}: ${lhr.audits[ref.id]?.title ?? ref.id}`),
      );
      // Single runs vary on any machine: each figure is the median of its runs.
      const figure = (pick: (run: PerformanceRun) => number) => median(runs.map(pick));
      results.push({
        path: pagePath,
        runs,
        median: {
          score: figure((run) => run.score),
          fcpMs: figure((run) => run.fcpMs),
          lcpMs: figure((run) => run.lcpMs),
          tbtMs: figure((run) => run.tbtMs),
          cls: figure((run) => run.cls),
          benchmarkIndex: figure((run) => run.benchmarkIndex),
        },
        categories: { accessibility: score(lhr.categories.accessibility?.score), bestPractices: score(lhr.categories['best-practices']?.score), seo: score(lhr.categories.seo?.score) },
        failedAudits,
      });
      console.log(`  ${pagePath}: ${runs.map((each) => `${each.score} (benchmarkIndex ${Math.round(each.benchmarkIndex)})`).join(', ')}`);
    }
  } finally {
    await chrome?.kill();
    await stopAll();
  }

  const loadAfter = loadavg();
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  const indices = results.flatMap((result) => result.runs.map((each) => Math.round(each.benchmarkIndex)));
  console.log(
    `\nLighthouse 12, ${options.desktop ? 'desktop' : 'mobile'} defaults, Chromium ${CHROMIUM_PATH}, ${availableParallelism()} cores, Node ${process.version}, ` +
      `${new Date().toISOString().slice(0, 10)}; each figure the median of ${options.runs} run${options.runs > 1 ? 's' : ''}; ` +
      `benchmarkIndex ${Math.min(...indices)} to ${Math.max(...indices)}; load average ${load(loadBefore)} before, ${load(loadAfter)} after`,
  );
  const header = ['page', 'performance', 'LCP', 'TBT', 'CLS', 'a11y', 'best pr.', 'SEO', 'benchmarkIndex'];
  const rows = results.map(({ path: pagePath, median, categories }) => [
    `\`${pagePath}\``,
    String(median.score),
    `${(median.lcpMs / 1000).toFixed(1)} s`,
    `${Math.round(median.tbtMs)} ms`,
    String(Number(median.cls.toFixed(3))),
    String(categories.accessibility),
    String(categories.bestPractices),
    String(categories.seo),
    String(Math.round(median.benchmarkIndex)),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width, column) => (column === 0 ? `${'-'.repeat(width + 2)}|` : `${'-'.repeat(width + 1)}:|`)).join('')}`);
  for (const row of rows) console.log(line(row));

  const missed = results.map((result) => ({ result, found: failures(result) })).filter(({ found }) => found.length > 0);
  for (const { result, found } of missed) {
    console.error(`${result.path}: ${found.join(', ')}`);
    for (const advice of new Set(result.runs.flatMap((run) => run.advice))) console.error(`    ${advice}`);
  }
  console.log(`reports: ${reportDir}`);
  if (missed.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
