import { MIN_FILL_MS } from '../../shared/forms/form-contract';
import type { SiteCheckView } from '../../shared/site-check';
import { startSiteAt, type FixtureSite } from '../../test/helpers/fixture-sites';
import { validAudit } from '../../test/helpers/forms';
import { hostileSites } from '../../test/helpers/hostile-sites';
import { openProcessForm, sendProcessForm } from '../../test/helpers/process-forms';
import { startSiteServer, type RunningServer } from './processes';

/**
 * What a site that means harm costs the site: for each kind in test/helpers/hostile-sites.ts,
 * one check's CPU (its thread's included) and wall time, each in a process of its own; then, on
 * one fresh server, `/`'s p99 alone and while four checks of that kind run at once (kept at four:
 * as a batch ends, the next is posted), measured in the same round. The target: `/`'s p99 stays
 * under HOSTILE_TARGET.p99Ms and within HOSTILE_TARGET.ratio of its p99 alone.
 */

export interface CheckCost {
  cpuMsPerRun: number;
  wallMsPerRun: number;
  peakRssMb: number;
  rssBeforeMb: number;
  /** How the last check ended: 'done', or its status and reason. */
  ended: string;
}

interface Load {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  failures: number;
}

export interface HostileBench {
  load(url: string, seconds: number, connections: number): Promise<Load>;
  checkCost(mode: 'check' | 'fetch', url: string, runs: number): Promise<CheckCost>;
  duration: number;
  warmup: number;
  connections: number;
}

const HOSTILE_TARGET = { p99Ms: 100, ratio: 2 };
/** Checks kept running at once while `/` is measured: more than the worker runs together (3). */
const AT_ONCE = 4;

interface Row {
  kind: string;
  cost: CheckCost;
  alone: Load;
  during: Load;
  checksEnded: number;
  endings: Set<string>;
}

/** Keeps AT_ONCE audit requests naming the hostile site in check until `stop`; counts the checks that ended, and how. */
async function keepChecking(site: RunningServer, target: string, stopped: () => boolean, batches: number): Promise<{ ended: number; endings: Set<string> }> {
  // Every post from its own address and e-mail (the budgets per address and per sender stay
  // out of the way), each naming its own address (no result reused); the forms are opened at
  // once and posted once they have been open as long as a person takes.
  const visitors = Array.from({ length: AT_ONCE * batches }, (_, index) => ({ address: `10.${Math.floor(index / 250)}.${index % 250}.9`, index }));
  const sessions = await Promise.all(visitors.map((visitor) => openProcessForm(site.url, '/free-audit', visitor.address)));
  await new Promise((resolve) => setTimeout(resolve, MIN_FILL_MS + 300));
  const endings = new Set<string>();
  let ended = 0;
  for (let batch = 0; batch < batches && !stopped(); batch += 1) {
    const posted = await Promise.all(
      visitors.slice(batch * AT_ONCE, (batch + 1) * AT_ONCE).map(async ({ address, index }) => {
        const url = `${target}${target.includes('?') ? '&' : '?'}visitor=${index}`;
        const answer = await sendProcessForm(site.url, '/free-audit', sessions[index]!, { ...validAudit, email: `bench${index}@example.co.uk`, website_url: url }, address);
        return { address, status: answer.location?.replace('/thank-you', '/site-check/status') ?? '' };
      }),
    );
    const waiting = new Set(posted);
    while (waiting.size > 0) {
      for (const check of [...waiting]) {
        const answer = await fetch(`${site.url}${check.status}`, { headers: { 'X-Forwarded-For': check.address } });
        const { siteCheck } = (await answer.json()) as { siteCheck: SiteCheckView };
        if (siteCheck.status === 'pending') continue;
        waiting.delete(check);
        ended += 1;
        endings.add(siteCheck.status === 'done' ? 'done' : `${siteCheck.status}: ${siteCheck.reason}`);
      }
      if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { ended, endings };
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;

export async function measureHostileChecks(bench: HostileBench, servers: RunningServer[]): Promise<boolean> {
  const rows: Row[] = [];
  for (const [kind, hostile] of Object.entries(hostileSites)) {
    const fixture: FixtureSite = await startSiteAt(() => hostile.paths());
    try {
      const target = `${fixture.origin}${hostile.path}`;
      const cost = await bench.checkCost('check', target, 3);
      const site = await startSiteServer(undefined, { SITE_CHECK_ALLOW: '127.0.0.1', TRUST_PROXY: '1' });
      servers.push(site);
      try {
        const home = `${site.url}/`;
        await bench.load(home, bench.warmup, bench.connections);
        const alone = await bench.load(home, bench.duration, bench.connections);
        let stop = false;
        const checking = keepChecking(site, target, () => stop, 40);
        // The forms are opened and filled first: / is measured once the checks are under way.
        await new Promise((resolve) => setTimeout(resolve, MIN_FILL_MS + 1000));
        await bench.load(home, bench.warmup, bench.connections);
        const during = await bench.load(home, bench.duration, bench.connections);
        stop = true;
        const { ended, endings } = await checking;
        rows.push({ kind, cost, alone, during, checksEnded: ended, endings });
        process.stdout.write(`  ${kind}: / p99 alone ${ms(alone.p99Ms)}, while checks of it run ${ms(during.p99Ms)} (${ended} checks ended meanwhile)\n`);
      } finally {
        await site.stop();
        servers.splice(servers.indexOf(site), 1);
      }
    } finally {
      await fixture.close();
    }
  }

  console.log(`\nHostile sites: one check of each (CPU with its thread, wall time; each in a process of its own), and / loaded with ${bench.connections} connections alone and while ${AT_ONCE} checks of it run at once, on one server:`);
  console.log('| hostile site | check CPU | check wall | peak RSS | how checks ended | `/` p99 alone | `/` p99 during | ratio | `/` req/s during |');
  console.log('|---|---:|---:|---:|---|---:|---:|---:|---:|');
  let holds = true;
  for (const row of rows) {
    const ratio = row.during.p99Ms / row.alone.p99Ms;
    const ok = row.during.p99Ms < HOSTILE_TARGET.p99Ms && ratio <= HOSTILE_TARGET.ratio && row.alone.failures + row.during.failures === 0 && row.checksEnded > 0;
    holds &&= ok;
    console.log(
      `| ${row.kind} | ${ms(row.cost.cpuMsPerRun)} | ${ms(row.cost.wallMsPerRun)} | ${row.cost.peakRssMb.toFixed(0)} MB | ${[...row.endings].join('; ') || 'none ended'} (${row.checksEnded}) | ${ms(row.alone.p99Ms)} | ${ms(row.during.p99Ms)} | ${ratio.toFixed(2)}x${ok ? '' : ' FAIL'} | ${Math.round(row.during.requestsPerSecond).toLocaleString('en-GB')} |`,
    );
  }
  if (!holds) console.error(`/ while hostile sites are checked must keep a p99 under ${HOSTILE_TARGET.p99Ms} ms and within ${HOSTILE_TARGET.ratio}x of its p99 alone, with no failed request`);
  return holds;
}
