import { join } from 'node:path';
import { openDatabase, openDatabaseReadOnly } from '../../server/db/database';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { MIN_FILL_MS } from '../../shared/forms/form-contract';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant, type Reply } from '../../test/helpers/fake-assistants';
import { startSiteAt, wellMadeSite } from '../../test/helpers/fixture-sites';
import { hostileAnswers } from '../../test/helpers/hostile-assistants';
import { validAudit } from '../../test/helpers/forms';
import { namedFirst } from '../../test/fixtures/visibility-probe-answers';
import { openProcessForm, sendProcessForm } from '../../test/helpers/process-forms';
import { ms, type Load } from './hostile-checks';
import { startSiteServer, type RunningServer } from './processes';

/**
 * What an assistant's API that means harm (or a *_BASE_URL pointed at the wrong place) costs the
 * site: for each kind of answer in test/helpers/hostile-assistants.ts, all four assistants
 * answering every question so, on one fresh server, `/`'s p99 alone and while visibility probes
 * run back to back (PROBE_PROMPTS=50, four calls at once), measured in the same round. First
 * friendly answers: the same probes and traffic, the baseline. The load is steady, not all the
 * server can take: a probe's process runs at idle priority, so under a load that takes the whole
 * core it would not run at all, and nothing would be measured.
 *
 * The target: `/`'s p99 under 100 ms in every row, and with hostile answers within 2x of its p99
 * with friendly ones, which is what running probes back to back costs in itself (a process
 * started for each, its calls counted, its result recorded and mailed: a few times a day for
 * real, here once a second or more). A row in which no call was made is no measurement, and fails.
 */

const TARGET = { p99Ms: 100, ratio: 2 };

/** Each connection's pause after each answer: about 500 requests a second from 10 connections, a busy site's traffic and more. */
const PAUSE_MS = 20;

export interface AssistantsBench {
  load(url: string, seconds: number, connections: number, options: { pauseMs: number }): Promise<Load>;
  duration: number;
  warmup: number;
  connections: number;
}

const kinds: [string, (id: AssistantId) => Reply][] = [['friendly answers (the same probes and traffic)', () => ({ answer: namedFirst })], ...Object.entries(hostileAnswers)];

/** Probes kept waiting, so that one starts as soon as the last ends. */
const WAITING = 2;

/**
 * One audit request, whose site check reads the fixture site and whose probe follows; from then
 * on copies of it are queued for probes, WAITING at a time, each started as the last ends, with
 * no traffic but the probes' own. Returns a stop.
 */
async function keepProbesQueued(site: RunningServer & { dir: string }, fixtureOrigin: string): Promise<() => void> {
  const session = await openProcessForm(site.url, '/free-audit', '10.0.0.1');
  await new Promise((resolve) => setTimeout(resolve, MIN_FILL_MS + 300));
  await sendProcessForm(site.url, '/free-audit', session, { ...validAudit, website_url: `${fixtureOrigin}/` }, '10.0.0.1');
  const db = openDatabase(join(site.dir, 'site.db'));
  const probes = new ProbeStore(db);
  const waiting = db.prepare<[], number>(`SELECT count(*) FROM visibility_probes WHERE status = 'queued'`).pluck();
  // The copy names a domain, no site: the probe looks for it by domain, with no site check first.
  const copy = db.prepare(
    `INSERT INTO audit_submissions (name, email, website_url, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
     SELECT name, email, 'https://www.shahpayroll.example', business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at
     FROM audit_submissions ORDER BY id LIMIT 1`,
  );
  const topUp = () => {
    try {
      db.transaction(() => {
        for (let queued = waiting.get() ?? 0; queued < WAITING; queued += 1) probes.enqueue(Number(copy.run().lastInsertRowid), new Date());
      }).immediate();
    } catch {
      // The server was writing: the next top-up adds them.
    }
  };
  const timer = setInterval(topUp, 250);
  return () => {
    clearInterval(timer);
    db.close();
  };
}

/** The calls the probes have made so far. */
function callsMade(site: RunningServer & { dir: string }): number {
  const db = openDatabaseReadOnly(join(site.dir, 'site.db'));
  try {
    return db.prepare<[], number | null>('SELECT sum(calls) FROM probe_calls').pluck().get() ?? 0;
  } finally {
    db.close();
  }
}

/** How the probes run so far ended: their count, and each distinct outcome with its answers' errors. */
function endedProbes(site: RunningServer & { dir: string }): { ended: number; endings: Set<string> } {
  const db = openDatabaseReadOnly(join(site.dir, 'site.db'));
  try {
    const rows = db.prepare<[], { status: string; reason: string | null; report: string | null }>(`SELECT status, reason, report FROM visibility_probes WHERE status NOT IN ('queued', 'running')`).all();
    const endings = new Set<string>();
    for (const row of rows) {
      const report = row.report ? (JSON.parse(row.report) as { assistants: { answers: { error: string | null }[] }[] }) : null;
      const errors = new Set(report?.assistants.flatMap((assistant) => assistant.answers.flatMap((answer) => (answer.error ? [answer.error] : []))) ?? []);
      endings.add([row.status, row.reason, ...errors].filter(Boolean).join(': '));
    }
    return { ended: rows.length, endings };
  } finally {
    db.close();
  }
}

interface Row {
  kind: string;
  alone: Load;
  during: Load;
  /** Calls made (and answers read) while `/` was measured. */
  calls: number;
  ended: number;
  endings: Set<string>;
}

export async function measureHostileAssistants(bench: AssistantsBench, servers: RunningServer[]): Promise<boolean> {
  const rows: Row[] = [];
  for (const [kind, reply] of kinds) {
    const fakes: FakeAssistant[] = await Promise.all(ASSISTANT_IDS.map((id) => startFakeAssistant(id, FAKE_KEYS[id], () => reply(id))));
    const fixture = await startSiteAt((origin) => wellMadeSite(origin));
    try {
      const site = await startSiteServer(undefined, { ...fakeEnvironment(fakes), PROBE_PROMPTS: '50', PROBE_DAILY_CALLS: '100000', SITE_CHECK_ALLOW: '127.0.0.1', TRUST_PROXY: '1' });
      servers.push(site);
      try {
        const home = `${site.url}/`;
        const steady = { pauseMs: PAUSE_MS };
        await bench.load(home, bench.warmup, bench.connections, steady);
        const alone = await bench.load(home, bench.duration, bench.connections, steady);
        const stopQueueing = await keepProbesQueued(site, fixture.origin);
        await bench.load(home, bench.warmup, bench.connections, steady);
        const callsBefore = callsMade(site);
        const during = await bench.load(home, bench.duration, bench.connections, steady);
        const calls = callsMade(site) - callsBefore;
        stopQueueing();
        const { ended, endings } = endedProbes(site);
        rows.push({ kind, alone, during, calls, ended, endings });
        process.stdout.write(`  ${kind}: / p99 alone ${ms(alone.p99Ms)}, while probes run ${ms(during.p99Ms)} (${calls} calls made meanwhile, ${ended} probes ended by then)\n`);
      } finally {
        await site.stop();
        servers.splice(servers.indexOf(site), 1);
      }
    } finally {
      await Promise.all([...fakes, fixture].map((server) => server.close()));
    }
  }

  console.log(`\nHostile assistants: / loaded by ${bench.connections} connections, each pausing ${PAUSE_MS} ms after each answer, alone and while probes run back to back (all four assistants answering every question so), on one server:`);
  console.log('| answers | calls made while measured | how probes ended | `/` p99 alone | `/` p99 during | during ÷ alone | during ÷ friendly during | `/` req/s during |');
  console.log('|---|---:|---|---:|---:|---:|---:|---:|');
  const baseline = rows[0];
  let holds = true;
  for (const row of rows) {
    const ratio = baseline ? row.during.p99Ms / baseline.during.p99Ms : Number.NaN;
    const ok = row.calls > 0 && row.during.p99Ms < TARGET.p99Ms && (row === baseline || ratio <= TARGET.ratio) && row.alone.failures + row.during.failures === 0;
    holds &&= ok;
    console.log(
      `| ${row.kind} | ${row.calls} | ${[...row.endings].join('; ') || 'none ended'} (${row.ended}) | ${ms(row.alone.p99Ms)} | ${ms(row.during.p99Ms)} | ${(row.during.p99Ms / row.alone.p99Ms).toFixed(2)}x | ${row === baseline ? 'baseline' : `${ratio.toFixed(2)}x`}${ok ? '' : ' FAIL'} | ${Math.round(row.during.requestsPerSecond).toLocaleString('en-GB')} |`,
    );
  }
  if (!holds) console.error(`/ while probes run must keep a p99 under ${TARGET.p99Ms} ms, with hostile answers within ${TARGET.ratio}x of its p99 with friendly ones, with no failed request, and calls must have been made meanwhile`);
  return holds;
}
