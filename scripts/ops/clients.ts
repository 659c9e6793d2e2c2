// npm run clients -- add|list|pause|resume|remove|run|edit|link
// The agency's monitored clients, without accounts: each is asked the same fixed questions every
// MONITOR_INTERVAL_DAYS by the server, and its private page shows the trend of its runs.
//   add --site URL --keywords "a, b" [--customer "..."] [--products "..."] [--brand NAME] [--label NAME] [--email ADDRESS]
//   add --from-audit N [--label NAME] [--brand NAME] [--email ADDRESS]   (the details of audit request N)
//   list                      id, label, site, the name searched for and where it was read, status, last run, score, next run
//   pause|resume|remove|link --id N
//   link --id N --revoke      ends every link given out to the client's page
//   run --id N                queues a run now (or goes on with one stopped part way), waits for it and prints its one-line result
//   edit --id N --keywords "a, b" [--products "..."]   new fixed questions: a new series
//   edit --id N --brand NAME  the name its answers are searched for: every run counted again, no call made
// Exits 0 when done; 1 on a bad value, an unknown client, or a run that did not end well; 2 on a
// usage error or, for run, when no assistant is configured.
import { givenName, nameOrigin, signsOfStored, type BusinessName } from '../../server/business/business-name';
import { hostOf, siteOf } from '../../server/business/names';
import { migrate, openDatabase } from '../../server/db/database';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import { composeTrend, monitorFacts } from '../../server/reports/monitor/compose-trend';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import { clientPageUrl } from '../../server/reports/private-addresses';
import { ClientStore, planClientQuestions, questionsOf, type ClientListing, type ClientRow, type NewClient } from '../../server/runs/client-store';
import { TREND_RUNS, trendRuns } from '../../server/runs/client-runs';
import { followRun, runName, StoppedFollowing } from '../../server/runs/follow';
import { recountRun, type KeptRun } from '../../server/runs/recount';
import { dayBudget, neverFits, runCalls, runCallsLine, runShape } from '../../server/runs/run-budget';
import { RunStore, type RunRow } from '../../server/runs/run-store';
import type { SiteCheckReport } from '../../server/site-check/check-report';
import { ASSISTANTS } from '../../server/visibility-probe/assistant-catalogue';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import type { PlannedQuestion } from '../../server/visibility-probe/prompts';
import { configuredDatabase, fail, parseOptions } from './cli';

const USAGE = [
  'Usage: npm run clients -- add --site URL --keywords "a, b" [--customer "..."] [--products "..."] [--brand NAME] [--label NAME] [--email ADDRESS]',
  '       npm run clients -- add --from-audit N [--label NAME] [--brand NAME] [--email ADDRESS]',
  '       npm run clients -- list',
  '       npm run clients -- pause|resume|remove|run|link --id N',
  '       npm run clients -- link --id N --revoke',
  '       npm run clients -- edit --id N --keywords "a, b" [--products "..."]',
  '       npm run clients -- edit --id N --brand NAME',
].join('\n');
/** The longest label, brand or site kept; the longest keywords, customer or products. */
const SHORT_FIELD = 200;
const LONG_FIELD = 2_000;

const [command, ...rest] = process.argv.slice(2);
const OPTIONS: Record<string, { known: string[]; required: string[]; flags?: string[] }> = {
  add: { known: ['site', 'keywords', 'customer', 'products', 'brand', 'label', 'email', 'from-audit'], required: [] },
  list: { known: [], required: [] },
  pause: { known: ['id'], required: ['id'] },
  resume: { known: ['id'], required: ['id'] },
  remove: { known: ['id'], required: ['id'] },
  run: { known: ['id'], required: ['id'] },
  link: { known: ['id'], required: ['id'], flags: ['revoke'] },
  edit: { known: ['id', 'keywords', 'products', 'brand'], required: ['id'] },
};
const spec = command === undefined ? undefined : OPTIONS[command];
if (spec === undefined) fail(USAGE);
const parsed = parseOptions(rest, spec.known, spec.flags ?? []);
const options = Object.fromEntries(Object.entries(parsed).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : []))) as Record<string, string>;
if (spec.required.some((name) => options[name] === undefined)) fail(USAGE);
if (command === 'edit' && options.keywords === undefined && options.brand === undefined) fail(USAGE);

const { config, db } = configuredDatabase((file) => {
  const opened = openDatabase(file);
  migrate(opened);
  return opened;
});
const clients = new ClientStore(db);
const runs = new RunStore(db);

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
const pageLine = (id: number) => `Page (for the agency; anyone with this address can read it): ${clientPageUrl(config.siteUrl, runs.mintLink({ client: id }, 'agency', new Date()))}`;

const shape = runShape(config);
/** The calls one run of `questions` questions takes. */
const callsOfRun = (questions: number) => runCalls(questions, shape);

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
  const never = neverFits(callsOfRun(questions.length), config.probe.dailyCalls, 'Set a lower MONITOR_PROMPTS');
  if (never) stop(never.replace('Not queued', 'Not added: its run'));
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
  const latest = runs.withReport({ client: row.id }).at(-1);
  const business = latest?.document ? (JSON.parse(latest.document) as AuditDocument).business : null;
  if (!business) return 'read from its site at its first run';
  if (business.name === null) return `${business.site ?? row.site} only (its site gives no name of its own)`;
  return `"${business.name}" (${nameOrigin(signsOfStored(business)) || 'read from its site'})`;
}

/** Its latest ended run, or what the run it has queued waits for. */
function lastRun(row: ClientListing): string {
  if (row.pending_status === 'running') return `run #${row.pending_id ?? ''} running`;
  if (row.pending_status === 'queued') {
    const running = row.pending_id === null ? null : runs.runningBesides(row.pending_id);
    const waits =
      row.status === 'paused'
        ? 'waits: the client is paused'
        : row.pending_not_before !== null
          ? `waits for ${utc(row.pending_not_before)} (today's PROBE_DAILY_CALLS cannot hold it)`
          : running
            ? `waits for ${runName(running)}`
            : 'queued: the server starts it within seconds';
    return `run #${row.pending_id ?? ''} ${waits}`;
  }
  if (row.last_run_at === null) return 'none yet';
  return `${utc(row.last_run_at)}${row.last_status === 'done' ? '' : ` (${row.last_status ?? ''})`}`;
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
      lastRun(row),
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
  const count = clients.list().find((listed) => listed.id === row.id)?.runs ?? 0;
  clients.remove(row.id);
  done(`Client #${row.id} (${row.label}) removed, with its ${plural(count, 'run')}, their answers and every link to its page: its page now answers as an unknown one.`);
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
      const finished = runs.withReport({ client: row.id });
      for (const run of finished) {
        const kept = { answers: runs.answers(run.id), document: JSON.parse(run.document ?? 'null') as AuditDocument, check: run.check_report ? (JSON.parse(run.check_report) as SiteCheckReport) : null, status: run.status === 'stopped' ? 'stopped' : 'done', reason: run.reason } satisfies KeptRun;
        // Each run counted from the questions it asked, kept with it; a run kept before they were, from the client's current words.
        const recount = recountRun(kept, business, name, run.questions ? (JSON.parse(run.questions) as PlannedQuestion[]) : undefined);
        runs.recounted(run.id, { document: JSON.stringify(recount.document), facts: JSON.stringify(monitorFacts(recount.probe)), visibilityScore: recount.visibilityScore, summary: recount.summary });
      }
      // The trend composed again from the runs as counted now (this command's own process, not the site's).
      const counted = trendRuns(runs.withReport({ client: row.id }));
      const latest = counted.at(-1);
      if (latest) {
        const series = counted.filter((run) => run.series === latest.series).slice(-TREND_RUNS);
        clients.storeTrend(row.id, JSON.stringify(composeTrend({ client: { label: row.label, name: checked.name, site: row.site }, runs: series, earlierSeriesRuns: counted.length - counted.filter((run) => run.series === latest.series).length })));
      }
      return finished.length;
    })
    .immediate();
  return `Client #${row.id} (${row.label}): its answers are searched for "${checked.name}" (given with --brand); ${plural(counted, 'run')} counted again from the answers kept, no assistant asked, and its page changed to match.`;
}

function edit(): never {
  const before = client();
  const running = runs.pending({ client: before.id });
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
  const series = clients.startSeries(row.id, { keywords, products }, questions, shape);
  done(`Client #${row.id} (${row.label}): ${plural(questions.length, 'new question')} fixed for each assistant, series ${series}. Its trend starts again from the next run; the runs before are kept, not compared.`);
}

/** The run's one-line result: its scores against the run before, and the changes its trend calls real. */
function resultLine(clientRow: ClientRow, run: RunRow): string {
  if (run.status === 'failed') stop(`Run #${run.id} of client #${clientRow.id} (${clientRow.label}) failed: ${run.reason ?? 'no reason given'}`);
  const trend = clients.get(clientRow.id)?.trend;
  const document = trend ? (JSON.parse(trend) as TrendDocument) : null;
  const earlier = runs.withReport({ client: clientRow.id }).filter((other) => other.id < run.id && other.series === run.series && other.status === 'done').at(-1);
  const before = earlier ? { visibilityScore: earlier.visibility_score } : undefined;
  const real = document?.changes.filter((change) => change.verdict !== 'same') ?? [];
  const score = (value: number | null | undefined) => (value === null || value === undefined ? '-' : `${value}/100`);
  return [
    `Run #${run.id} of client #${clientRow.id} (${clientRow.label}) ${run.status === 'done' ? 'finished' : `stopped part way (${run.reason ?? ''})`}:`,
    `visibility ${score(run.visibility_score)}${before ? ` (was ${score(before.visibilityScore)})` : ''}, readiness ${score(run.readiness_score)};`,
    real.length > 0 ? `${plural(real.length, 'real change')}: ${real.map((change) => change.sentence).join(' ')}` : before ? 'no real change.' : 'the first run of its series.',
  ].join(' ');
}

/** run --id N: a run now (or the rest of one stopped part way), once the day is seen to hold it; waits for it and prints its result. */
async function run(): Promise<never> {
  const row = client();
  if (config.probe.assistants.length === 0) stop('No AI assistant is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PERPLEXITY_API_KEY', 2);
  if (row.status === 'paused') stop(`Client #${row.id} (${row.label}) is paused: resume it first (npm run clients -- resume --id ${row.id})`);
  let id: number;
  const pending = runs.pending({ client: row.id });
  if (pending) {
    id = pending.id;
    console.log(`Run #${id} of client #${row.id} is ${pending.status} already: waiting for it.`);
  } else {
    const assistants = config.probe.assistants.map((assistant) => ASSISTANTS[assistant.id].label);
    const latest = runs.latest({ client: row.id });
    const going = latest?.status === 'stopped' ? latest : null;
    const questions = questionsOf(row).length;
    const calls = going ? runs.callsLeftFor(going) : callsOfRun(questions);
    const day = dayBudget(new ProbeStore(db).callsOn(new Date()), config.probe.dailyCalls);
    console.log(
      `${going ? `Run #${going.id} of client #${row.id} (${row.site}) stopped part way: the rest is ${calls} calls` : `Client #${row.id} (${row.site}): ${runCallsLine(questions, shape, assistants)}`}. ${day.line}`,
    );
    const never = neverFits(calls, config.probe.dailyCalls, 'Set a lower MONITOR_PROMPTS and give the client new questions (edit)');
    if (never) stop(never);
    if (!day.holds(calls)) stop(`Not started: the run needs ${calls} calls and today has ${day.left} left of PROBE_DAILY_CALLS=${config.probe.dailyCalls}. Run it after 00:00 UTC; the schedule runs it then on its own if it is due.`);
    if (going) {
      runs.continueStopped(going.id);
      id = going.id;
      console.log(`Run #${id} queued again: the server asks the rest.`);
    } else {
      id = clients.enqueue(row, 'command', shape, config.monitor.intervalDays, new Date());
      console.log(`Queued as run #${id}: the server runs it.`);
    }
  }
  process.once('SIGINT', () => stop(`\nNo longer waiting for run #${id}: it goes on in the server.`, 130));
  try {
    done(resultLine(row, await followRun(runs, id, { name: `run #${id}`, gone: `client #${row.id} was removed` })));
  } catch (error) {
    if (error instanceof StoppedFollowing) stop(error.message, error.status);
    throw error;
  }
}

/** link --id N: a fresh address of the client's page; --revoke: every address given out ends. */
function link(): never {
  const row = client();
  if (parsed.revoke !== true) done(pageLine(row.id));
  const ended = runs.revokeLinks({ client: row.id });
  done(`Client #${row.id} (${row.label}): ${plural(ended, 'link')} to its page ended; they open nothing now. A new one: npm run clients -- link --id ${row.id}`);
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
  case 'link':
    link();
  default:
    run().catch((error: unknown) => stop(`The clients command stopped: ${error instanceof Error ? error.message : String(error)}`));
}
