// node --import tsx scripts/bench/site-check-cost.ts <check|fetch> <url> <runs>
// What one site check costs, measured from a process of its own: `check` runs the site check (the
// fetcher's rules and every analyser, in the check's own process) `runs` times; `fetch`, the
// baseline, fetches the same four files with plain node:http and reads them whole, no rule and no
// analysis. Prints one JSON line: CPU milliseconds per run (this process's and its children's,
// the checks' processes), wall milliseconds per run, and how the last check ended.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createSiteChecker } from '../../server/site-check/site-checker';

const [mode, url, runsText] = process.argv.slice(2);
const runs = Number(runsText);
if ((mode !== 'check' && mode !== 'fetch') || !url || !Number.isInteger(runs) || runs < 1) {
  console.error('Usage: site-check-cost.ts <check|fetch> <url> <runs>');
  process.exit(2);
}

function fetchWhole(target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(target, { agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** CPU milliseconds of this process's children that have ended (Linux: /proc/self/stat's cutime and cstime, in ticks of 10 ms). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function main(target: string): Promise<void> {
  const checker = createSiteChecker({ brand: 'Citewise', siteUrl: 'https://www.citewise.example', allow: ['127.0.0.1'], agents: ['GPTBot', 'OAI-SearchBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'CCBot'], clock: () => new Date() });
  const origin = new URL(target).origin;
  let ended = 'done';
  const once = async () => {
    if (mode === 'check') {
      const report = await checker.check(target);
      ended = report.status === 'done' ? 'done' : `${report.status}: ${report.reason}`;
    } else {
      await Promise.all(['/robots.txt', new URL(target).pathname, '/llms.txt', '/sitemap.xml'].map((file) => fetchWhole(`${origin}${file}`)));
    }
  };
  // The first run loads the code; the measured ones follow it.
  await once();
  const started = process.cpuUsage();
  const childrenBefore = childrenCpuMs();
  const startedAt = performance.now();
  for (let run = 0; run < runs; run += 1) await once();
  const wallMsPerRun = (performance.now() - startedAt) / runs;
  const cpu = process.cpuUsage(started);
  const cpuMs = (cpu.user + cpu.system) / 1000 + childrenCpuMs() - childrenBefore;
  process.stdout.write(`${JSON.stringify({ cpuMsPerRun: cpuMs / runs, wallMsPerRun, ended })}\n`);
}

main(url).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
