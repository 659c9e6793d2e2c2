// npm run clients -- add|list|pause|resume|remove|run|edit|link
// The agency's monitored clients, without accounts: each is asked the same fixed questions every
// MONITOR_INTERVAL_DAYS by the server, and its private page shows the trend of its runs.
//   add --site URL --keywords "a, b" [--customer "..."] [--products "..."] [--brand NAME] [--label NAME] [--email ADDRESS]
//   add --from-audit N [--label NAME] [--brand NAME] [--email ADDRESS]   (the details of audit request N)
//   list                      id, label, site, the name searched for and where it was read, status, last run, score, next run
//   pause|resume|remove|link --id N
//   run --id N                queues a run now, waits for it and prints its one-line result
//   edit --id N --keywords "a, b" [--products "..."]   new fixed questions: a new series
//   edit --id N --brand NAME  the name its answers are searched for: every run counted again, no call made
// Exits 0 when done; 1 on a bad value, an unknown client, or a run that did not end well; 2 on a
// usage error or, for run, when no assistant is configured.
import { migrate, openDatabase } from '../../server/db/database';
import { ClientStore, planClientQuestions, questionsOf, type ClientRow, type NewClient } from '../../server/reports/monitor/client-store';
import { clientPageAddress } from '../../server/reports/monitor/monitor-mail';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import { ASSISTANTS } from '../../server/visibility-probe/assistant-catalogue';
import { hostOf, siteOf } from '../../server/business/names';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { givenName, nameOrigin, signsOfStored, type BusinessName } from '../../server/business/business-name';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import { composeTrend, monitorFacts } from '../../server/reports/monitor/compose-trend';
import { recountRun, type KeptRun } from '../../server/reports/recount';
import type { SiteCheckReport } from '../../server/site-check/check-report';
import { configuredDatabase, fail, parseOptions } from './cli';

const USAGE = [
  'Usage: npm run clients -- add --site URL --keywords "a, b" [--customer "..."] [--products "..."] [--brand NAME] [--label NAME] [--email ADDRESS]',
  '       npm run clients -- add --from-audit N [--label NAME] [--brand NAME] [--email ADDRESS]',
  '       npm run clients -- list',
  '       npm run clients -- pause|resume|remove|run|link --id N',
  '       npm run clients -- edit --id N --keywords "a, b" [--products "..."]',
  '       npm run clients -- edit --id N --brand NAME',
].join('\n');
/** How often a run is looked at while `run` waits for it. */
const FOLLOW_EVERY_MS = 500;
/** How long a queued run may wait for the server, with no other run before it, before the command says the server is not running it. */
const SERVER_WAIT_MS = 15_000;
/** The longest label, brand or site kept; the longest keywords, customer or products. */
const SHORT_FIELD = 200;
const LONG_FIELD = 2_000;

const [command, ...rest] = process.argv.slice(2);
const OPTIONS: Record<string, { known: string[]; required: string[] }> = {
  add: { known: ['site', 'keywords', 'customer', 'products', 'brand', 'label', 'email', 'from-audit'], required: [] },
  list: { known: [], required: [] },
  pause: { known: ['id'], required: ['id'] },
  resume: { known: ['id'], required: ['id'] },
  remove: { known: ['id'], required: ['id'] },
  run: { known: ['id'], required: ['id'] },
  link: { known: ['id'], required: ['id'] },
  edit: { known: ['id', 'keywords', 'products', 'brand'], required: ['id'] },
};
const spec = command === undefined ? undefined : OPTIONS[command];
if (spec === undefined) fail(USAGE);
const options = parseOptions(rest, spec.known) as Record<string, string>;
if (spec.required.some((name) => options[name] === undefined)) fail(USAGE);
if (command === 'edit' && options.keywords === undefined && options.brand === undefined) fail(USAGE);

const { config, db } = configuredDatabase((file) => {
  const opened = openDatabase(file);
  migrate(opened);
  return opened;
});
const clients = new ClientStore(db);

/** Ends the command with one line on stderr. */
function stop(message: string, code = 1): never {
  console.error(message);
  db.close();
  process.exit(code);
}

function done(...lines: string[]): never {
  for (const line of lines) console.log(line);
  db.close();
  process.exit(0);
}

/** A field as given, trimmed; one line at most `limit` long, or the command stops saying which. */
function field(name: string, limit: number, required = false): string {
  const value = (options[name] ?? '').trim();
  if (required && value === '') stop(`--${name} must not be empty`);
  if (value.length > limit) stop(`--${name} is ${value.length} characters long: at most ${limit}`);
  if (/[\p{Cc}]/u.test(value) && name !== 'keywords' && name !== 'products' && name !== 'customer') stop(`--${name} must be one line`);
  return value;
}

function email(): string | null {
  const value = (options.email ?? '').trim();
  if (options.email === undefined) return null;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) || value.length > 254) stop(`--email must be an e-mail address, not ${JSON.stringify(options.email)}`);
  return value;
}

function client(): ClientRow {
  const id = options.id ?? '';
  if (!/^\d{1,15}$/.test(id)) stop(`--id must be a client's number, not ${JSON.stringify(id)}`);
  return clients.get(Number(id)) ?? stop(`No client #${id}`);
}

const utc = (iso: string | null) => (iso === null ? '-' : `${iso.replace('T', ' ').slice(0, 16)} UTC`);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const pageLine = (id: number) => `Page (for the agency; anyone with this address can read it): ${clientPageAddress(config.siteUrl, clients.mintLink(id, 'agency', new Date()))}`;

function add(): never {
  let words: Omit<NewClient, 'questions' | 'label'>;
  let personal: string[] = [];
  if (options['from-audit'] !== undefined) {
    if (options.site !== undefined || options.keywords !== undefined || options.customer !== undefined || options.products !== undefined) {
      stop('--from-audit takes the site, keywords, customer and products from the audit request: give them, or --from-audit, not both');
    }
    const auditId = options['from-audit'];
    if (!/^\d{1,15}$/.test(auditId)) stop(`--from-audit must be an audit request's number, not ${JSON.stringify(auditId)}`);
    const request = db
      .prepare<[number], { id: number; name: string; email: string; website_url: string; target_keywords: string; ideal_customer: string; current_products: string; business_description: string }>(
        `SELECT * FROM audit_submissions WHERE id = ?`,
      )
      .get(Number(auditId));
    if (!request) stop(`No audit request #${auditId}`);
    if (hostOf(request.website_url) === null) stop(`Audit request #${request.id} names no website: a client is followed by its site`);
    personal = [request.name, request.email];
    words = {
      site: request.website_url,
      keywords: request.target_keywords,
      customer: request.ideal_customer,
      products: request.current_products,
      description: request.business_description,
      brand: field('brand', SHORT_FIELD) || null,
      email: email() ?? request.email,
      fromAuditId: request.id,
    };
  } else {
    if (options.site === undefined || options.keywords === undefined) fail(USAGE);
    const site = field('site', SHORT_FIELD, true);
    if (hostOf(site) === null) stop(`--site must be a web address, not ${JSON.stringify(options.site)}`);
    words = {
      site,
      keywords: field('keywords', LONG_FIELD, true),
      customer: field('customer', LONG_FIELD),
      products: field('products', LONG_FIELD),
      description: '',
      brand: field('brand', SHORT_FIELD) || null,
      email: email(),
      fromAuditId: null,
    };
  }
  if (words.brand !== null) {
    const checked = givenName(words.brand);
    if ('refused' in checked) stop(`--brand: ${checked.refused}.`);
    words.brand = checked.name;
  }
  if (words.email) personal.push(words.email);
  const questions = planClientQuestions(words, config.monitor.promptsPerAssistant, personal);
  if (questions.length === 0) stop('These words make no question to ask (keywords, products or customer): give --keywords that name what buyers search for');
  const label = field('label', SHORT_FIELD) || words.brand || siteOf(words.site) || words.site;
  const now = new Date();
  const id = clients.add({ ...words, label, questions }, now);
  done(
    `Client #${id} added: ${label} (${words.site}), ${plural(questions.length, 'question')} fixed for each assistant (series 1).`,
    `Its first run is due now: the server starts it within seconds while it runs with an assistant's key set, then every ${plural(config.monitor.intervalDays, 'day')} (MONITOR_INTERVAL_DAYS).`,
    pageLine(id),
  );
}

/** The name a client's answers are searched for and where it was read: given, or its latest run's reading of its site. */
function searchedFor(row: ClientRow): string {
  if (row.brand !== null) return `"${row.brand}" (${nameOrigin(['given'])})`;
  const latest = clients.finishedRuns(row.id).at(-1);
  const business = latest?.document ? (JSON.parse(latest.document) as AuditDocument).business : null;
  if (!business) return 'read from its site at its first run';
  if (business.name === null) return `${business.site ?? row.site} only (its site gives no name of its own)`;
  return `"${business.name}" (${nameOrigin(signsOfStored(business)) || 'read from its site'})`;
}

function list(): never {
  const rows = clients.list();
  if (rows.length === 0) done('No clients yet: npm run clients -- add --site URL --keywords "a, b"');
  const table = [
    ['id', 'label', 'site', 'searched for', 'status', 'last run', 'score', 'next run'],
    ...rows.map((row) => [
      String(row.id),
      row.label,
      row.site,
      searchedFor(row),
      row.status,
      row.last_run_at === null ? (row.runs > 0 ? 'running' : 'none yet') : `${utc(row.last_run_at)}${row.last_status === 'done' ? '' : ` (${row.last_status ?? ''})`}`,
      row.last_score === null ? '-' : `${row.last_score}/100`,
      row.status === 'paused' ? 'paused' : utc(row.next_run_at),
    ]),
  ];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((line) => (line[column] ?? '').length))) ?? [];
  done(
    ...table.map((line) => line.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()),
    '',
    "Only a hash of each page's address is kept: npm run clients -- link --id N gives a fresh one.",
  );
}

function setStatus(status: ClientRow['status']): never {
  const row = client();
  if (row.status === status) done(`Client #${row.id} (${row.label}) is ${status} already.`);
  clients.setStatus(row.id, status);
  if (status === 'paused') done(`Client #${row.id} (${row.label}) paused: the server runs it no more until npm run clients -- resume --id ${row.id}.`);
  const due = new Date(row.next_run_at) <= new Date();
  done(`Client #${row.id} (${row.label}) resumed: its next run is ${due ? 'due now' : `at ${utc(row.next_run_at)}`}.`);
}

function remove(): never {
  const row = client();
  const runs = clients.list().find((listed) => listed.id === row.id)?.runs ?? 0;
  clients.remove(row.id);
  done(`Client #${row.id} (${row.label}) removed, with its ${plural(runs, 'run')}, their answers and every link to its page: its page now answers as an unknown one.`);
}

/**
 * --brand: the name kept with the client, and every run with a report counted again under it from
 * its kept answers (no assistant asked), and the trend composed again from them, in one write.
 */
function correctBrand(row: ClientRow, given: string): string {
  const checked = givenName(given);
  if ('refused' in checked) stop(`Not changed: ${checked.refused}.`);
  const name: BusinessName = { name: checked.name, signs: ['given'], title: null };
  const business = { targetKeywords: row.keywords, idealCustomer: row.customer, businessDescription: row.description, currentProducts: row.products };
  const counted = db
    .transaction(() => {
      clients.setBrand(row.id, checked.name);
      const runs = clients.finishedRuns(row.id);
      for (const run of runs) {
        const kept = { answers: clients.answers(run.id), document: JSON.parse(run.document ?? 'null') as AuditDocument, check: run.check_report ? (JSON.parse(run.check_report) as SiteCheckReport) : null, status: run.status === 'stopped' ? 'stopped' : 'done', reason: run.reason } satisfies KeptRun;
        // A run of the questions fixed now was planned from them; an earlier series' questions are made again from the client's words.
        const recount = recountRun(kept, business, name, run.series === row.series ? questionsOf(row) : undefined);
        clients.recounted(run.id, { document: JSON.stringify(recount.document), facts: JSON.stringify(monitorFacts(recount.probe)), visibilityScore: recount.visibilityScore, summary: recount.summary });
      }
      const trendRuns = clients.trendRuns(row.id);
      if (trendRuns.length > 0) clients.storeTrend(row.id, composeTrend({ client: { label: row.label, name: checked.name, site: row.site }, runs: trendRuns }));
      return runs.length;
    })
    .immediate();
  return `Client #${row.id} (${row.label}): its answers are searched for "${checked.name}" (given with --brand); ${plural(counted, 'run')} counted again from the answers kept, no assistant asked, and its page changed to match.`;
}

function edit(): never {
  const before = client();
  const running = clients.pending(before.id);
  if (running?.status === 'running') stop(`Client #${before.id}'s run #${running.id} is running: change it once it has ended`);
  const named = options.brand === undefined ? null : correctBrand(before, field('brand', SHORT_FIELD, true));
  if (options.keywords === undefined) done(named ?? '');
  if (named !== null) console.log(named);
  // Its questions are made without the name it now has.
  const row = client();
  const keywords = field('keywords', LONG_FIELD, true);
  const products = options.products === undefined ? row.products : field('products', LONG_FIELD);
  const questions = planClientQuestions({ ...row, keywords, products }, config.monitor.promptsPerAssistant, row.email ? [row.email] : []);
  if (questions.length === 0) stop('These words make no question to ask: give --keywords that name what buyers search for');
  const same = JSON.stringify(questions) === JSON.stringify(questionsOf(row));
  if (same) done(`Client #${row.id}'s questions stay the same: series ${row.series} goes on.`);
  const series = clients.startSeries(row.id, { keywords, products }, questions);
  done(`Client #${row.id} (${row.label}): ${plural(questions.length, 'new question')} fixed for each assistant, series ${series}. Its trend starts again from the next run; the runs before are kept, not compared.`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The run's one-line result: its scores against the run before, and the changes its trend calls real. */
function resultLine(clientRow: ClientRow, runId: number): string {
  const run = clients.run(runId);
  if (!run) stop(`Run #${runId} is gone: client #${clientRow.id} was removed`);
  if (run.status === 'failed') stop(`Run #${run.id} of client #${clientRow.id} (${clientRow.label}) failed: ${run.reason ?? 'no reason given'}`);
  const trend = clients.get(clientRow.id)?.trend;
  const document = trend ? (JSON.parse(trend) as TrendDocument) : null;
  const earlier = clients.earlierRun(run);
  const before = earlier ? { visibilityScore: earlier.visibility_score } : undefined;
  const real = document?.changes.filter((change) => change.verdict !== 'same') ?? [];
  const score = (value: number | null | undefined) => (value === null || value === undefined ? '-' : `${value}/100`);
  return [
    `Run #${run.id} of client #${clientRow.id} (${clientRow.label}) ${run.status === 'done' ? 'finished' : `stopped part way (${run.reason ?? ''})`}:`,
    `visibility ${score(run.visibility_score)}${before ? ` (was ${score(before.visibilityScore)})` : ''}, readiness ${score(run.readiness_score)};`,
    real.length > 0 ? `${plural(real.length, 'real change')}: ${real.map((change) => change.sentence).join(' ')}` : before ? 'no real change.' : 'the first run of its series.',
  ].join(' ');
}

async function run(): Promise<never> {
  const row = client();
  if (config.probe.assistants.length === 0) stop('No AI assistant is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PERPLEXITY_API_KEY', 2);
  if (row.status === 'paused') stop(`Client #${row.id} (${row.label}) is paused: resume it first (npm run clients -- resume --id ${row.id})`);
  let id: number;
  const pending = clients.pending(row.id);
  if (pending) {
    id = pending.id;
    console.log(`Run #${id} of client #${row.id} is ${pending.status} already: waiting for it.`);
  } else {
    const assistants = config.probe.assistants.map((assistant) => ASSISTANTS[assistant.id].label);
    const questions = questionsOf(row).length;
    const calls = questions * assistants.length;
    const now = new Date();
    const used = new ProbeStore(db).callsOn(now);
    const left = Math.max(0, config.probe.dailyCalls - used);
    console.log(`Client #${row.id} (${row.site}): ${questions} questions to each of ${assistants.join(', ')} = ${calls} calls. Today (UTC) ${used} of PROBE_DAILY_CALLS=${config.probe.dailyCalls} are used, ${left} left.`);
    if (calls > left) stop(`Not started: the run needs ${calls} calls and today has ${left} left of PROBE_DAILY_CALLS=${config.probe.dailyCalls}. Run it after 00:00 UTC; the schedule runs it then on its own if it is due.`);
    id = clients.enqueue(row, 'command', config.probe.assistants.length, config.monitor.intervalDays, now);
    console.log(`Queued as run #${id}: the server runs it.`);
  }
  process.once('SIGINT', () => stop(`\nNo longer waiting for run #${id}: it goes on in the server.`, 130));
  const queuedAt = Date.now();
  for (;;) {
    const current = clients.run(id);
    if (!current) stop(`Run #${id} is gone: client #${row.id} was removed`);
    if (current.status !== 'queued' && current.status !== 'running') break;
    if (current.status === 'queued' && current.not_before !== null) stop(`Run #${id} waits for the next UTC day (${utc(current.not_before)}): today's PROBE_DAILY_CALLS cannot hold it. It stays queued.`);
    if (current.status === 'queued' && !clients.runningBesides(id) && Date.now() - queuedAt > SERVER_WAIT_MS) {
      stop(`The server has not started run #${id} in ${SERVER_WAIT_MS / 1000} s: is it running, with an assistant's key set? The run stays queued and starts when the server does.`);
    }
    await sleep(FOLLOW_EVERY_MS);
  }
  done(resultLine(row, id));
}

switch (command) {
  case 'add':
    add();
  case 'list':
    list();
  case 'pause':
    setStatus('paused');
  case 'resume':
    setStatus('active');
  case 'remove':
    remove();
  case 'edit':
    edit();
  case 'link': {
    const row = client();
    done(pageLine(row.id));
  }
  default:
    run().catch((error: unknown) => stop(`The clients command stopped: ${error instanceof Error ? error.message : String(error)}`));
}
