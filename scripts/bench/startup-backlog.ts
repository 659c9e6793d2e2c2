import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from '../../server/db/database';
import { LeadStore } from '../../server/leads/lead-store';
import { composeNotification } from '../../server/leads/notification-mail';
import { newCheckToken, SiteCheckStore } from '../../server/site-check/check-store';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { auditFields } from '../../shared/forms/audit-form';
import { ms } from './hostile-checks';
import { freePort, HOST, SERVER_ENTRY } from './processes';

/**
 * `npx tsx scripts/bench/startup-backlog.ts [--leads 1000] [--server dist/server/index.js ...]`:
 * how soon a server restarted on a backlog answers. The database holds `--leads` audit requests
 * made two hours ago (a restart after an outage), each with its notification unsent, its site
 * check and its visibility probe queued; one in ten of each left running by the process that
 * stopped, a few of them for the third time. Each server given (another build's, to compare) is
 * started on a copy of it, and this says how long from the spawn until / and /healthz first
 * answered, and how long / took, asked one request after another, in the first 10 s after that.
 * The checks point at a closed port on 127.0.0.1 and the assistants at another: nothing leaves
 * the machine.
 */

const FIRST_SECONDS_MS = 10_000;
const GIVE_UP_MS = 180_000;

function parseArgs(argv: string[]): { leads: number; servers: string[] } {
  let leads = 1000;
  const servers: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] === '--leads') leads = Number(argv[++index]);
    else if (argv[index] === '--server') servers.push(path.resolve(argv[++index] ?? ''));
    else throw new Error(`Unknown option ${argv[index]}: --leads N, --server FILE (repeatable)`);
  }
  return { leads, servers: servers.length > 0 ? servers : [SERVER_ENTRY] };
}

const ENV = {
  SITE_URL: 'https://www.citewise.example',
  ALLOW_PLACEHOLDER_CONTENT: '1',
  SITE_CHECK_ALLOW: '127.0.0.1',
  OPENAI_API_KEY: 'sk-bench-not-a-key',
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  BACKUP_INTERVAL_HOURS: '0',
  LOG_LEVEL: 'warn',
};

/** The backlog, written as the app writes it: each request with its mail, check and probe in one transaction. */
function makeBacklog(file: string, leads: number): void {
  const db = openDatabase(file);
  migrate(db);
  const store = new LeadStore(db);
  const checks = new SiteCheckStore(db);
  const probes = new ProbeStore(db);
  const made = new Date(Date.now() - 2 * 60 * 60 * 1000);
  for (let index = 0; index < leads; index += 1) {
    const values: Record<string, string> = {
      name: `Person ${index}`,
      email: `person${index}@example.co.uk`,
      website_url: `http://127.0.0.1:9/site-${index}`,
      business_description: 'A family-run plumbing firm in Leeds, with three vans and a shop.',
      ideal_customer: 'Landlords in Leeds with a few rental properties',
      target_keywords: 'emergency plumber Leeds, boiler repair',
      current_products: 'boiler servicing, emergency call-outs',
      lead_sources: 'word of mouth',
      seo_experience: 'none',
      main_goal: 'more calls',
    };
    store.save('audit', values, made, (id) =>
      composeNotification({ kind: 'audit', id, fields: auditFields, values, receivedAt: made, from: 'web@citewise.example', to: 'leads@citewise.example', siteUrl: ENV.SITE_URL, brand: 'Citewise', siteCheck: 'pending', probe: 'pending' }), {
      mailDueAt: new Date(made.getTime() + 20_000),
      withLead: (id) => {
        checks.enqueue(id, values.website_url ?? '', newCheckToken(), made);
        probes.enqueue(id, made);
      },
    });
  }
  db.exec(`UPDATE site_checks SET status = 'running', attempts = CASE WHEN id % 50 = 0 THEN 3 ELSE 1 END WHERE id % 10 = 0`);
  db.exec(`UPDATE visibility_probes SET status = 'running', attempts = CASE WHEN id % 50 = 0 THEN 3 ELSE 1 END WHERE id % 10 = 0`);
  db.close();
}

interface StartUp {
  firstHomeMs: number;
  firstHealthMs: number;
  /** / asked one after another for FIRST_SECONDS_MS once it first answered. */
  latencies: number[];
}

async function timedGet(url: string): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return { ok: response.ok, ms: performance.now() - started };
  } catch {
    return { ok: false, ms: performance.now() - started };
  }
}

async function firstAnswer(url: string, spawned: number): Promise<number> {
  while (performance.now() - spawned < GIVE_UP_MS) {
    if ((await timedGet(url)).ok) return performance.now() - spawned;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${url} did not answer within ${GIVE_UP_MS / 1000} s`);
}

async function measure(serverEntry: string, backlog: string): Promise<StartUp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-startup-'));
  try {
    const file = path.join(dir, 'site.db');
    const source = openDatabase(backlog);
    await source.backup(file);
    source.close();
    const port = await freePort();
    const url = `http://${HOST}:${port}`;
    const spawned = performance.now();
    const child = spawn(process.execPath, [serverEntry], {
      cwd: path.resolve(path.dirname(serverEntry), '..', '..'),
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', HOST, PORT: String(port), DATABASE_PATH: file, ...ENV },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    try {
      const [firstHomeMs, firstHealthMs] = await Promise.all([firstAnswer(`${url}/`, spawned), firstAnswer(`${url}/healthz`, spawned)]);
      const latencies: number[] = [];
      const until = performance.now() + FIRST_SECONDS_MS;
      while (performance.now() < until) latencies.push((await timedGet(`${url}/`)).ms);
      return { firstHomeMs, firstHealthMs, latencies };
    } finally {
      child.kill('SIGKILL');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;

async function main(): Promise<void> {
  const { leads, servers } = parseArgs(process.argv.slice(2));
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-backlog-'));
  try {
    const backlog = path.join(dir, 'backlog.db');
    makeBacklog(backlog, leads);
    console.log(`${leads} audit requests made 2 h ago, each with its mail unsent and its check and probe queued (1 in 10 left running)`);
    for (const server of servers) {
      const result = await measure(server, backlog);
      console.log(
        `${server}: / first answered after ${ms(result.firstHomeMs)}, /healthz after ${ms(result.firstHealthMs)}; ` +
          `then / in its first ${FIRST_SECONDS_MS / 1000} s: ${result.latencies.length} requests, p50 ${ms(quantile(result.latencies, 0.5))}, ` +
          `p99 ${ms(quantile(result.latencies, 0.99))}, worst ${ms(Math.max(...result.latencies))}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
