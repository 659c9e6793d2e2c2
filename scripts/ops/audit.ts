// npm run audit -- --id N | --email ADDRESS [--send] [--brand NAME] [--revoke]
// Runs the free audit of one audit request (--email: that person's latest): a fresh site check and
// AUDIT_PROMPTS questions to every configured assistant, run by the server, one run at a time. Before
// it queues the run it prints the calls it will spend against what is left of the day's
// PROBE_DAILY_CALLS, and refuses when the day cannot hold them; then it follows the run (a bar per
// assistant on a terminal, a line per assistant as it goes elsewhere) and prints the report's
// private address. A request whose last run stopped part way goes on where it stopped.
// --send mails the prospect their own link to the latest finished run's report, once per run.
// --brand corrects the business's name the answers are searched for: kept with the request for its
// runs from then on, and every finished run's kept answers are counted again under it, with no
// call to any assistant (its report changes to match; its links stay the same).
// --revoke ends every link given out to the request's reports: they open nothing from then on.
// Exits 0 when the report is there (or was sent, or had been); 1 when there is none, the day
// cannot hold the run, or the server did not start it; 2 on a usage error or when no assistant is
// configured.
import { probePrompts } from '../../shared/generated/probe-prompts';
import { site } from '../../shared/site';
import { givenName, type BusinessName } from '../../server/business/business-name';
import { siteOf } from '../../server/business/names';
import { migrate, openDatabase } from '../../server/db/database';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import { resumedLine, sendCommand } from '../../server/reports/audit/audit-mail';
import { auditReportUrl } from '../../server/reports/private-addresses';
import { AuditRuns, type AuditRequestRow } from '../../server/runs/audit-runs';
import { followRun, progressView, StoppedFollowing } from '../../server/runs/follow';
import { recountRun, type KeptRun } from '../../server/runs/recount';
import { dayBudget, neverFits, runCalls, runCallsLine, runShape } from '../../server/runs/run-budget';
import { RunStore, type RunRow } from '../../server/runs/run-store';
import type { SiteCheckReport } from '../../server/site-check/check-report';
import { ASSISTANTS } from '../../server/visibility-probe/assistant-catalogue';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { buildQuestions, type PlannedQuestion } from '../../server/visibility-probe/prompts';
import { configuredDatabase, fail, parseOptions } from './cli';

const USAGE = 'Usage: npm run audit -- --id N | --email ADDRESS [--send] [--brand NAME] [--revoke]';

const options = parseOptions(process.argv.slice(2), ['id', 'email', 'brand'], ['send', 'revoke']);
if ((options.id === undefined) === (options.email === undefined)) fail(USAGE);
if (options.id !== undefined && (typeof options.id !== 'string' || !/^\d{1,15}$/.test(options.id))) fail(`--id must be an audit request's number, not ${String(options.id)}`);
if (options.email !== undefined && (typeof options.email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(options.email.trim()))) fail(`--email must be an e-mail address, not ${String(options.email)}`);
if ([options.brand !== undefined, options.send === true, options.revoke === true].filter(Boolean).length > 1) fail('--brand, --send and --revoke are each a step of their own: give one at a time');

const { config, db } = configuredDatabase((file) => {
  const opened = openDatabase(file);
  migrate(opened);
  return opened;
});
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

const lead =
  typeof options.id === 'string'
    ? db.prepare<[number], AuditRequestRow>(`SELECT * FROM audit_submissions WHERE id = ?`).get(Number(options.id))
    : db.prepare<[string], AuditRequestRow>(`SELECT * FROM audit_submissions WHERE email_key(email) = email_key(?) ORDER BY id DESC LIMIT 1`).get(String(options.email).trim());
if (!lead) stop(typeof options.id === 'string' ? `No audit request #${options.id}` : `No audit request from ${String(options.email).trim()}`);
const request: AuditRequestRow = lead;
const forRequest = { audit: request.id };

const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;
const documentOf = (run: RunRow) => (run.document ? (JSON.parse(run.document) as AuditDocument) : null);

/** --send: the prospect's mail with a link of their own, once per run. */
function send(): never {
  const run = runs.latestDone(forRequest);
  if (!run) {
    const latest = runs.latest(forRequest);
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
  if (run.sent_at !== null) done(`The report of audit run #${run.id} was sent to ${request.email} at ${utc(run.sent_at)}: it is not sent again.`);
  const document = documentOf(run);
  const audits = new AuditRuns(db, { mailFrom: config.mailFrom, mailTo: config.mailTo, siteUrl: config.siteUrl, brand: site.brand, autoSend: false });
  const queued = audits.sendToProspect(run, document?.business.name ?? document?.business.site ?? null, new Date());
  if (!queued) stop(`The report of audit run #${run.id} has been sent already: it is not sent again.`, 0);
  done(`The report of audit run #${run.id} is in the outbox for ${request.email} (from ${config.mailFrom}, replies to ${config.mailTo}), with a link of their own: the server sends it within seconds.`);
}

/** --revoke: every link given out to the request's reports ends; a fresh one is printed by the next run, or by --send. */
function revoke(): never {
  const ended = runs.revokeLinks(forRequest);
  done(`Audit request #${request.id}: ${ended} link${ended === 1 ? '' : 's'} to its reports ended; they open nothing now. A new one comes with the next run (npm run audit -- --id ${request.id}) or --send.`);
}

/** --brand: the name kept with the request, and every finished run counted again under it. */
function correctBrand(given: string): never {
  const checked = givenName(given);
  if ('refused' in checked) stop(`Not changed: ${checked.refused}.`, 2);
  const name: BusinessName = { name: checked.name, signs: ['given'], title: null };
  const business = { targetKeywords: request.target_keywords, idealCustomer: request.ideal_customer, businessDescription: request.business_description, currentProducts: request.current_products };
  // One write: the name and every report counted again under it, or none of them.
  const recounts = db
    .transaction(() => {
      db.prepare(`UPDATE audit_submissions SET brand = ? WHERE id = ?`).run(checked.name, request.id);
      return runs.withReport(forRequest).flatMap((run) => {
        const before = documentOf(run);
        if (before === null) return [];
        const kept = { answers: runs.answers(run.id), document: before, check: run.check_report ? (JSON.parse(run.check_report) as SiteCheckReport) : null, status: run.status === 'stopped' ? 'stopped' : 'done', reason: run.reason } satisfies KeptRun;
        const recount = recountRun(kept, business, name, run.questions ? (JSON.parse(run.questions) as PlannedQuestion[]) : undefined);
        runs.recounted(run.id, { document: JSON.stringify(recount.document), facts: null, visibilityScore: recount.visibilityScore, summary: recount.summary });
        return [{ run, before, after: recount.document }];
      });
    })
    .immediate();
  const named = (document: AuditDocument) => {
    const counts = document.visibility.reduce((sum, part) => ({ named: sum.named + part.named.count, answered: sum.answered + part.answered }), { named: 0, answered: 0 });
    return `named in ${counts.named} of ${counts.answered} answers`;
  };
  done(
    `Audit request #${request.id}: its answers are searched for "${checked.name}" (given with --brand) from now on.`,
    ...recounts.map(({ run, before, after }) => `Audit run #${run.id} counted again, no assistant asked: ${named(after)} (was ${named(before)} as "${before.business.name ?? before.business.site ?? '-'}").`),
    ...(recounts.length === 0 ? ['It has no finished run yet: its next run searches for this name.'] : []),
  );
}

if (typeof options.brand === 'string') correctBrand(options.brand);
if (options.revoke === true) revoke();
if (options.send === true) send();
if (config.probe.assistants.length === 0) stop('No AI assistant is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PERPLEXITY_API_KEY', 2);
if (request.website_url === '') stop(`Audit request #${request.id} names no website: the audit looks for the business by its site, so there is nothing to run`);

const assistants = config.probe.assistants.map((assistant) => assistant.id);
const labels = assistants.map((id) => ASSISTANTS[id].label);

/** Queues the run (or, for one stopped part way, queues it again to ask the rest) once the day is seen to hold it; returns its id. */
function queue(): number {
  const latest = runs.latest(forRequest);
  if (latest && (latest.status === 'queued' || latest.status === 'running')) {
    console.log(`Audit run #${latest.id} of request #${request.id} is ${latest.status} already: following it.`);
    return latest.id;
  }
  // The questions as the run will make them, at most: the business's name, read from its site by
  // the run, can only leave some out.
  const questions = buildQuestions(
    { targetKeywords: request.target_keywords, idealCustomer: request.ideal_customer, businessDescription: request.business_description, currentProducts: request.current_products },
    { count: config.audit.promptsPerAssistant, templates: probePrompts.templates, brand: request.brand, domain: siteOf(request.website_url), personal: [request.name, request.email] },
  ).length;
  const going = latest?.status === 'stopped' ? latest : null;
  const kept = going ? runs.answers(going.id).length : 0;
  const shape = runShape(config);
  const calls = going ? runs.callsLeftFor(going) : runCalls(questions, shape);
  const day = dayBudget(new ProbeStore(db).callsOn(new Date()), config.probe.dailyCalls);
  const what = going
    ? `Audit run #${going.id} of request #${request.id} (${request.website_url}) stopped part way with ${kept} answers kept: the rest is ${calls} calls`
    : `Audit of request #${request.id} (${request.website_url}): ${runCallsLine(questions, shape, labels)}`;
  console.log(`${what}. ${day.line}`);
  const never = neverFits(calls, config.probe.dailyCalls, 'Set a lower AUDIT_PROMPTS');
  if (never) stop(never);
  if (!day.holds(calls)) {
    stop(`Not started: the audit needs ${calls} calls and today has ${day.left} left of PROBE_DAILY_CALLS=${config.probe.dailyCalls} (leads' probes and npm run probe count too). Run it after 00:00 UTC, or set a lower AUDIT_PROMPTS.`);
  }
  if (going) {
    runs.continueStopped(going.id);
    console.log(`Audit run #${going.id} queued again: the server asks the rest.`);
    return going.id;
  }
  const id = runs.enqueue({ for: forRequest, trigger: 'command', prompts: questions, shape }, new Date());
  console.log(`Queued as audit run #${id}: the server runs it.`);
  return id;
}

async function main(): Promise<void> {
  const id = queue();
  process.once('SIGINT', () => stop(`\nNo longer following audit run #${id}: it goes on in the server. Follow it again with npm run audit -- --id ${request.id}`, 130));
  const show = progressView(assistants);
  let run: RunRow;
  try {
    run = await followRun(runs, id, { name: `audit run #${id}`, gone: 'its request was erased', onProgress: show, again: ` follow it with npm run audit -- --id ${request.id}` });
  } catch (error) {
    if (error instanceof StoppedFollowing) stop(error.message, error.status);
    throw error;
  }
  if (run.progress !== null) show(JSON.parse(run.progress));
  const document = documentOf(run);
  if (run.status === 'failed' || document === null) stop(`Audit run #${run.id} failed: ${run.reason ?? 'no reason given'}`);
  const answered = document.visibility.reduce((sum, assistant) => sum + assistant.answered, 0);
  const link = auditReportUrl(config.siteUrl, runs.mintLink({ run: run.id }, 'agency', new Date()));
  if (run.attempts > 1) console.log(resumedLine(run.attempts));
  if (run.status === 'stopped') console.log(`Audit run #${run.id} stopped part way: ${run.reason ?? ''}. To ask the rest: npm run audit -- --id ${request.id}`);
  console.log(`Visibility ${run.visibility_score ?? '-'}/100, readiness ${run.readiness_score ?? '-'}/100, ${answered} answers: ${run.summary ?? ''}`);
  console.log(`Report (for the agency; anyone with this address can read it): ${link}`);
  console.log(`Once reviewed, send the prospect their own link: ${sendCommand(request.id)}`);
  db.close();
  if (answered === 0) process.exitCode = 1;
}

main().catch((error: unknown) => stop(`The audit command stopped: ${error instanceof Error ? error.message : String(error)}`));
