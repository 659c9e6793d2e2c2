import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { assertLoopback, ensureBuilt, measuredPages, startSiteServer, stopOnExit, type RunningServer } from './bench/processes';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/chromium';
import { median } from './lib/median';

/**
 * `npm run hydration-time [-- --runs 5 --compare DIST]`: how long a visitor on a slow phone waits
 * for a working page (menu, accordion, forms). Chromium is put under Lighthouse's own mobile
 * conditions, applied for real rather than simulated: its slow 4G (request latency, download and
 * upload throughput), 4x CPU slowdown, phone screen and user agent. Each run opens the page in a
 * fresh context (nothing cached) and reads the time from navigation start to the app's hydrated
 * mark (<html data-hydrated>), and to the first contentful paint. Prints the median of each, for
 * /, an article and /free-audit. `--compare DIST` measures another build (its dist/ folder, for
 * example the previous commit's) in the same session, its runs taking turns with this build's, so
 * that a busy spell on the machine weighs on both.
 */

interface Options {
  runs: number;
  compare: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { runs: 5, compare: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--runs' && Number.isInteger(Number(value)) && Number(value) > 0) options.runs = Number(value);
    else if (flag === '--compare' && value) options.compare = path.resolve(value);
    else throw new Error('Usage: npm run hydration-time [-- --runs N] [--compare path/to/other/dist]');
  }
  return options;
}

interface Timing {
  firstPaintMs: number;
  hydratedMs: number;
}

/** Records, in the page, when the app marks the document hydrated (navigation start is 0). */
const RECORD_HYDRATED = `new MutationObserver((_, observer) => {
  if (document.documentElement?.dataset.hydrated !== 'true') return;
  window.__hydratedAt = performance.now();
  observer.disconnect();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });`;

async function measure(browser: Browser, url: string): Promise<Timing> {
  assertLoopback(url);
  // ES modules only: Lighthouse's mobile conditions, as its own runs use them.
  const { throttling, screenEmulationMetrics, userAgents } = await import('lighthouse/core/config/constants.js');
  const network = throttling.mobileSlow4G;
  const screen = screenEmulationMetrics.mobile;
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    deviceScaleFactor: screen.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    userAgent: userAgents.mobile,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(RECORD_HYDRATED);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // The same conversion Lighthouse's devtools throttling makes (kilobits to bytes per second).
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: network.requestLatencyMs,
      downloadThroughput: (network.downloadThroughputKbps * 1024) / 8,
      uploadThroughput: (network.uploadThroughputKbps * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: network.cpuSlowdownMultiplier });
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    await page.waitForFunction(() => typeof (window as { __hydratedAt?: number }).__hydratedAt === 'number', undefined, { timeout: 60_000, polling: 100 });
    return await page.evaluate(() => ({
      firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      hydratedMs: (window as { __hydratedAt?: number }).__hydratedAt ?? NaN,
    }));
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  ensureBuilt();
  const compareEntry = options.compare && path.join(options.compare, 'server', 'index.js');
  if (compareEntry && !existsSync(compareEntry)) throw new Error(`${compareEntry} does not exist: --compare takes a built dist/ folder`);
  const paths = await measuredPages();

  const servers: RunningServer[] = [];
  const stopAll = stopOnExit(servers);
  const builds: { name: string; server: RunningServer }[] = [];
  const timings = new Map<string, Timing[]>();
  let browser: Browser | undefined;
  try {
    // http: on https the CSP would upgrade every asset request to a port that speaks no TLS.
    const own = await startSiteServer((url) => url);
    servers.push(own);
    builds.push({ name: 'this build', server: own });
    if (compareEntry) {
      const other = await startSiteServer((url) => url, {}, compareEntry);
      servers.push(other);
      builds.push({ name: options.compare ?? '', server: other });
    }
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    for (const pagePath of paths) {
      for (let run = 1; run <= options.runs; run += 1) {
        for (const build of builds) {
          const timing = await measure(browser, `${build.server.url}${pagePath}`);
          const key = `${pagePath}\n${build.name}`;
          timings.set(key, [...(timings.get(key) ?? []), timing]);
          console.log(`  ${pagePath} ${build.name}, run ${run}: painted ${Math.round(timing.firstPaintMs)} ms, hydrated ${Math.round(timing.hydratedMs)} ms`);
        }
      }
    }
  } finally {
    await browser?.close();
    await stopAll();
  }

  console.log(`\nChromium ${browser?.version() ?? ''} under Lighthouse's mobile conditions (slow 4G, 4x CPU); median of ${options.runs} runs; Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  console.log(`${'path'.padEnd(36)} ${'build'.padEnd(12)} ${'first paint'.padStart(12)} ${'hydrated'.padStart(10)}`);
  for (const [key, runs] of timings) {
    const [pagePath = '', name = ''] = key.split('\n');
    const label = name === 'this build' ? name : 'compared';
    console.log(`${pagePath.padEnd(36)} ${label.padEnd(12)} ${`${Math.round(median(runs.map((run) => run.firstPaintMs)))} ms`.padStart(12)} ${`${Math.round(median(runs.map((run) => run.hydratedMs)))} ms`.padStart(10)}`);
  }
  if (options.compare) console.log(`compared: ${options.compare}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
