// npm run audit -- --id N | --email ADDRESS [--send] [--brand NAME]
// Runs the free audit of one audit request (--email: that person's latest): a fresh site check and
// AUDIT_PROMPTS questions to every configured assistant, run by the server's audit worker, one run
// at a time. Before it queues the run it prints the calls it will spend against what is left of
// the day's PROBE_DAILY_CALLS, and refuses when the day cannot hold them; then it follows the run
// (a bar per assistant on a terminal, a line per assistant as it goes elsewhere) and prints the
// report's private address. A request whose last run stopped part way goes on where it stopped.
// --send mails the prospect their own link to the latest finished run's report, once per run.
// --brand corrects the business's name the answers are searched for: kept with the request for its
// runs from then on, and every finished run's kept answers are counted again under it, with no
// call to any assistant (its report changes to match; its links stay the same).
// Exits 0 when the report is there (or was sent, or had been); 1 when there is none, the day
// cannot hold the run, or the server did not start it; 2 on a usage error or when no assistant is
// configured.
import { probePrompts } from '../../shared/generated/probe-prompts';
import { site } from '../../shared/site';
import { migrate, openDatabase } from '../../server/db/database';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import { AuditMail, reportAddress, resumedLine, sendCommand } from '../../server/reports/audit/audit-mail';
import { AuditRunStore, type AuditProgress, type AuditRunRow } from '../../server/reports/audit/audit-store';
import { ClientStore } from '../../server/reports/monitor/client-store';
import { ASSISTANTS } from '../../server/visibility-probe/assistant-catalogue';
import { siteOf } from '../../server/business/names';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { buildQuestions } from '../../server/visibility-probe/prompts';
import { givenName, type BusinessName } from '../../server/business/business-name';
import { recountRun, type KeptRun } from '../../server/reports/recount';
import type { SiteCheckReport } from '../../server/site-check/check-report';
import { configuredDatabase, fail, parseOptions } from './cli';

const USAGE = 'Usage: npm run audit -- --id N | --email ADDRESS [--send] [--brand NAME]';
/** How often the run is looked at while it is followed. */
const FOLLOW_EVERY_MS = 500;
/** How long a queued run may wait for the server, with no other run before it, before the command says the server is not running it. */
const SERVER_WAIT_MS = 15_000;

const options = parseOptions(process.argv.slice(2), ['id', 'email', 'brand'], ['send']);
if ((options.id === undefined) === (options.email === undefined)) fail(USAGE);
if (options.id !== undefined && (typeof options.id !== 'string' || !/^\d{1,15}$/.test(options.id))) fail(`--id must be an audit request's number, not ${String(options.id)}`);
if (options.email !== undefined && (typeof options.email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(options.email.trim()))) fail(`--email must be an e-mail address, not ${String(options.email)}`);
if (options.brand !== undefined && (typeof options.brand !== 'string' || options.send === true)) fail(options.send === true ? '--brand and --send are two steps: correct the name, review the report, then send it' : USAGE);

const { config, db } = configuredDatabase((file) => {
  const opened = openDatabase(file);
  migrate(opened);
  return opened;
});
const runs = new AuditRunStore(db);
const clientRuns = new ClientStore(db);

interface Lead {
  id: number;
  name: string;
  brand: string | null;
  email: string;
  website_url: string;
  business_description: string;
  ideal_customer: string;
  target_keywords: string;
  current_products: string;
}

/** Ends the command with one line on stderr. */
function stop(message: string, code = 1): never {
  console.error(message);
  db.close();
  process.exit(code);
}

const lead =
  typeof options.id === 'string'
    ? db.prepare<[number], Lead>(`SELECT * FROM audit_submissions WHERE id = ?`).get(Number(options.id))
    : db.prepare<[string], Lead>(`SELECT * FROM audit_submissions WHERE email_key(email) = email_key(?) ORDER BY id DESC LIMIT 1`).get(String(options.email).trim());
if (!lead) stop(typeof options.id === 'string' ? `No audit request #${options.id}` : `No audit request from ${String(options.email).trim()}`);
const request: Lead = lead;

const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;
const documentOf = (run: AuditRunRow) => (run.document ? (JSON.parse(run.document) as AuditDocument) : null);

/** --send: the prospect's mail with a link of their own, once per run. */
function send(): never {
  const run = runs.latestDone(request.id);
  if (!run) {
    const latest = runs.latest(request.id);
    const why =
      latest === null
        ? `has no audit run yet: run npm run audit -- --id ${request.id} first`
        : latest.status === 'queued' || latest.status === 'running'
          ? `has its audit run #${latest.id} still ${latest.status}: send it once it has finished`
          : latest.status === 'stopped'
            ? `has only an incomplete report (run #${latest.id} stopped part way: ${latest.reason ?? ''}); ask the rest with npm run audit -- --id ${request.id}, then send it`
            : `has no finished report (run #${latest.id} failed: ${latest.reason ?? ''}); run it again with npm run audit -- --id ${request.id}`;
    stop(`Nothing sent: audit request #${request.id} ${why}`);
  }
  if (run.sent_at !== null) {
    console.log(`The report of audit run #${run.id} was sent to ${request.email} at ${utc(run.sent_at)}: it is not sent again.`);
    db.close();
    process.exit(0);
  }
  const document = documentOf(run);
  const mail = new AuditMail(db, { mailFrom: config.mailFrom, mailTo: config.mailTo, siteUrl: config.siteUrl, brand: site.brand });
  const queued = mail.sendToProspect(run, document?.business.name ?? document?.business.site ?? null, new Date());
  if (!queued) stop(`The report of audit run #${run.id} has been sent already: it is not sent again.`, 0);
  console.log(`The report of audit run #${run.id} is in the outbox for ${request.email} (from ${config.mailFrom}, replies to ${config.mailTo}), with a link of their own: the server sends it within seconds.`);
  db.close();
  process.exit(0);
}

/** --brand: the name kept with the request, and every finished run counted again under it. */
function correctBrand(given: string): never {
  const checked = givenName(given);
  if ('refused' in checked) stop(`Not changed: ${checked.refused}.`, 2);
  const name: BusinessName = { name: checked.name, signs: ['given'], title: null };
  const business = { targetKeywords: request.target_keywords, idealCustomer: request.ideal_customer, businessDescription: request.business_description, currentProducts: request.current_products };
  const finished = runs.finishedOf(request.id);
  // One write: the name and every report counted again under it, or none of them.
  const recounts = db
    .transaction(() => {
      db.prepare(`UPDATE audit_submissions SET brand = ? WHERE id = ?`).run(checked.name, request.id);
      return finished.map((run) => {
        const before = documentOf(run);
        if (before === null) return null;
        const kept = { answers: runs.answers(run.id), document: before, check: run.check_report ? (JSON.parse(run.check_report) as SiteCheckReport) : null, status: run.status === 'stopped' ? 'stopped' : 'done', reason: run.reason } satisfies KeptRun;
        const recount = recountRun(kept, business, name);
        runs.recounted(run.id, { document: JSON.stringify(recount.document), visibilityScore: recount.visibilityScore, summary: recount.summary });
        return { run, before, after: recount.document };
      });
    })
    .immediate();
  console.log(`Audit request #${request.id}: its answers are searched for "${checked.name}" (given with --brand) from now on.`);
  for (const recount of recounts) {
    if (recount === null) continue;
    const named = (document: AuditDocument) => {
      const counts = document.visibility.reduce((sum, part) => ({ named: sum.named + part.named.count, answered: sum.answered + part.answered }), { named: 0, answered: 0 });
      return `named in ${counts.named} of ${counts.answered} answers`;
    };
    console.log(`Audit run #${recount.run.id} counted again, no assistant asked: ${named(recount.after)} (was ${named(recount.before)} as "${recount.before.business.name ?? recount.before.business.site ?? '-'}").`);
  }
  if (recounts.every((recount) => recount === null)) console.log('It has no finished run yet: its next run searches for this name.');
  db.close();
  process.exit(0);
}

if (typeof options.brand === 'string') correctBrand(options.brand);
if (options.send === true) send();
if (config.probe.assistants.length === 0) stop('No AI assistant is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PERPLEXITY_API_KEY', 2);
if (request.website_url === '') stop(`Audit request #${request.id} names no website: the audit looks for the business by its site, so there is nothing to run`);

const assistants = config.probe.assistants.map((assistant) => assistant.id);
const labels = assistants.map((id) => ASSISTANTS[id].label);

/** Queues the run (or, for one stopped part way, queues it again to ask the rest) once the day is seen to hold it; returns its id. */
function queue(): number {
  const latest = runs.latest(request.id);
  if (latest && (latest.status === 'queued' || latest.status === 'running')) {
    console.log(`Audit run #${latest.id} of request #${request.id} is ${latest.status} already: following it.`);
    return latest.id;
  }
  // The questions as the run will make them, at most: the business's name, read from its site by
  // the run, can only leave some out.
  const questions = buildQuestions(
    { targetKeywords: request.target_keywords, idealCustomer: request.ideal_customer, businessDescription: request.business_description, currentProducts: request.current_products },
    { count: config.audit.promptsPerAssistant, templates: probePrompts.templates, brand: null, domain: siteOf(request.website_url), personal: [request.name, request.email] },
  ).length;
  const going = latest?.status === 'stopped' ? latest : null;
  const kept = going ? runs.answers(going.id).length : 0;
  const calls = Math.max(0, questions * assistants.length - kept);
  const now = new Date();
  const used = new ProbeStore(db).callsOn(now);
  const left = Math.max(0, config.probe.dailyCalls - used);
  const what = going
    ? `Audit run #${going.id} of request #${request.id} (${request.website_url}) stopped part way with ${kept} answers kept: the rest is ${calls} calls`
    : `Audit of request #${request.id} (${request.website_url}): ${questions} questions to each of ${labels.join(', ')} = ${calls} calls`;
  console.log(`${what}. Today (UTC) ${used} of PROBE_DAILY_CALLS=${config.probe.dailyCalls} are used, ${left} left.`);
  if (calls > left) {
    stop(`Not started: the audit needs ${calls} calls and today has ${left} left of PROBE_DAILY_CALLS=${config.probe.dailyCalls} (leads' probes and npm run probe count too). Run it after 00:00 UTC, or set a lower AUDIT_PROMPTS.`);
  }
  if (going) {
    runs.continueStopped(going.id);
    console.log(`Audit run #${going.id} queued again: the server asks the rest.`);
    return going.id;
  }
  const id = runs.enqueue(request.id, 'command', questions, assistants.length, now);
  console.log(`Queued as audit run #${id}: the server runs it.`);
  return id;
}

/** How the run is shown while it goes: bars redrawn in place on a terminal, a plain line per assistant as it moves elsewhere. */
function progressView() {
  const terminal = process.stderr.isTTY === true;
  const width = Math.max(...labels.map((label) => label.length));
  let drawn = 0;
  let lastStep: string | null = null;
  const lastCounts = new Map<string, number>();
  return {
    show(progress: AuditProgress) {
      const counts = assistants.map((id) => progress.answered[id] ?? 0);
      const of = progress.questions;
      if (terminal) {
        const lines = [
          `${progress.step}...`,
          ...assistants.map((id, index) => {
            const done = counts[index] ?? 0;
            const share = of ? Math.min(1, done / of) : 0;
            const filled = Math.round(share * 30);
            return `${ASSISTANTS[id].label.padEnd(width)} [${'#'.repeat(filled)}${'-'.repeat(30 - filled)}] ${done}/${of ?? '?'}`;
          }),
        ];
        // Back to the first line drawn, then each line written over.
        process.stderr.write(`${drawn > 0 ? `\x1b[${drawn}A` : ''}${lines.map((line) => `\r\x1b[K${line}`).join('\n')}\n`);
        drawn = lines.length;
        return;
      }
      if (progress.step !== lastStep) {
        process.stderr.write(`${progress.step}...\n`);
        lastStep = progress.step;
      }
      assistants.forEach((id, index) => {
        const done = counts[index] ?? 0;
        if (of === null || lastCounts.get(id) === done) return;
        lastCounts.set(id, done);
        process.stderr.write(`${ASSISTANTS[id].label}: ${done} of ${of} questions answered\n`);
      });
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Follows the run until it ends; returns it as it ended. */
async function follow(id: number, view: ReturnType<typeof progressView>): Promise<AuditRunRow> {
  const queuedAt = Date.now();
  let waitingFor: number | null = null;
  let lastProgress: string | null = null;
  for (;;) {
    const run = runs.get(id);
    if (!run) stop(`Audit run #${id} is gone: its request was erased`);
    if (run.status !== 'queued' && run.status !== 'running') return run;
    if (run.status === 'queued') {
      const before = runs.runningBesides(id);
      if (before && before.id !== waitingFor) {
        waitingFor = before.id;
        process.stderr.write(`Waiting for audit run #${before.id} (request #${before.audit_id}) to end: one runs at a time.\n`);
      }
      // A monitored client's run holds it back too: one background run at a time.
      const monitoring = before ? null : clientRuns.runningBesides(0);
      if (monitoring && monitoring.id !== waitingFor) {
        waitingFor = monitoring.id;
        process.stderr.write(`Waiting for a monitored client's ${monitoring.what} #${monitoring.id} to end: one runs at a time.\n`);
      }
      if (!before && !monitoring && Date.now() - queuedAt > SERVER_WAIT_MS) {
        stop(
          `The server has not started audit run #${id} in ${SERVER_WAIT_MS / 1000} s: is it running, with an assistant's key set? The run stays queued and starts when the server does; follow it with npm run audit -- --id ${request.id}`,
        );
      }
    } else if (run.progress !== null && run.progress !== lastProgress) {
      lastProgress = run.progress;
      view.show(JSON.parse(run.progress) as AuditProgress);
    }
    await sleep(FOLLOW_EVERY_MS);
  }
}

async function main(): Promise<void> {
  const id = queue();
  process.once('SIGINT', () => stop(`\nNo longer following audit run #${id}: it goes on in the server. Follow it again with npm run audit -- --id ${request.id}`, 130));
  const view = progressView();
  const run = await follow(id, view);
  if (run.progress !== null) view.show(JSON.parse(run.progress) as AuditProgress);
  const document = documentOf(run);
  if (run.status === 'failed' || document === null) stop(`Audit run #${run.id} failed: ${run.reason ?? 'no reason given'}`);
  const answered = document.visibility.reduce((sum, assistant) => sum + assistant.answered, 0);
  const link = reportAddress(config.siteUrl, runs.mintLink(run.id, 'agency', new Date()));
  if (run.attempts > 1) console.log(resumedLine(run.attempts));
  if (run.status === 'stopped') console.log(`Audit run #${run.id} stopped part way: ${run.reason ?? ''}. To ask the rest: npm run audit -- --id ${request.id}`);
  console.log(`Visibility ${run.visibility_score ?? '-'}/100, readiness ${run.readiness_score ?? '-'}/100, ${answered} answers: ${run.summary ?? ''}`);
  console.log(`Report (for the agency; anyone with this address can read it): ${link}`);
  console.log(`Once reviewed, send the prospect their own link: ${sendCommand(request.id)}`);
  db.close();
  if (answered === 0) process.exitCode = 1;
}

main().catch((error: unknown) => stop(`The audit command stopped: ${error instanceof Error ? error.message : String(error)}`));
