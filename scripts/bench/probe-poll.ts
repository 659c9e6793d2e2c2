import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { migrate, openDatabase } from '../../server/db/database';
import { LeadStore } from '../../server/leads/lead-store';
import { createLogger } from '../../server/logger';
import { newCheckToken, SiteCheckStore } from '../../server/site-check/check-store';
import { ASSISTANT_IDS } from '../../server/visibility-probe/assistant-catalogue';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { probeViews } from '../../server/visibility-probe/probe-view';
import type { ProbeAnswer, ProbeReport } from '../../server/visibility-probe/probe-report';
import { MAX_ANSWER_CHARACTERS } from '../../server/visibility-probe/call-limits';
import { MAX_SOURCES } from '../../server/visibility-probe/run-probe';
import { scoreAssistant } from '../../server/visibility-probe/scoring';
import { readAnswer } from '../../server/visibility-probe/who-is-named';
import { SITE_CHECK_STATUS_PATH } from '../../shared/site-check';
import { ms } from './hostile-checks';
import { ensureBuilt, HOST, ROOT } from './processes';

/**
 * `npx tsx scripts/bench/probe-poll.ts`: what one poll of the thank-you page's status costs the
 * server when its request's probe is done, with the largest report a probe makes: PROBE_PROMPTS=50
 * questions to all four assistants, each answer at the 8,000 characters kept, naming 50 other
 * businesses and citing 20 pages. Two such probes in one database: one recorded with the view the
 * page shows (as the server records a probe now), one without (as recorded before that, whose view
 * is made from its report at each poll, as every poll did before). For each: the view's lookup
 * alone, and the whole poll over HTTP on 127.0.0.1, one after another.
 */

const POLLS = 200;
const PROMPTS = 50;
const business = { brand: 'Acme Payroll Ltd', domain: 'acmepayroll.co.uk' };

/** A long answer: a list of businesses, each with a line about it, to the characters kept. */
function longAnswer(seed: number): string {
  const lines = ['Here are well-regarded payroll bureaus for small firms in Bristol:'];
  for (let index = 0; lines.join('\n').length < MAX_ANSWER_CHARACTERS; index += 1) {
    lines.push(`${index + 1}. **Bureau ${seed}-${index} Payroll Ltd** – ${index + 3} years of experience with firms of 5 to 50 staff, see bureau${seed}x${index}.co.uk.`);
  }
  return lines.join('\n').slice(0, MAX_ANSWER_CHARACTERS);
}

function largestReport(): ProbeReport {
  const prompts = Array.from({ length: PROMPTS }, (_, index) => `Who is the best payroll bureau in Bristol for firms like number ${index}?`);
  const assistants = ASSISTANT_IDS.map((id, assistantIndex) => {
    const answers: ProbeAnswer[] = prompts.map((prompt, index) => {
      const text = longAnswer(assistantIndex * 100 + index);
      const sources = Array.from({ length: MAX_SOURCES }, (_, source) => ({ url: `https://source${source}.example/${'p/'.repeat(200)}${index}`, title: `Source ${source} `.repeat(20) }));
      const reading = readAnswer(text, sources, business);
      return { prompt, askedAt: '2026-11-27T10:00:00.000Z', model: 'bench-model', text, sources, error: null, ...reading, others: reading.others.slice(0, 50), otherDomains: reading.otherDomains.slice(0, 50) };
    });
    return { id, model: 'bench-model', asked: answers.length, error: null, ...scoreAssistant(answers), answers };
  });
  return { status: 'done', reason: null, ...business, nameSigns: ['title'], pageTitle: null, startedAt: '2026-11-27T10:00:00.000Z', finishedAt: '2026-11-27T10:09:00.000Z', prompts, score: 40, assistants, competitors: [], domains: [] };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
const summary = (values: number[]) => `median ${ms(quantile(values, 0.5))}, p99 ${ms(quantile(values, 0.99))}`;

async function main(): Promise<void> {
  ensureBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-probe-poll-'));
  let server: Server | undefined;
  try {
    const config = loadConfig({
      DATABASE_PATH: path.join(dir, 'site.db'),
      SITE_URL: 'https://www.citewise.example',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      OPENAI_API_KEY: 'sk-bench-not-a-key',
    });
    const db = openDatabase(config.databasePath);
    migrate(db);
    const clock = () => new Date();
    const app = createApp({
      config,
      db,
      logger: createLogger('silent'),
      clock,
      clientDir: path.join(ROOT, 'dist', 'client'),
      mailer: { kick: () => undefined },
      siteChecks: { kick: () => undefined, mailWaitMs: 0 },
      probes: { kick: () => undefined },
      // One address polls as fast as it can: the bound on one visitor's requests is not what is measured.
      formRequestsPerAddress: { burst: 100_000, perSecond: 100_000, maxWaitMs: 30_000, maxWaiting: 100_000 },
    });
    const leads = new LeadStore(db);
    const checks = new SiteCheckStore(db);
    const probes = new ProbeStore(db);
    const report = largestReport();
    /** An audit request with its check queued and its probe done with `report`; returns its thank-you token. */
    const requestWithProbe = (email: string): { token: string; probeId: number } => {
      const token = newCheckToken();
      let probeId = 0;
      const values = { name: 'Bench', email, website_url: 'https://www.acmepayroll.co.uk/', business_description: 'Payroll', ideal_customer: 'Small firms', target_keywords: 'payroll bureau Bristol', current_products: 'payroll', lead_sources: '', seo_experience: '', main_goal: '' };
      leads.save('audit', values, clock(), () => ({ from: 'a@example.com', to: 'b@example.com', subject: 's', text: 't', html: '<body></body>', messageId: `<${email}>` }), {
        withLead: (id) => {
          checks.enqueue(id, values.website_url, token, clock());
          probeId = probes.enqueue(id, clock());
        },
      });
      probes.finish(probeId, report, clock());
      return { token, probeId };
    };
    const stored = requestWithProbe('stored@example.com');
    const older = requestWithProbe('older@example.com');
    db.prepare('UPDATE visibility_probes SET view = NULL WHERE id = ?').run(older.probeId);
    const size = db.prepare<[number], { report: number; view: number | null }>('SELECT length(report) AS report, length(view) AS view FROM visibility_probes WHERE id = ?').get(stored.probeId);
    console.log(`The probe's report: ${((size?.report ?? 0) / 1024 / 1024).toFixed(1)} MB of JSON; the view the page shows: ${size?.view ?? 0} bytes`);

    const views = probeViews(db, true);
    server = createServer(app);
    await new Promise<void>((resolve) => server?.listen(0, HOST, resolve));
    const origin = `http://${HOST}:${(server.address() as AddressInfo).port}`;
    for (const [label, { token }] of [['recorded before views were stored (each poll made it from the report, as every poll did)', older], ['recorded with its view (as now)', stored]] as const) {
      const lookups: number[] = [];
      const polls: number[] = [];
      for (let index = 0; index < POLLS; index += 1) {
        const started = performance.now();
        views(token);
        lookups.push(performance.now() - started);
        const polled = performance.now();
        const response = await fetch(`${origin}${SITE_CHECK_STATUS_PATH}?check=${token}`);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`the poll answered ${response.status}`);
        polls.push(performance.now() - polled);
      }
      console.log(`A probe ${label}: the view's lookup ${summary(lookups)}; the whole poll ${summary(polls)} (${POLLS} each)`);
    }
    db.close();
  } finally {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
