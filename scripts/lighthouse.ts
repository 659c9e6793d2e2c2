import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { assertLoopback, ensureBuilt, startSiteServer, stopOnExit, type RunningServer } from './bench/processes';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/chromium';

/**
 * `npm run lighthouse [-- --runs 3]`: Lighthouse 12 with its mobile defaults (emulated phone,
 * simulated slow 4G and 4x CPU slowdown) in Debian's Chromium, against the built server on
 * 127.0.0.1, for /, an article and /free-audit. Prints performance, LCP, CLS and TBT (the median
 * run of each page) and fails when a page scores under 95, or its CLS reaches 0.05 or its TBT
 * 150 ms. The full reports are written to a temporary folder, named at the end.
 */

// The new headless mode renders like a headed browser, which is what Lighthouse should measure.
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

const THRESHOLDS = { performance: 95, cls: 0.05, tbtMs: 150 };

interface PageResult {
  path: string;
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  /** Lighthouse's measure of this machine's speed during the run: a slower or busier machine shows a slower page. */
  benchmarkIndex: number;
  /** Performance audits that lost points, for the reader to act on. */
  advice: string[];
  report: string;
}

function parseRuns(argv: string[]): number {
  if (argv.length === 0) return 3;
  const runs = Number(argv[1]);
  if (argv[0] !== '--runs' || !Number.isInteger(runs) || runs < 1 || argv.length > 2) throw new Error('Usage: npm run lighthouse [-- --runs N]');
  return runs;
}

async function main(): Promise<void> {
  const runs = parseRuns(process.argv.slice(2));
  ensureBuilt();
  // ES modules only; imported here, as the build must have written shared/generated/ first.
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const { articles } = await import('../shared/generated/articles');
  const { routesPaths } = await import('../shared/site');
  const article = articles[0];
  if (!article) throw new Error('The site has no article');
  const paths = [routesPaths.home, article.path, routesPaths.freeAudit];

  const reportDir = mkdtempSync(path.join(tmpdir(), 'citewise-lighthouse-'));
  const servers: RunningServer[] = [];
  const stopAll = stopOnExit(servers);
  const results: PageResult[] = [];
  let chrome: Awaited<ReturnType<typeof chromeLauncher.launch>> | undefined;
  try {
    // http, not https: on https the CSP's upgrade-insecure-requests would send assets to a port
    // that speaks no TLS.
    const site = await startSiteServer((url) => url);
    servers.push(site);
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
    for (const pagePath of paths) {
      const url = `${site.url}${pagePath}`;
      assertLoopback(url);
      const pageRuns: PageResult[] = [];
      for (let run = 1; run <= runs; run += 1) {
        const result = await lighthouse(url, { port: chrome.port, output: ['html', 'json'], logLevel: 'error', onlyCategories: ['performance'] });
        if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
        const { lhr } = result;
        if (lhr.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${lhr.runtimeError.message}`);
        const audit = (id: string) => lhr.audits[id];
        const report = path.join(reportDir, `${pagePath === '/' ? 'home' : pagePath.replaceAll('/', '-').slice(1)}-${run}`);
        const [html = '', json = ''] = Array.isArray(result.report) ? result.report : [result.report];
        writeFileSync(`${report}.html`, html);
        writeFileSync(`${report}.json`, json);
        const advice = (lhr.categories.performance?.auditRefs ?? [])
          .map((ref) => audit(ref.id))
          .filter((item): item is NonNullable<typeof item> => Boolean(item && item.score !== null && item.score < 0.9 && item.scoreDisplayMode !== 'informative'))
          .map((item) => `${item.title}${item.displayValue ? `: ${item.displayValue}` : ''}`);
        pageRuns.push({
          path: pagePath,
          performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: audit('largest-contentful-paint')?.numericValue ?? NaN,
          cls: audit('cumulative-layout-shift')?.numericValue ?? NaN,
          tbtMs: audit('total-blocking-time')?.numericValue ?? NaN,
          fcpMs: audit('first-contentful-paint')?.numericValue ?? NaN,
          benchmarkIndex: lhr.environment.benchmarkIndex,
          advice,
          report,
        });
      }
      // The median run by score, as Lighthouse's own guidance suggests for variable machines.
      const sorted = [...pageRuns].sort((a, b) => a.performance - b.performance);
      const median = sorted[Math.floor(sorted.length / 2)];
      if (median) results.push(median);
      console.log(`  ${pagePath}: ${pageRuns.map((run) => run.performance).join(', ')}`);
    }
  } finally {
    await chrome?.kill();
    await stopAll();
  }

  console.log(`\nLighthouse 12, mobile defaults, Chromium ${CHROMIUM_PATH}, ${availableParallelism()} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; median of ${runs} run${runs > 1 ? 's' : ''}`);
  console.log(`${'path'.padEnd(36)} ${'perf'.padStart(4)} ${'FCP'.padStart(8)} ${'LCP'.padStart(8)} ${'CLS'.padStart(6)} ${'TBT'.padStart(7)} ${'benchmarkIndex'.padStart(14)}`);
  const failures: string[] = [];
  for (const result of results) {
    console.log(
      `${result.path.padEnd(36)} ${String(result.performance).padStart(4)} ${`${Math.round(result.fcpMs)} ms`.padStart(8)} ${`${Math.round(result.lcpMs)} ms`.padStart(8)} ${result.cls.toFixed(3).padStart(6)} ${`${Math.round(result.tbtMs)} ms`.padStart(7)} ${String(Math.round(result.benchmarkIndex)).padStart(14)}`,
    );
    if (result.performance < THRESHOLDS.performance) failures.push(`${result.path}: performance ${result.performance}, under ${THRESHOLDS.performance}`);
    if (result.cls >= THRESHOLDS.cls) failures.push(`${result.path}: CLS ${result.cls.toFixed(3)}, not under ${THRESHOLDS.cls}`);
    if (result.tbtMs >= THRESHOLDS.tbtMs) failures.push(`${result.path}: TBT ${Math.round(result.tbtMs)} ms, not under ${THRESHOLDS.tbtMs} ms`);
    for (const line of result.advice) console.log(`    ${line}`);
  }
  console.log(`reports: ${reportDir}`);
  for (const failure of failures) console.error(failure);
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
