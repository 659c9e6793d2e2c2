import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate, openDatabase } from '../../server/db/database';
import { ASSISTANT_IDS, type AssistantId } from '../../server/visibility-probe/assistant-catalogue';
import { notNamed, type RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { backgroundProcesses } from '../helpers/background-processes';
import { parseCsv } from '../helpers/csv';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant, type Reply } from '../helpers/fake-assistants';
import { html, startFixtureSite, type FixtureSite } from '../helpers/fixture-sites';
import { validAudit } from '../helpers/forms';
import { runOps, runOpsInBackground } from '../helpers/ops-command';
import { openProcessForm, postProcessForm, waitFor } from '../helpers/process-forms';
import { serverPort, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { ROOT } from '../helpers/locations';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { OKAFOR_HOME, pageAt, query, receivedMails } from '../helpers/full-runs';
import { HONEYPOT_FIELD } from '../../shared/forms/form-contract';

/*
 * The free audit's full run, as ops and the agency meet it: `npm run audit` as a process, the
 * built server as a process running it, each assistant's fake API on its own wire format, a
 * fixture site whose home page gives only its title, a real SMTP server, and the database file
 * both share.
 */

jest.setTimeout(180_000);

/** ChatGPT's answer: the business named second, after a rival. */
const namedSecond: RecordedAnswer = {
  text: [
    'Reliable plumbers people recommend:',
    '',
    '1. **Pipe Pros Leeds** – fixed-price quotes.',
    '2. **Okafor Plumbing** – Gas Safe registered, quick to answer.',
  ].join('\n'),
  sources: [{ url: 'https://www.checkatrade.com/trades/okaforplumbing', title: 'Okafor Plumbing | Checkatrade' }],
};

const AGENCY = 'leads@citewise.example';
const SENDER = 'audits@citewise.example';
const PROSPECT = 'ada@okaforplumbing.example';

let dir: string;
let site: FixtureSite;
let smtp: TestSmtpServer;
const fakes: FakeAssistant[] = [];
/** Whether the fakes answer; false: they hold each question unanswered (a run cut part way). */
let answering = true;
/** Questions each fake had answered, in order. */
const answered: Record<AssistantId, string[]> = { chatgpt: [], claude: [], gemini: [], perplexity: [] };
/**
 * The port of every server this file starts, one after another: one SITE_URL, so the pages each
 * start compresses are those the first one did (PAGE_CACHE_DIR), not all of them again.
 */
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'citewise-audit-runs-'));
  port = await serverPort('audit-runs');
  site = await startFixtureSite({ '/': html(OKAFOR_HOME) });
  smtp = await startSmtpServer();
  for (const id of ASSISTANT_IDS) {
    fakes.push(
      await startFakeAssistant(id, FAKE_KEYS[id], (request): Reply => {
        if (!answering) return { hang: true };
        answered[id].push(request.question ?? '');
        return { answer: id === 'chatgpt' ? namedSecond : notNamed };
      }),
    );
  }
});
afterAll(async () => {
  await Promise.all([site.close(), smtp.close(), ...fakes.map((fake) => fake.close())]);
  rmSync(dir, { recursive: true, force: true });
});

/** What the server and the command share: the database, the site's address, the assistants, the mail. */
function environment(database: string, port: number, more: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_PATH: database,
    SITE_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: smtp.url,
    MAIL_FROM: SENDER,
    MAIL_TO: AGENCY,
    SITE_CHECK_ALLOW: '127.0.0.1',
    // What the assistants say about the business (its direct questions, the judge) has tests of its own.
    AUDIT_FACT_PROMPTS: '0',
    JUDGE_PROVIDER: 'none',
    AUDIT_PROMPTS: '5',
    ...fakeEnvironment(fakes),
    ...more,
  };
}

/** A database with one audit request for Okafor Plumbing's site, as the form stores it. */
function databaseWithRequest(name: string, values: Partial<typeof validAudit> = {}): string {
  const file = path.join(dir, name);
  const db = openDatabase(file);
  migrate(db);
  const row = { ...validAudit, name: 'Ada Okafor', email: PROSPECT, website_url: `${site.origin}/`, business_description: 'Plumbers in Leeds.', target_keywords: 'emergency plumber Leeds, boiler repair Leeds', current_products: 'boiler servicing', ...values };
  db.prepare(
    `INSERT INTO audit_submissions (name, email, website_url, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
     VALUES (@name, @email, @website_url, @business_description, @ideal_customer, @target_keywords, @current_products, @lead_sources, @seo_experience, @main_goal, '2030-03-04T09:00:00.000Z')`,
  ).run(row);
  db.close();
  return file;
}

const mails = () => receivedMails(smtp);
const REPORT_ADDRESS = /http:\/\/127\.0\.0\.1:\d+\/audit\/[\w-]{43}/;

describe('npm run audit, run by the server', () => {
  let server: ServerProcess;
  let database: string;
  let printed: string;
  const audit = (args: string[]) => runOpsInBackground('audit', args, environment(database, port));

  beforeAll(async () => {
    database = databaseWithRequest('end-to-end.db');
    server = await startServerProcess(environment(database, port, { PORT: String(port) }));
  });
  afterAll(async () => {
    await server.stop();
  });

  it('prints what it will spend, follows the run a line per assistant, and ends with the report\'s private address, which opens it', async () => {
    const result = await audit(['--id', '1']);
    expect(result.stderr).not.toContain('Not started');
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Audit of request #1 (${site.origin}/): 5 questions to each of ChatGPT, Claude, Gemini, Perplexity = 20 calls. Today (UTC) 0 of PROBE_DAILY_CALLS=300 are used, 300 left.`);
    expect(lines[1]).toBe('Queued as audit run #1: the server runs it.');
    // Not a terminal: a plain line per assistant as it goes, the last of each at 5 of 5.
    for (const label of ['ChatGPT', 'Claude', 'Gemini', 'Perplexity']) expect(result.stderr).toContain(`${label}: 5 of 5 questions answered\n`);
    expect(result.stderr).toMatch(/^checking the site\.\.\.\n|^asking\.\.\.\n/);
    expect(result.stdout).toContain('Visibility ');
    expect(result.stdout).toContain(', 20 answers: ');
    printed = (/Report \(for the agency; anyone with this address can read it\): (\S+)/.exec(result.stdout)?.[1]) ?? '';
    expect(printed).toMatch(REPORT_ADDRESS);
    expect(result.stdout).toContain('Once reviewed, send the prospect their own link: npm run audit -- --id 1 --send');
    // Each assistant was asked each question once.
    for (const id of ASSISTANT_IDS) expect(answered[id]).toHaveLength(5);
    expect(new Set(answered.chatgpt).size).toBe(5);

    // The business as its site names it, found in the answers.
    const page = await pageAt(printed);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Okafor Plumbing');
    const unknown = await pageAt(printed.replace(/[\w-]{43}$/, 'A'.repeat(43)));
    expect(unknown.status).toBe(200);
    expect(unknown.body).not.toBe(page.body);

    // Kept beside the request: the run, its own site check, every answer, only the hash of each link.
    const [run] = query<Record<string, unknown>>(database, 'SELECT status, trigger, prompts, calls_planned, attempts, check_report IS NOT NULL AS checked, sent_at FROM runs');
    expect(run).toEqual({ status: 'done', trigger: 'command', prompts: 5, calls_planned: 20, attempts: 1, checked: 1, sent_at: null });
    expect(query(database, 'SELECT count(*) AS n FROM run_answers')).toEqual([{ n: 20 }]);
    const token = printed.slice(printed.lastIndexOf('/') + 1);
    expect(JSON.stringify(query(database, 'SELECT * FROM run_links'))).not.toContain(token);
    expect(query(database, 'SELECT calls FROM probe_calls')).toEqual([{ calls: 20 }]);
  });

  it("mails the agency when the run ends: the business, the scores, the answers, that it is complete, a link of its own and the command to send it", async () => {
    await waitFor('the agency\'s mail', () => mails().some((mail) => mail.to.includes(AGENCY)), 20_000);
    const mail = mails().find((item) => item.to.includes(AGENCY));
    expect(mail?.from).toBe(SENDER);
    expect(mail?.text).toMatch(/Subject: AI visibility audit for audit request #1: Okafor Plumbing, visibility \d+\/100, readiness \d+\/100/);
    expect(mail?.text).toContain('Answers: 20 of 20 (5 questions to each of ChatGPT, Claude, Gemini and Perplexity).');
    expect(mail?.text).toContain('Complete.');
    expect(mail?.text).toMatch(/Nothing has been sent to the prospect\. Once you have reviewed it, send them their own link:\r?\nnpm run audit -- --id 1 --send/);
    const link = REPORT_ADDRESS.exec(mail?.text ?? '')?.[0] ?? '';
    expect(link).not.toBe(printed);
    expect((await pageAt(link)).body).toBe((await pageAt(printed)).body);
    // Nothing went to the prospect.
    expect(mails().filter((item) => item.to.includes(PROSPECT))).toEqual([]);
  });

  it('--send mails the prospect a short note with a link of their own, from MAIL_FROM, replies to the agency; once per run', async () => {
    const first = await audit(['--id', '1', '--send']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(`The report of audit run #1 is in the outbox for ${PROSPECT} (from ${SENDER}, replies to ${AGENCY}), with a link of their own: the server sends it within seconds.\n`);
    await waitFor("the prospect's mail", () => mails().some((mail) => mail.to.includes(PROSPECT)), 20_000);
    const mail = mails().find((item) => item.to.includes(PROSPECT));
    expect(mail?.from).toBe(SENDER);
    expect(mail?.text).toContain(`Reply-To: Citewise <${AGENCY}>`);
    expect(mail?.text).toContain('Subject: Your AI visibility audit: Okafor Plumbing');
    expect(mail?.text).toContain('Hello Ada Okafor,');
    const link = REPORT_ADDRESS.exec(mail?.text ?? '')?.[0] ?? '';
    expect(link).not.toBe(printed);
    expect((await pageAt(link)).body).toContain('Okafor Plumbing');

    const second = await audit(['--email', PROSPECT.toUpperCase(), '--send']);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`^The report of audit run #1 was sent to ${PROSPECT} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: it is not sent again\\.\\n$`));
    expect(query(database, `SELECT count(*) AS n FROM mail_outbox WHERE kind = 'audit-report'`)).toEqual([{ n: 1 }]);
  });

  it('npm run export:csv gives the request its audit\'s date, score and whether it was sent', () => {
    const result = runOps('export-csv', ['--no-bom'], { DATABASE_PATH: database });
    expect(result.status).toBe(0);
    const [header, row] = parseCsv(result.stdout);
    const column = (name: string) => row?.[header?.indexOf(name) ?? -1];
    const [run] = query<{ finished_at: string; visibility_score: number }>(database, 'SELECT finished_at, visibility_score FROM runs');
    expect(column('audit_made_at')).toBe(run?.finished_at);
    expect(column('audit_score')).toBe(String(run?.visibility_score));
    expect(column('audit_sent')).toBe('yes');
  });

  it('--brand counts the kept answers again under the name given, asking nothing: the report changes to match, at the same address; a name made only of search words is refused', async () => {
    const requestsBefore = fakes.map((fake) => fake.requests.length);
    const before = JSON.parse(query<{ document: string }>(database, 'SELECT document FROM runs WHERE id = 1')[0]?.document ?? 'null') as { business: { name: string } };
    expect(before.business.name).toBe('Okafor Plumbing');

    const refused = await audit(['--id', '1', '--brand', 'Leeds Plumbers']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^Not changed: "Leeds Plumbers" is made only of search words .*\n$/);
    expect(query(database, 'SELECT brand FROM audit_submissions')).toEqual([{ brand: null }]);

    // Every answer names Pipe Pros Leeds (ChatGPT's first, the others' in their lists); Okafor Plumbing was named by ChatGPT's 5.
    const corrected = await audit(['--id', '1', '--brand', 'Pipe Pros Leeds']);
    expect(corrected.stderr).toBe('');
    expect(corrected.status).toBe(0);
    expect(corrected.stdout).toBe(
      'Audit request #1: its answers are searched for "Pipe Pros Leeds" (given with --brand) from now on.\n' +
        'Audit run #1 counted again, no assistant asked: named in 20 of 20 answers (was named in 5 of 20 answers as "Okafor Plumbing").\n',
    );
    // Nothing was asked or counted against the day.
    expect(fakes.map((fake) => fake.requests.length)).toEqual(requestsBefore);
    expect(query(database, 'SELECT calls FROM probe_calls')).toEqual([{ calls: 20 }]);
    expect(query(database, 'SELECT brand FROM audit_submissions')).toEqual([{ brand: 'Pipe Pros Leeds' }]);
    const [run] = query<{ document: string; visibility_score: number; summary: string }>(database, 'SELECT document, visibility_score, summary FROM runs WHERE id = 1');
    const after = JSON.parse(run?.document ?? 'null') as { business: { name: string; nameSigns: string[] }; visibility: { named: { count: number } }[]; askedFrom: string };
    expect(after.business).toMatchObject({ name: 'Pipe Pros Leeds', nameSigns: ['given'] });
    expect(after.visibility.map((part) => part.named.count)).toEqual([5, 5, 5, 5]);
    expect(run?.summary).toMatch(/named by ChatGPT 5\/5, Claude 5\/5, Gemini 5\/5, Perplexity 5\/5/);
    // The agency's link opens the report as counted now, saying what was searched for.
    const page = await pageAt(printed);
    expect(page.body).toContain('In every answer we looked for “Pipe Pros Leeds” (as you confirmed it with us) and 127.0.0.1.');
  });

  it('--revoke ends every link given out to the request\'s reports: they open nothing, and a new run gives a new one', async () => {
    expect((await pageAt(printed)).body).toContain('Pipe Pros Leeds');
    const revoked = await audit(['--id', '1', '--revoke']);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toMatch(/^Audit request #1: \d+ links to its reports ended; they open nothing now\. A new one comes with the next run \(npm run audit -- --id 1\) or --send\.\n$/);
    expect(query(database, 'SELECT count(*) AS n FROM run_links')).toEqual([{ n: 0 }]);
    const unknown = await pageAt(printed.replace(/[\w-]{43}$/, 'A'.repeat(43)));
    expect((await pageAt(printed)).body).toBe(unknown.body);
  });

  it('npm run erase removes the runs, their answers and links: every link then answers as an unknown one', async () => {
    const unknown = (await pageAt(printed.replace(/[\w-]{43}$/, 'B'.repeat(43)))).body;
    const result = runOps('erase', ['--email', PROSPECT], { DATABASE_PATH: database });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('  audit runs:       1 (with their answers and report links)');
    for (const table of ['runs', 'run_answers', 'run_links']) expect(query(database, `SELECT count(*) AS n FROM ${table}`)).toEqual([{ n: 0 }]);
    expect((await pageAt(printed)).body).toBe(unknown);
  });
});

describe('npm run audit on a terminal', () => {
  it('draws a bar per assistant, redrawn in place', async () => {
    const database = databaseWithRequest('terminal.db');
    const env = environment(database, port, { PORT: String(port), AUDIT_PROMPTS: '2' });
    const server = await startServerProcess(env);
    try {
      // util-linux's script gives the command a terminal of its own, and copies what it draws.
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'dist', 'scripts', 'audit.js'))} --id 1`;
      const drawn = await new Promise<{ status: number | null; output: string }>((resolve, reject) => {
        const child = spawn('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH ?? '', ...env } });
        let output = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, output }));
      });
      expect(drawn.status).toBe(0);
      // Five lines (the step and four bars), written over: the cursor goes back up to the first.
      expect(drawn.output).toContain('\x1b[5A');
      for (const label of ['ChatGPT   ', 'Claude    ', 'Gemini    ', 'Perplexity']) expect(drawn.output).toContain(`${label} [${'#'.repeat(30)}] 2/2`);
      expect(drawn.output).toMatch(REPORT_ADDRESS);
    } finally {
      await server.stop();
    }
  });
});

describe('npm run audit, before it spends anything', () => {
  it("refuses in one line, exit 1, when the day's PROBE_DAILY_CALLS cannot hold the run, and queues nothing", async () => {
    const database = databaseWithRequest('budget.db');
    const db = new Database(database);
    db.prepare('INSERT INTO probe_calls (day, calls) VALUES (?, 295)').run(new Date().toISOString().slice(0, 10));
    db.close();
    const result = await runOpsInBackground('audit', ['--id', '1'], environment(database, 1, { AUDIT_PROMPTS: '2' }));
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('2 questions to each of ChatGPT, Claude, Gemini, Perplexity = 8 calls. Today (UTC) 295 of PROBE_DAILY_CALLS=300 are used, 5 left.');
    expect(result.stderr).toBe("Not started: the audit needs 8 calls and today has 5 left of PROBE_DAILY_CALLS=300 (leads' probes and npm run probe count too). Run it after 00:00 UTC, or set a lower AUDIT_PROMPTS.\n");
    expect(query(database, 'SELECT count(*) AS n FROM runs')).toEqual([{ n: 0 }]);
  });

  it('says so when the server does not start the run, and leaves it queued', async () => {
    const database = databaseWithRequest('no-server.db');
    const result = await runOpsInBackground('audit', ['--id', '1'], environment(database, 1, { AUDIT_PROMPTS: '2' }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("The server has not started audit run #1 in 15 s: is it running, with an assistant's key set? The run stays queued and starts when the server does; follow it with npm run audit -- --id 1\n");
    expect(query(database, 'SELECT status FROM runs')).toEqual([{ status: 'queued' }]);
  });

  it('says which request is missing, and what it takes, in one line', async () => {
    const database = databaseWithRequest('usage.db');
    const env = environment(database, 1);
    expect(await runOpsInBackground('audit', ['--id', '7'], env)).toEqual({ status: 1, stdout: '', stderr: 'No audit request #7\n' });
    expect(await runOpsInBackground('audit', [], env)).toEqual({ status: 2, stdout: '', stderr: 'Usage: npm run audit -- --id N | --email ADDRESS [--send] [--brand NAME] [--revoke]\n' });
    expect(await runOpsInBackground('audit', ['--id', '1', '--send'], env)).toEqual({ status: 1, stdout: '', stderr: 'Nothing sent: audit request #1 has no audit run yet: run npm run audit -- --id 1 first\n' });
  });
});

describe('an audit run across a restart', () => {
  it('resumes with the answers it kept: no question answered before the restart is asked again', async () => {
    const database = databaseWithRequest('restart.db');
    const env = environment(database, port, { PORT: String(port), AUDIT_PROMPTS: '6' });
    for (const id of ASSISTANT_IDS) answered[id].length = 0;
    const first = await startServerProcess(env);
    // Queued as the command queues it; the server finds it on its own.
    const db = new Database(database);
    db.prepare(`INSERT INTO runs (audit_id, trigger, prompts, calls_planned, created_at) VALUES (1, 'command', 6, 24, ?)`).run(new Date().toISOString());
    db.close();
    const kept = () => query<{ n: number }>(database, 'SELECT count(*) AS n FROM run_answers')[0]?.n ?? 0;
    await waitFor('some answers kept', () => kept() >= 8, 60_000);
    // The fakes stop answering, and the server is killed in the middle of the run.
    answering = false;
    const before = Object.fromEntries(ASSISTANT_IDS.map((id) => [id, [...answered[id]]])) as Record<AssistantId, string[]>;
    await waitFor('the answers under way to be kept', () => kept() === ASSISTANT_IDS.reduce((sum, id) => sum + before[id].length, 0), 10_000);
    // The run's own process outlives the server by as long as it takes to see it gone (at idle
    // priority, on a busy machine, a while): a call it had been allowed may still go out, unanswered.
    const [runProcess] = backgroundProcesses(first.child.pid ?? 0, 'run-process.js');
    expect(runProcess).toBeDefined();
    expect(await first.stop('SIGKILL')).toBeNull();
    await waitFor("the run's process to end", () => !existsSync(`/proc/${runProcess}`), 30_000);
    const cut = kept();
    expect(cut).toBeLessThan(24);
    expect(query(database, 'SELECT status FROM runs')).toEqual([{ status: 'running' }]);

    answering = true;
    const second = await startServerProcess(env);
    try {
      await waitFor('the run to end', () => query<{ status: string }>(database, 'SELECT status FROM runs')[0]?.status === 'done', 60_000);
      expect(second.logs.find((line) => line.msg === 'Audit run resumed: the questions already answered are not asked again')).toMatchObject({ runId: 1, answersKept: cut });
      // The agency is told that the run was cut and resumed.
      await waitFor("the agency's mail", () => mails().some((mail) => mail.text.includes('Cut short by a restart once, and resumed with the answers it had kept: no question answered before was asked again.')), 20_000);
    } finally {
      await second.stop();
    }
    for (const id of ASSISTANT_IDS) {
      const after = answered[id].slice(before[id].length);
      expect(after.filter((question) => before[id].includes(question))).toEqual([]);
      expect(answered[id]).toHaveLength(6);
      expect(new Set(answered[id]).size).toBe(6);
    }
    expect(query(database, 'SELECT count(*) AS n FROM run_answers')).toEqual([{ n: 24 }]);
    expect(query(database, 'SELECT attempts FROM runs')).toEqual([{ attempts: 2 }]);

  });
});

describe('AUDIT_AUTO=1', () => {
  it("queues a lead's full run once its probe has ended, never a held submission's; AUDIT_AUTO_SEND=1 mails the prospect the finished report", async () => {
    const database = path.join(dir, 'auto.db');
    const server = await startServerProcess(environment(database, port, { PORT: String(port), AUDIT_AUTO: '1', AUDIT_AUTO_SEND: '1', PROBE_PROMPTS: '1', AUDIT_PROMPTS: '2', TRUST_PROXY: '1' }));
    try {
      const url = `http://127.0.0.1:${port}`;
      const [lead, held] = await Promise.all([openProcessForm(url, '/free-audit', '198.51.100.7'), openProcessForm(url, '/free-audit', '198.51.100.8')]);
      // A post sooner than a person could fill the form is held as a script's.
      const values = { ...validAudit, name: 'Ada Okafor', email: 'auto@okaforplumbing.example', website_url: `${site.origin}/` };
      expect(await postProcessForm(url, '/free-audit', lead, values, '198.51.100.7')).toBe(303);
      expect(await postProcessForm(url, '/free-audit', held, { ...values, email: 'held@okaforplumbing.example', [HONEYPOT_FIELD]: 'filled' }, '198.51.100.8')).toBe(303);
      await waitFor('the run to end', () => query<{ status: string }>(database, 'SELECT status FROM runs')[0]?.status === 'done', 90_000);
      expect(query(database, 'SELECT audit_id, trigger FROM runs')).toEqual([{ audit_id: 1, trigger: 'auto' }]);
      expect(query(database, `SELECT form FROM quarantine`)).toEqual([{ form: 'audit' }]);
      await waitFor("the prospect's mail", () => mails().some((mail) => mail.to.includes('auto@okaforplumbing.example') && mail.text.includes('Your AI visibility audit')), 20_000);
      const agencyMail = () => mails().find((mail) => mail.to.includes(AGENCY) && mail.text.includes('Subject: AI visibility audit for audit request #1') && mail.text.includes('auto@okaforplumbing.example'));
      await waitFor("the agency's mail", () => agencyMail() !== undefined, 20_000);
      expect(agencyMail()?.text).toContain('It has been sent to auto@okaforplumbing.example with a link of their own (AUDIT_AUTO_SEND=1).');
    } finally {
      await server.stop();
    }
  });
});
