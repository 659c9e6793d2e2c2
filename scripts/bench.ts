import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { availableParallelism, cpus, release, tmpdir } from 'node:os';
import path from 'node:path';
import type { RecordedResponse } from './bench/baseline-server';
import { measureHostileAnswers } from './bench/hostile-answers';
import { measureHostileAssistants } from './bench/hostile-assistants';
import { measureHostileChecks, ms, type CheckCost } from './bench/hostile-checks';
import { measureLockedDatabase } from './bench/locked-database';
import { assertLoopback, cores, ensureBuilt, hasTaskset, measuredPages, pinned, ROOT, startNodeServer, startSiteServer, stopOnExit, type RunningServer } from './bench/processes';

/**
 * `npm run bench [-- --duration 10 --warmup 3 --rounds 2 --connections 10 --no-express --flood-only --site-check-only --hostile-only --answers-only --lock-only --compare DIST]`:
 * the site's throughput and latency on /, an article and /free-audit, next to a bare node:http
 * server that sends the same bytes (the practical ceiling), measured in the same run on the same
 * core. Then a flood: / alone, and / again while one client holds FLOOD_CONNECTIONS connections on
 * /free-audit (a page rendered for each visitor), measured in the same round; it fails when / does
 * not keep a p99 under FLOOD_TARGET.p99Ms and more than FLOOD_TARGET.share of its throughput alone.
 * wrk when it is installed, else autocannon. Everything listens on, and is loaded at, 127.0.0.1
 * only. Each line is the best of its rounds: on a shared machine noise only ever slows a run down.
 * Then what one site check costs (CPU time, peak memory) next to fetching the same files plainly;
 * `--site-check-only` measures that alone. Then hostile sites (scripts/bench/hostile-checks.ts):
 * what a check of each costs, and / alone and while four of them are checked; `--hostile-only`
 * measures that alone. Last, hostile assistants: what reading one assistant's answer costs,
 * friendly and hostile (scripts/bench/hostile-answers.ts), and / alone and while visibility probes
 * read answers of the worst kinds an API can send (scripts/bench/hostile-assistants.ts);
 * `--answers-only` measures that alone. Then / while another program holds the database's write
 * lock and a lead is posted (scripts/bench/locked-database.ts); `--lock-only` measures that alone,
 * and with `--compare DIST` another build's dist/ folder too, in the same run. Each part that has
 * a target fails the run when it misses it.
 */

interface Options {
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  express: boolean;
  /** Only what one site check costs. */
  pages: boolean;
  /** Only the flood: / alone and during a flood of a form page. */
  floodOnly: boolean;
  /** Only the hostile sites' checks. */
  hostileOnly: boolean;
  /** Only the hostile assistants' answers. */
  answersOnly: boolean;
  /** Only / while the database is locked. */
  lockOnly: boolean;
  /** Another build's dist/ folder, measured beside this one while the database is locked. */
  compare: string | undefined;
}

/** The load generator stands in for the reverse proxy, which says who each visitor is. */
const BEHIND_PROXY = { TRUST_PROXY: '1' };

/** What one client that means harm holds open on a form page. */
const FLOOD_CONNECTIONS = 50;
/** What / must keep during the flood: its p99, and its share of the throughput it has alone. */
const FLOOD_TARGET = { p99Ms: 25, share: 0.5 };

function parseOptions(argv: string[]): Options {
  const options: Options = { duration: 10, warmup: 3, connections: 10, rounds: 2, express: true, pages: true, floodOnly: false, hostileOnly: false, answersOnly: false, lockOnly: false, compare: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = Number(argv[i + 1]);
    if (arg === '--no-express') options.express = false;
    else if (arg === '--site-check-only') options.pages = false;
    else if (arg === '--flood-only') options.floodOnly = true;
    else if (arg === '--hostile-only') options.hostileOnly = true;
    else if (arg === '--answers-only') options.answersOnly = true;
    else if (arg === '--lock-only') options.lockOnly = true;
    else if (arg === '--compare' && argv[i + 1]) {
      options.compare = path.resolve(argv[i + 1] ?? '');
      i += 1;
    }
    else if ((arg === '--duration' || arg === '--warmup' || arg === '--connections' || arg === '--rounds') && Number.isInteger(value) && value > 0) {
      options[arg.slice(2) as 'duration' | 'warmup' | 'connections' | 'rounds'] = value;
      i += 1;
    } else throw new Error(`Unknown option ${arg}. Options: --duration S, --warmup S, --rounds N, --connections N, --no-express, --flood-only, --site-check-only, --hostile-only, --answers-only, --lock-only, --compare DIST`);
  }
  return options;
}

interface Result {
  requestsPerSecond: number;
  /** Responses received. */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses other than 2xx/3xx, and socket errors: a run with any is not a valid measurement. */
  failures: number;
  /** Of the failures, the responses other than 2xx/3xx (a 429, say). */
  refused: number;
}

const wrkInstalled = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version; only a missing binary throws ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();
// BENCH_TOOL=autocannon picks autocannon even where wrk is installed.
const tool = wrkInstalled && process.env.BENCH_TOOL !== 'autocannon' ? 'wrk' : 'autocannon';

/** What Chromium sends for a page (shared pages answer brotli, form pages their precompressed gzip). */
const BROWSER_HEADERS = { Accept: 'text/html', 'Accept-Encoding': 'gzip, deflate, br, zstd' };
/** An AI crawler's request, which the AI ledger counts (the browser's is only looked up). */
const GPTBOT_HEADERS = { 'User-Agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)' };
const headerArgs = (flag: string, separator: string, extra: Record<string, string> = {}) =>
  Object.entries({ ...BROWSER_HEADERS, ...extra }).flatMap(([name, value]) => [flag, `${name}${separator}${value}`]);

function run(command: string, args: string[]): Promise<string> {
  const [pinnedCommand, pinnedArgs] = pinned(cores.client, command, args);
  return new Promise((resolve, reject) => {
    const child = spawn(pinnedCommand, pinnedArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} exited with ${code}: ${stderr || stdout}`))));
  });
}

interface LoadOptions {
  headers?: Record<string, string>;
  /** A request unanswered after this long counts as failed. */
  timeoutSeconds?: number;
  /**
   * Each request from another client address (X-Forwarded-For, which the site trusts from the
   * loopback proxy here): many visitors, which the bound on one address's form pages leaves alone.
   * wrk only: autocannon sends every request from one address.
   */
  visitors?: boolean;
  /**
   * Each connection waits this long after each answer: a steady load that leaves the server time to
   * spare (what work at idle priority needs to run at all), instead of all the server can take.
   */
  pauseMs?: number;
}

/** Loads a URL for some seconds. */
async function load(url: string, seconds: number, connections: number, { headers: extraHeaders = {}, timeoutSeconds = 2, visitors = false, pauseMs }: LoadOptions = {}): Promise<Result> {
  assertLoopback(url);
  if (tool === 'wrk') {
    const script = path.join(ROOT, 'scripts', 'bench', 'wrk-report.lua');
    const scriptArgs = [...(visitors ? ['visitors'] : []), ...(pauseMs ? [`pause=${pauseMs}`] : [])];
    const output = await run('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, `--timeout`, `${timeoutSeconds}s`, ...headerArgs('-H', ': ', extraHeaders), '-s', script, url, ...(scriptArgs.length > 0 ? ['--', ...scriptArgs] : [])]);
    const line = output.split('\n').find((candidate) => candidate.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no result: ${output}`);
    const report = JSON.parse(line) as { requests: number; durationUs: number; p50Us: number; p99Us: number; errors: Record<string, number> };
    return {
      requestsPerSecond: report.requests / (report.durationUs / 1e6),
      requests: report.requests,
      p50Ms: report.p50Us / 1000,
      p99Ms: report.p99Us / 1000,
      failures: Object.values(report.errors).reduce((sum, count) => sum + count, 0),
      refused: report.errors.status ?? 0,
    };
  }
  const bin = path.join(ROOT, 'node_modules', '.bin', 'autocannon');
  const output = await run(bin, ['--json', '-c', String(connections), '-d', String(seconds), '-t', String(timeoutSeconds), ...(pauseMs ? ['--connectionRate', String(Math.floor(1000 / pauseMs))] : []), ...headerArgs('-H', '=', extraHeaders), url]);
  const report = JSON.parse(output) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
  return {
    requestsPerSecond: report.requests.average,
    requests: report.requests.total,
    p50Ms: report.latency.p50,
    p99Ms: report.latency.p99,
    failures: report.non2xx + report.errors + report.timeouts,
    refused: report.non2xx,
  };
}

/** One raw response from the site, as a browser gets it (fetch would decode it). */
function record(baseUrl: string, pagePath: string): Promise<RecordedResponse> {
  const url = `${baseUrl}${pagePath}`;
  assertLoopback(url);
  return new Promise((resolve, reject) => {
    get(url, { headers: BROWSER_HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          // Node writes its own Date and connection headers.
          if (value !== undefined && !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
        }
        if (res.statusCode !== 200) reject(new Error(`${pagePath} answered ${res.statusCode}`));
        else resolve({ path: pagePath, status: res.statusCode, headers, body: Buffer.concat(chunks).toString('base64') });
      });
    }).on('error', reject);
  });
}


/** One measurement by scripts/bench/site-check-cost.ts, in a process of its own. */
async function checkCost(mode: 'check' | 'fetch', url: string, runs: number): Promise<CheckCost> {
  assertLoopback(url);
  const output = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'bench', 'site-check-cost.ts'), mode, url, String(runs)]);
  return JSON.parse(output.trim().split('\n').at(-1) ?? '') as CheckCost;
}

/**
 * What one site check costs: against this site's own pages (a well-made site), and against the
 * worst a site can send (a 50 MB page, a gzip bomb), each next to plainly fetching the same files.
 */
async function measureSiteCheck(servers: RunningServer[]): Promise<void> {
  const site = await startSiteServer();
  servers.push(site);
  const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
  const worst = createServer((req, res) => {
    if (req.url === '/bomb') {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
      res.end(bomb);
    } else if (req.url === '/huge') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      const chunk = Buffer.from('<p>word word word word word word word</p>'.repeat(1600));
      let sent = 0;
      const write = () => {
        while (sent < 50 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => worst.listen(0, '127.0.0.1', resolve));
  const worstOrigin = `http://127.0.0.1:${(worst.address() as AddressInfo).port}`;
  try {
    const cases: [string, string, number][] = [
      ['this site\'s home page', `${site.url}/`, 20],
      ['a 50 MB page (read to 1 MB)', `${worstOrigin}/huge`, 5],
      ['a gzip bomb (50 MB unpacked)', `${worstOrigin}/bomb`, 5],
    ];
    const rows: string[][] = [];
    for (const [name, url, runs] of cases) {
      const check = await checkCost('check', url, runs);
      if (check.ended !== 'done') throw new Error(`the check of ${name} ended ${check.ended}`);
      const fetch = await checkCost('fetch', url, Math.min(runs, 3));
      rows.push([name, ms(check.cpuMsPerRun), ms(fetch.cpuMsPerRun), `${(check.cpuMsPerRun / fetch.cpuMsPerRun).toFixed(1)}x`, ms(check.wallMsPerRun)]);
    }
    const header = ['one site check of', 'CPU', 'plain fetch CPU', 'ratio', 'wall'];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
    console.log('\nWhat one site check costs (its CPU with its own process\'s; the plain fetch reads the same files whole, no rules, no analysis):');
    for (const line of [header, ...rows]) console.log(line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  '));
  } finally {
    worst.close();
    await site.stop();
    servers.splice(servers.indexOf(site), 1);
  }
}

/**
 * Each page on each server, best of the rounds; fills `best` and the recording of each page as
 * sent. A page rendered for each visitor is loaded as many visitors would load it, each request
 * from its own address.
 */
async function measurePages(
  options: Options,
  paths: string[],
  perVisitor: Set<string>,
  servers: RunningServer[],
  workDir: string,
  best: Map<string, Result>,
  recording: RecordedResponse[],
): Promise<void> {
  const first = await startSiteServer();
  servers.push(first);
  recording.push(...(await Promise.all(paths.map((pagePath) => record(first.url, pagePath)))));
  await first.stop();
  servers.splice(servers.indexOf(first), 1);
  const recordingFile = path.join(workDir, 'recording.json');
  writeFileSync(recordingFile, JSON.stringify(recording));
  const baseline = await startNodeServer('node:http baseline', ['--import', 'tsx', path.join(ROOT, 'scripts', 'bench', 'baseline-server.ts'), recordingFile]);
  servers.push(baseline);
  const expressOnly = options.express
    ? await startNodeServer('Express alone', ['--import', 'tsx', path.join(ROOT, 'scripts', 'bench', 'express-only-server.ts')], { SITE_URL: 'https://www.citewise.example', ...BEHIND_PROXY }, '/healthz')
    : undefined;
  if (expressOnly) servers.push(expressOnly);

  for (let round = 1; round <= options.rounds; round += 1) {
    // Two processes of the same build differ by several per cent in throughput (where the JIT
    // and the heap happen to put things), which would swamp what the AI ledger costs: each round
    // starts both afresh, and each line keeps its best round.
    const site = await startSiteServer(undefined, BEHIND_PROXY);
    servers.push(site);
    // The same build with the AI ledger off: what counting costs, measured in the same run.
    const ledgerOff = await startSiteServer(undefined, { AI_LEDGER: 'off', ...BEHIND_PROXY });
    servers.push(ledgerOff);
    // One server at a time, so that only the one being measured is using core 0; the servers
    // take turns within each round, so that a slow spell on the machine does not favour one.
    type Target = [string, RunningServer, Record<string, string>?];
    const targets: Target[] = [
      ['node:http baseline', baseline],
      ['citewise', site],
      ['citewise, AI ledger off', ledgerOff],
      ['citewise, requests from GPTBot (counted)', site, GPTBOT_HEADERS],
      ...(expressOnly ? [['Express alone', expressOnly] as Target] : []),
    ];
    for (const pagePath of paths) {
      for (const [name, server, headers] of targets) {
        const url = `${server.url}${pagePath}`;
        const visitors = perVisitor.has(pagePath);
        await load(url, options.warmup, options.connections, { headers, visitors });
        const result = await load(url, options.duration, options.connections, { headers, visitors });
        process.stdout.write(`  ${pagePath} ${name}, round ${round}: ${Math.round(result.requestsPerSecond)} req/s\n`);
        // Failed requests of any round count against the line, not only those of the best one.
        const key = `${pagePath}\n${name}`;
        const previous = best.get(key);
        const failures = result.failures + (previous?.failures ?? 0);
        best.set(key, !previous || result.requestsPerSecond > previous.requestsPerSecond ? { ...result, failures } : { ...previous, failures });
      }
    }
    await Promise.all([site, ledgerOff].map((server) => server.stop()));
    servers.splice(servers.indexOf(site), 1);
    servers.splice(servers.indexOf(ledgerOff), 1);
  }
}

function printPages(best: Map<string, Result>, recording: RecordedResponse[]): void {
  const rows = [...best].map(([key, result]) => {
    const [pagePath = '', server = ''] = key.split('\n');
    const recorded = recording.find((response) => response.path === pagePath);
    return { path: pagePath, server, result, bytes: Buffer.from(recorded?.body ?? '', 'base64').length, encoding: String(recorded?.headers['content-encoding'] ?? 'identity') };
  });

  const header = ['path', 'server', 'req/s', 'p50', 'p99', 'vs node:http'];
  const lines = rows.map((row) => {
    const baseline = rows.find((other) => other.path === row.path && other.server === 'node:http baseline');
    const ratio = baseline && row.server !== 'node:http baseline' ? `${Math.round((row.result.requestsPerSecond / baseline.result.requestsPerSecond) * 100)}%` : '';
    return [`${row.path} (${(row.bytes / 1024).toFixed(1)} KB ${row.encoding})`, row.server, Math.round(row.result.requestsPerSecond).toLocaleString('en-GB'), ms(row.result.p50Ms), ms(row.result.p99Ms), ratio];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)));
  const format = (cells: string[]) => cells.map((cell, column) => (column >= 2 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

/** One round of the flood: / alone, then / while one client floods a form page, on one fresh process. */
interface FloodRound {
  alone: Result;
  duringFlood: Result;
  /** What the flooding client got. */
  flood: Result;
}

async function measureFlood(options: Options, servers: RunningServer[], floodPath: string): Promise<FloodRound[]> {
  const rounds: FloodRound[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const site = await startSiteServer();
    servers.push(site);
    const home = `${site.url}/`;
    await load(home, options.warmup, options.connections);
    const alone = await load(home, options.duration, options.connections);
    // The flood starts first and outlasts the measurement: / is measured while it is at full strength.
    // Its client waits as long as it takes for an answer, as an attacker's would.
    const flooding = load(`${site.url}${floodPath}`, options.warmup * 2 + options.duration + 1, FLOOD_CONNECTIONS, { timeoutSeconds: 60 });
    await load(home, options.warmup, options.connections);
    const duringFlood = await load(home, options.duration, options.connections);
    const flood = await flooding;
    await site.stop();
    servers.splice(servers.indexOf(site), 1);
    rounds.push({ alone, duringFlood, flood });
    process.stdout.write(
      `  flood of ${floodPath}, round ${round}: / alone ${Math.round(alone.requestsPerSecond)} req/s (p99 ${ms(alone.p99Ms)}), ` +
        `during the flood ${Math.round(duringFlood.requestsPerSecond)} req/s (p99 ${ms(duringFlood.p99Ms)})\n`,
    );
  }
  return rounds;
}

function printFlood(rounds: FloodRound[], floodPath: string): boolean {
  // The round in which / kept the largest share: noise on a shared machine only ever takes some away.
  const share = (round: FloodRound) => round.duringFlood.requestsPerSecond / round.alone.requestsPerSecond;
  const best = [...rounds].sort((a, b) => share(b) - share(a))[0];
  if (!best) return true;
  console.log(`\nOne client floods ${floodPath} with ${FLOOD_CONNECTIONS} connections while / is loaded with 10 (the round where / kept most of ${rounds.length}):`);
  console.log('| `/` | req/s | p50 | p99 | of its throughput alone |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| alone | ${Math.round(best.alone.requestsPerSecond).toLocaleString('en-GB')} | ${ms(best.alone.p50Ms)} | ${ms(best.alone.p99Ms)} | |`);
  console.log(`| during the flood | ${Math.round(best.duringFlood.requestsPerSecond).toLocaleString('en-GB')} | ${ms(best.duringFlood.p50Ms)} | ${ms(best.duringFlood.p99Ms)} | ${Math.round(share(best) * 100)}% |`);
  console.log(
    `The flooding client got ${best.flood.requests.toLocaleString('en-GB')} answers (${Math.round(best.flood.requestsPerSecond).toLocaleString('en-GB')} a second, p50 ${ms(best.flood.p50Ms)}), ` +
      `${best.flood.refused.toLocaleString('en-GB')} of them refused (not 2xx/3xx).`,
  );
  const holds = best.duringFlood.p99Ms < FLOOD_TARGET.p99Ms && share(best) > FLOOD_TARGET.share && best.alone.failures + best.duringFlood.failures === 0;
  if (!holds) {
    console.error(`/ during the flood: p99 ${ms(best.duringFlood.p99Ms)} (must be under ${FLOOD_TARGET.p99Ms} ms), ${Math.round(share(best) * 100)}% of its throughput alone (must be over ${FLOOD_TARGET.share * 100}%), ${best.alone.failures + best.duringFlood.failures} failed requests`);
  }
  return holds;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  ensureBuilt();
  const bench = { load, checkCost, duration: options.duration, warmup: options.warmup, connections: options.connections, rounds: options.rounds };
  const hostile = async (): Promise<boolean> => {
    const servers: RunningServer[] = [];
    const stopAll = stopOnExit(servers);
    try {
      return await measureHostileChecks(bench, servers);
    } finally {
      await stopAll();
    }
  };
  const answers = async (): Promise<boolean> => {
    const readingHolds = measureHostileAnswers();
    const servers: RunningServer[] = [];
    const stopAll = stopOnExit(servers);
    try {
      return (await measureHostileAssistants(bench, servers)) && readingHolds;
    } finally {
      await stopAll();
    }
  };
  const locked = async (): Promise<boolean> => {
    const servers: RunningServer[] = [];
    const stopAll = stopOnExit(servers);
    try {
      return await measureLockedDatabase(bench, servers, options.compare);
    } finally {
      await stopAll();
    }
  };
  if (options.answersOnly) {
    if (!(await answers())) process.exitCode = 1;
    return;
  }
  if (options.lockOnly) {
    if (!(await locked())) process.exitCode = 1;
    return;
  }
  if (options.hostileOnly) {
    if (!(await hostile())) process.exitCode = 1;
    return;
  }
  if (!options.pages) {
    const servers: RunningServer[] = [];
    const stopAll = stopOnExit(servers);
    try {
      await measureSiteCheck(servers);
    } finally {
      await stopAll();
    }
    return;
  }
  const paths = await measuredPages();
  // Imported once built: shared/generated/ is written by the build.
  const { routesPaths } = await import('../shared/site');
  const { appRoutes } = await import('../client/routes');

  const servers: RunningServer[] = [];
  const stopAll = stopOnExit(servers);
  const workDir = mkdtempSync(path.join(tmpdir(), 'citewise-bench-recording-'));
  const best = new Map<string, Result>();
  const recording: RecordedResponse[] = [];
  let flood: FloodRound[] = [];
  console.log(
    `${tool}, ${options.connections} connections, ${options.warmup} s warm-up, then the best of ${options.rounds} rounds of ${options.duration} s per line; ` +
      (hasTaskset ? `servers pinned to core ${cores.server}, ${tool} to ${cores.client ? `core(s) ${cores.client}` : 'the same core'}` : 'no taskset: nothing pinned'),
  );
  if (tool === 'autocannon') console.log('autocannon sends every request from one address: a page rendered for each visitor is held back by the bound on one address (install wrk to measure it as many visitors)');
  try {
    const perVisitor = new Set(appRoutes.filter((route) => route.perVisitor).map((route) => route.path));
    if (!options.floodOnly) await measurePages(options, paths, perVisitor, servers, workDir, best, recording);
    flood = await measureFlood(options, servers, routesPaths.freeAudit);
  } finally {
    await stopAll();
    rmSync(workDir, { recursive: true, force: true });
  }
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  console.log(`\n${availableParallelism()} cores (${cpu}), Node ${process.version}, Linux ${release()}, ${new Date().toISOString().slice(0, 10)}`);
  if (!options.floodOnly) printPages(best, recording);
  const floodHolds = printFlood(flood, routesPaths.freeAudit);

  const failed = [...best].filter(([, result]) => result.failures > 0);
  for (const [key, result] of failed) console.error(`${key.replace('\n', ' on ')}: ${result.failures} failed requests (non-2xx/3xx or socket errors)`);
  if (failed.length > 0 || !floodHolds) process.exitCode = 1;

  if (options.floodOnly) return;
  const checkServers: RunningServer[] = [];
  const stopCheckServers = stopOnExit(checkServers);
  try {
    await measureSiteCheck(checkServers);
  } finally {
    await stopCheckServers();
  }
  if (!(await hostile())) process.exitCode = 1;
  if (!(await answers())) process.exitCode = 1;
  if (!(await locked())) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
