import { spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { pbkdf2 } from 'node:crypto';
import path from 'node:path';
import { parse } from 'node-html-parser';
import request from 'supertest';
import { BUSINESS_TEXT_LIMIT } from '../../server/business/business-facts';
import { loadAiSources } from '../../server/ledger/ai-sources';
import { LeadStore } from '../../server/leads/lead-store';
import { siteCheckDelivery } from '../../server/leads/site-check-delivery';
import { createLogger } from '../../server/logger';
import { smtpTransport } from '../../server/mail/mail-transport';
import { parseAddressList } from '../../server/site-check/address-policy';
import { newCheckToken, SiteCheckStore, MAX_QUEUED_CHECKS } from '../../server/site-check/check-store';
import { SiteCheckWorker } from '../../server/site-check/check-worker';
import { createFetcher } from '../../server/site-check/fetcher';
import { createSiteChecker, TOO_LARGE_TO_READ, TOO_LONG_TO_READ, type SiteChecker, type SiteCheckerOptions } from '../../server/site-check/site-checker';
import { holdExclusiveLock } from '../helpers/database-lock';
import { html, startFixtureSite, startSiteAt, wellMadeSite, type FixtureAnswer, type FixtureSite } from '../helpers/fixture-sites';
import { countRows, formSession, openForm, postForm, THANK_YOU_WITH_CHECK, validAudit } from '../helpers/forms';
import { HONEYPOT_FIELD } from '../../shared/forms/form-contract';
import { hostileSites, LONG_PATH } from '../helpers/hostile-sites';
import { decodeQuotedPrintable, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT } from '../helpers/locations';
import { waitFor } from '../helpers/process-forms';

/**
 * A site that means harm cannot slow the site: each check runs in a thread of its own, ended at
 * its deadline or its memory limit; what it reads is read in one pass and kept bounded; the queue
 * of checks, and what one address may ask for, are bounded too.
 */
jest.setTimeout(90_000);

const AGENTS = loadAiSources().agents.map((agent) => agent.match);
const logger = createLogger('silent');
const CHECK_PROCESSES = path.join(ROOT, 'test', 'fixtures', 'background-processes');
// At normal priority: what is proved here is what a check reads and refuses, not how it yields the CPU
// (a check's idle priority is proved by the server's own test of its background processes).
const base: SiteCheckerOptions = { brand: 'Citewise', siteUrl: 'https://www.citewise.example', allow: ['127.0.0.1'], agents: AGENTS, clock: () => new Date(), priority: 'normal' };
const checker = (options: Partial<SiteCheckerOptions> = {}): SiteChecker => createSiteChecker({ ...base, ...options });

/** The text a visitor reads in a page's main content. */
const shown = (page: string) => parse(page).querySelector('main')?.text ?? '';

const sites: FixtureSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});
async function fixture(paths: (origin: () => string) => Record<string, FixtureAnswer>): Promise<FixtureSite> {
  const site = await startSiteAt(paths);
  sites.push(site);
  return site;
}

describe('each check runs in a process of its own', () => {
  it('a process busy without end is killed at the deadline and its check fails with a plain reason, while this event loop runs on', async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    try {
      const report = await checker({ checkFile: path.join(CHECK_PROCESSES, 'busy-for-ever.js'), deadlineMs: 1500 }).check('http://127.0.0.1:9/');
      expect(report).toMatchObject({ status: 'failed', reason: TOO_LONG_TO_READ, score: null });
      expect(TOO_LONG_TO_READ).toBe("the site's pages took too long to read");
    } finally {
      clearInterval(ticker);
    }
    // The process's endless work held up none of the timers of the loop that serves pages.
    expect(ticks).toBeGreaterThan(20);
  });

  it('a process that takes more memory than a check may is ended at its heap limit', async () => {
    // A deadline it would reach if nothing else ended it: the heap limit must come first.
    const report = await checker({ checkFile: path.join(CHECK_PROCESSES, 'memory-without-end.js'), deadlineMs: 20_000 }).check('http://127.0.0.1:9/');
    expect(report).toMatchObject({ status: 'failed', reason: TOO_LARGE_TO_READ });
  });

  it.each(Object.keys(hostileSites) as (keyof typeof hostileSites)[])('reads %s to the end, with the right answer', async (name) => {
    const hostile = hostileSites[name];
    const site = await fixture(() => hostile.paths());
    const report = await checker().check(`${site.origin}${hostile.path}`);
    expect(report.status).toBe('done');
    expect(report.facts?.page.status).toBe(200);
    if (name === 'a robots.txt rule of 400,000 *') {
      // The line is cut at 16,663 bytes, as Google's reader cuts it, before its final "b": what is
      // left ("/***...") matches every path, so no agent may fetch the page.
      expect(report.facts?.robots.agents.every((agent) => !agent.allowed)).toBe(true);
      expect(site.requests.map((item) => item.path)).toContain(LONG_PATH);
    }
    if (name === '20,000 JSON-LD types') expect(report.facts?.page.organizationNames).toEqual(['Hostile Ltd']);
    // The text after the tag is read: the tokenizer reached the end of the page.
    if (name === 'a tag of 130,000 attributes') expect(report.facts?.page.textWords).toBe(3);
    if (name === 'runs without a space, in the page and its llms.txt') {
      expect(report.facts?.page).toMatchObject({ truncated: false, textWords: 4 });
      expect(report.facts?.llmsTxt.detail).toBe('llms.txt is present but lacks an H2 section of links');
    }
    if (name === 'facts without end, on the page and its contact page') {
      // Both pages read to the end, what they say bounded.
      expect(report.facts?.business?.contactPage).toBe(`${site.origin}/contact`);
      expect(report.facts?.business?.services).toEqual([{ value: 'Roofing', source: { page: 'home page', from: 'text' } }]);
      expect(report.facts?.business?.text.length).toBe(BUSINESS_TEXT_LIMIT);
      expect(JSON.stringify(report.facts?.business).length).toBeLessThan(BUSINESS_TEXT_LIMIT + 10_000);
    }
  });

  it('refuses an address longer than browsers accept once written out (robots.txt rules cost its length each)', async () => {
    const long = await checker().check(`http://127.0.0.1:9/${'é'.repeat(400)}`);
    expect(long).toMatchObject({ status: 'refused', reason: 'the address is longer than 2,083 characters, more than browsers accept' });
    expect((await checker().check(`http://127.0.0.1:9/${'a'.repeat(2000)}`)).reason).not.toContain('longer than');
  });

  it('reads at most 1 MB of a page: a page of 1.5 MB is cut, and says so', async () => {
    const site = await fixture(() => ({ '/': html(`<html lang="en"><body><p>${'word '.repeat(300_000)}</p></body></html>`) }));
    const report = await checker().check(`${site.origin}/`);
    expect(report.facts?.page.truncated).toBe(true);
    expect(report.findings.find((finding) => finding.id === 'textInHtml')?.detail).toContain('(in its first 1 MB)');
  });

  it('reads at most 500 KiB of robots.txt: a rule past it is not obeyed, one before it is', async () => {
    const padding = `# ${'x'.repeat(98)}\n`.repeat(6 * 1024);
    const late = await fixture(() => ({ '/': html('<p>x</p>'), '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: `${padding}User-agent: GPTBot\nDisallow: /\n` } }));
    const early = await fixture(() => ({ '/': html('<p>x</p>'), '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: `User-agent: GPTBot\nDisallow: /\n${padding}` } }));
    const gptBot = async (site: FixtureSite) => (await checker().check(`${site.origin}/`)).facts?.robots.agents.find((agent) => agent.agent === 'GPTBot')?.allowed;
    expect(padding.length).toBeGreaterThan(600 * 1024);
    expect(await gptBot(late)).toBe(true);
    expect(await gptBot(early)).toBe(false);
  });

  it('reads sitemaps only on the site\'s own host, however robots.txt or an index points elsewhere', async () => {
    const elsewhere = await startFixtureSite({ '/sitemap.xml': { headers: { 'Content-Type': 'application/xml' }, body: '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.example/</loc></url></urlset>' } });
    sites.push(elsewhere);
    const site = await fixture((origin) => ({
      ...wellMadeSite(origin),
      '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: `User-agent: *\nAllow: /\nSitemap: ${elsewhere.origin}/sitemap.xml\n` },
    }));
    const report = await checker().check(`${site.origin}/`);
    expect(elsewhere.requests).toEqual([]);
    expect(report.facts?.sitemap).toMatchObject({ urls: null, parses: false, detail: expect.stringContaining(`${elsewhere.origin.replace('http://', '')} is not the checked site's own host`) });

    const indexed = await fixture((origin) => ({
      ...wellMadeSite(origin),
      '/sitemap.xml': { headers: { 'Content-Type': 'application/xml' }, body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${elsewhere.origin}/sitemap.xml</loc></sitemap></sitemapindex>` },
    }));
    expect((await checker().check(`${indexed.origin}/`)).facts?.sitemap.urls).toBe(0);
    expect(elsewhere.requests).toEqual([]);
  });
});

describe('names are resolved without holding the process', () => {
  it('a name server that never answers ends that fetch with a reason, and holds no thread of the pool meanwhile', async () => {
    // A name server that receives every query and answers none.
    const silent = createSocket('udp4');
    const queries: string[] = [];
    silent.on('message', (message) => queries.push(message.toString('latin1')));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    // Each try gives up after 1 s, not the 2.5 s the checker waits: what is tested is that it gives up, and holds no thread meanwhile.
    const fetcher = createFetcher({ userAgent: 'test', allowlist: [], nameServers: [`127.0.0.1:${silent.address().port}`], dnsTimeoutMs: 1000 });
    const events: string[] = [];
    const lookups = [1, 2, 3, 4, 5, 6].map((index) => fetcher.fetch(`https://name-${index}.slow.example/`).catch((error: Error) => events.push(`lookup: ${error.message}`)));
    await waitFor('the name server to be asked', () => queries.length >= 6, 10_000);
    // Eight tasks for the thread pool (four threads) while six lookups wait: each still runs.
    const pool = Array.from({ length: 8 }, () => new Promise<void>((resolve) => pbkdf2('x', 'y', 1000, 32, 'sha256', () => (events.push('pool task'), resolve()))));
    await Promise.all(pool);
    await Promise.all(lookups);
    silent.close();
    expect(events.slice(0, 8)).toEqual(Array(8).fill('pool task'));
    expect(events.slice(8)).toEqual(Array(6).fill(expect.stringMatching(/^lookup: no name server answered for name-\d\.slow\.example in time$/)));
  });

  it('one check resolves each name once, and at most 8 names', async () => {
    const asked: string[] = [];
    const fetcher = createFetcher({
      userAgent: 'test',
      allowlist: parseAddressList('127.0.0.1'),
      resolver: async (hostname) => {
        asked.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const site = await fixture(() => ({ '/': html('<p>x</p>') }));
    for (const index of [1, 1, 2, 3, 4, 5, 6, 7, 8]) await fetcher.fetch(`http://host-${index}.example:${site.port}/`);
    expect(asked).toEqual(['host-1.example', 'host-2.example', 'host-3.example', 'host-4.example', 'host-5.example', 'host-6.example', 'host-7.example', 'host-8.example']);
    await expect(fetcher.fetch(`http://host-9.example:${site.port}/`)).rejects.toThrow('the check reached more than 8 different host names');
  });
});

describe('the worker, across stops and a database that refuses a write', () => {
  let app: TestApp;
  afterEach(() => app?.close());

  async function submit(values: Record<string, string>) {
    const { agent, hidden } = await openForm(app.app, '/free-audit');
    const response = await agent.post('/free-audit').type('form').send({ ...values, ...hidden }).expect(303);
    return response.headers.location as string;
  }
  const worker = (check: SiteChecker) => new SiteCheckWorker({ db: app.db, checker: check, logger, clock: app.clock, deliver: siteCheckDelivery(new LeadStore(app.db), app.config, app.clock) });
  const row = () => app.db.prepare('SELECT status, attempts, reason FROM site_checks').get() as { status: string; attempts: number; reason: string | null };

  it('a check ended at its deadline is recorded as failed, and not run again after a restart', async () => {
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    const site = await fixture(wellMadeSite);
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    const first = worker(checker({ checkFile: path.join(CHECK_PROCESSES, 'busy-for-ever.js'), deadlineMs: 1000 }));
    first.start();
    await first.idle();
    expect(row()).toEqual({ status: 'failed', attempts: 1, reason: TOO_LONG_TO_READ });
    const restarted = worker(checker());
    restarted.start();
    await restarted.idle();
    expect(row()).toEqual({ status: 'failed', attempts: 1, reason: TOO_LONG_TO_READ });
    expect(site.requests).toEqual([]);
  });

  it('a normal stop ends a running check, which runs again at the next start; one interrupted 3 times is given up', async () => {
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    // robots.txt never answers: the check runs until something ends it.
    const site = await fixture(() => ({ '/robots.txt': () => undefined }));
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    for (const start of [1, 2, 3]) {
      const running = worker(checker());
      running.start();
      await waitFor('the check to fetch robots.txt', () => site.requests.length === start, 20_000);
      expect(await running.stop(0)).toBe(false);
      expect(row()).toEqual({ status: 'running', attempts: start, reason: null });
    }
    const last = worker(checker());
    last.start();
    await last.idle();
    expect(row()).toEqual({ status: 'failed', attempts: 3, reason: 'the check was interrupted 3 times, so it was given up' });
    expect(site.requests).toHaveLength(3);
  });

  it('a queue the database refuses to read (ops hold it) is looked at again once they let go, with no new request to start it', async () => {
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    const site = await fixture((origin) => wellMadeSite(origin));
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    const lock = holdExclusiveLock(app.config.databasePath);
    await lock.locked;
    const running = worker(checker());
    // Claiming the check is a write: refused while the lock is held.
    running.start();
    expect(row()).toEqual({ status: 'queued', attempts: 0, reason: null });
    await lock.release();
    await waitFor('the check to run', () => row().status === 'done', 30_000);
    await running.stop();
    expect(site.requests.length).toBeGreaterThan(0);
  });

  it('a check a stop left running is queued again once ops let go, though they held the database when the worker started: no restart, no new request', async () => {
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    const site = await fixture((origin) => wellMadeSite(origin));
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    // As a process stopped in the middle of the check leaves it.
    app.db.prepare(`UPDATE site_checks SET status = 'running', attempts = 1`).run();
    const lock = holdExclusiveLock(app.config.databasePath);
    await lock.locked;
    const running = worker(checker());
    running.start();
    await lock.release();
    await waitFor('the check to be queued again and run', () => row().status === 'done', 30_000);
    await running.stop();
    expect(row()).toEqual({ status: 'done', attempts: 2, reason: null });
    // Its findings reach the agency: the mail that said they would follow is followed.
    expect(app.db.prepare('SELECT kind FROM mail_outbox ORDER BY id').pluck().all()).toEqual(['audit', 'site-check']);
  });

  it('a result the database cannot record is not left running: the check is queued again, and its host is not held back', async () => {
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let robotsAsked = 0;
    const site = await fixture((origin) => ({
      ...wellMadeSite(origin),
      '/robots.txt': (_req, res) => {
        robotsAsked += 1;
        // The first check's robots.txt answers only once the database is locked.
        void (robotsAsked === 1 ? held : Promise.resolve()).then(() => res.end('User-agent: *\nAllow: /\n'));
      },
    }));
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    const running = worker(checker());
    running.start();
    await waitFor('the check to fetch robots.txt', () => robotsAsked === 1, 20_000);
    // Ops hold the database until the worker has given up on it (after 5 s).
    const lock = holdExclusiveLock(app.config.databasePath);
    await lock.locked;
    release();
    await running.idle();
    await lock.release();
    await waitFor('the check to be queued again and run', () => row().status === 'done', 30_000);
    await running.idle();
    expect(row()).toEqual({ status: 'done', attempts: 2, reason: null });
    // Another request for the same host runs (reusing the result), held back by nothing.
    await submit({ ...validAudit, email: 'later@example.co.uk', website_url: `${site.origin}/` });
    running.kick();
    await running.idle();
    expect(app.db.prepare('SELECT status FROM site_checks ORDER BY id').pluck().all()).toEqual(['done', 'done']);
  });
});

describe('the queue of checks is bounded', () => {
  let app: TestApp;
  let smtp: TestSmtpServer;
  afterEach(async () => {
    app?.close();
    await smtp?.close();
  });

  async function wired(options: Parameters<typeof createTestApp>[0] = {}) {
    smtp = await startSmtpServer();
    let checks: SiteCheckWorker | undefined;
    let mail: ReturnType<TestApp['outboxWorker']> | undefined;
    app = createTestApp({ siteChecks: { kick: () => checks?.kick(), mailWaitMs: 20_000 }, mailer: { kick: () => mail?.kick() }, ...options });
    mail = app.outboxWorker(smtpTransport(smtp.url), { logger });
    checks = new SiteCheckWorker({ db: app.db, checker: checker(), logger, clock: app.clock, deliver: siteCheckDelivery(new LeadStore(app.db), app.config, app.clock), onDelivered: () => mail?.kick() });
    return { checks, mail };
  }

  async function submitFrom(address: string, values: Record<string, string>) {
    const page = await request(app.app).get('/free-audit').set('X-Forwarded-For', address);
    const session = formSession(page.text, page.headers['set-cookie'] as unknown as string[]);
    const response = await request(app.app).post('/free-audit').set('X-Forwarded-For', address).set('Cookie', session.cookie).type('form').send({ ...values, ...session.hidden });
    expect(response.status).toBe(303);
    return response.headers.location as string;
  }

  it('past 5 checks an hour from one address, the lead is stored and mailed at once, its check skipped with the reason', async () => {
    const site = await fixture(wellMadeSite);
    const { checks, mail } = await wired({ env: { TRUST_PROXY: '1' }, checksPerAddressPerHour: 5 });
    for (const index of [1, 2, 3, 4, 5]) await submitFrom('203.0.113.9', { ...validAudit, email: `p${index}@example.co.uk`, website_url: `${site.origin}/page-${index}` });
    await checks.idle();
    const sixth = await submitFrom('203.0.113.9', { ...validAudit, email: 'p6@example.co.uk', website_url: `${site.origin}/page-6` });
    // Another address is not held back by the first one's budget.
    await submitFrom('198.51.100.4', { ...validAudit, email: 'other@example.co.uk', website_url: `${site.origin}/page-7` });
    await checks.idle();
    const reason = 'more than 5 site checks were asked for from one address within an hour';
    expect(app.db.prepare(`SELECT status, reason FROM site_checks ORDER BY id`).all()).toEqual([
      ...Array(5).fill({ status: 'done', reason: null }),
      { status: 'skipped', reason },
      { status: 'done', reason: null },
    ]);
    expect(site.requests.filter((item) => item.path === '/page-6')).toEqual([]);
    // The sixth lead's notification did not wait for a check: it is due at once, and says why there is none.
    mail.kick();
    await mail.idle();
    const sixthMail = smtp.received.map((item) => decodeQuotedPrintable(item.raw)).find((text) => text.includes('p6@example.co.uk'));
    expect(sixthMail).toContain(`AI-readiness of ${site.origin}/page-6: not checked, ${reason}`);
    const page = await request(app.app).get(sixth);
    expect(shown(page.text)).toContain(`We couldn't check your website automatically: ${reason}.`);
    // An hour on, the address may ask again.
    app.clock.advance(60 * 60 * 1000 + 1);
    await submitFrom('203.0.113.9', { ...validAudit, email: 'p8@example.co.uk', website_url: `${site.origin}/page-8` });
    await checks.idle();
    expect(app.db.prepare(`SELECT status FROM site_checks ORDER BY id DESC LIMIT 1`).pluck().get()).toBe('done');
  });

  it(`with ${MAX_QUEUED_CHECKS} checks waiting, a new one is skipped; a check that waited an hour fails instead of running late`, async () => {
    const site = await fixture(wellMadeSite);
    await wired({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    const store = new SiteCheckStore(app.db);
    for (let index = 0; index < MAX_QUEUED_CHECKS; index += 1) store.enqueue(null, `${site.origin}/queued-${index}`, newCheckToken(), app.clock());
    const thankYou = await submitFrom('203.0.113.9', { ...validAudit, website_url: `${site.origin}/` });
    expect(app.db.prepare(`SELECT status, reason FROM site_checks WHERE audit_id IS NOT NULL`).get()).toEqual({ status: 'skipped', reason: 'too many site checks are waiting to run just now' });
    expect(shown((await request(app.app).get(thankYou)).text)).toContain("We couldn't check your website automatically: too many site checks are waiting to run just now.");

    app.clock.advance(60 * 60 * 1000 + 1);
    const late = new SiteCheckWorker({ db: app.db, checker: checker(), logger, clock: app.clock, deliver: () => undefined });
    late.start();
    await late.idle();
    expect(app.db.prepare(`SELECT status, reason, count(*) AS n FROM site_checks WHERE audit_id IS NULL GROUP BY status, reason`).all()).toEqual([
      { status: 'failed', reason: 'the check waited more than 1 hour in the queue, so it was not run', n: MAX_QUEUED_CHECKS },
    ]);
    expect(site.requests).toEqual([]);
    expect(countRows(app.db, 'audit_submissions')).toBe(1);
  });
});

describe('what a site says reaches the database, the mail, the CSV and the page bounded', () => {
  let app: TestApp;
  let smtp: TestSmtpServer;
  afterEach(async () => {
    app?.close();
    await smtp?.close();
  });

  it('a page that says as much as it can, behind a redirect to a 5,000-character address', async () => {
    const longPath = `/${'r'.repeat(5000)}`;
    const types = Array.from({ length: 200 }, (_, index) => ({ '@type': `${'T'.repeat(5000)}${index}` }));
    const site = await fixture((origin) => ({
      '/': { status: 302, headers: { Location: longPath }, body: '' },
      [longPath]: html(
        `<html lang="${'l'.repeat(5000)}"><head><title>${'Title '.repeat(20_000)}</title><meta name="description" content="${'Words '.repeat(20_000)}">` +
          `<link rel="canonical" href="${origin}/${'c'.repeat(1900)}"><script type="application/ld+json">${JSON.stringify({ '@graph': types })}</script></head><body><p>${'text '.repeat(300)}</p></body></html>`,
      ),
      '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: `User-agent: *\nAllow: /\n${Array.from({ length: 50 }, (_, index) => `Sitemap: ${origin}/${'s'.repeat(3000)}${index}.xml`).join('\n')}\n` },
    }));
    smtp = await startSmtpServer();
    let checks: SiteCheckWorker | undefined;
    let mail: ReturnType<TestApp['outboxWorker']> | undefined;
    app = createTestApp({ siteChecks: { kick: () => checks?.kick(), mailWaitMs: 20_000 }, mailer: { kick: () => mail?.kick() } });
    mail = app.outboxWorker(smtpTransport(smtp.url), { logger });
    checks = new SiteCheckWorker({ db: app.db, checker: checker(), logger, clock: app.clock, deliver: siteCheckDelivery(new LeadStore(app.db), app.config, app.clock), onDelivered: () => mail?.kick() });
    const { response } = await postForm(app, '/free-audit', { ...validAudit, website_url: `${site.origin}/` });
    await checks.idle();
    await mail.idle();
    const stored = app.db.prepare('SELECT status, report, summary FROM site_checks').get() as { status: string; report: string; summary: string };
    expect(stored.status).toBe('done');
    expect(stored.report.length).toBeLessThan(20_000);
    expect(stored.summary.length).toBeLessThan(1000);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.raw.length).toBeLessThan(60_000);
    const shownPage = shown((await request(app.app).get(String(response.headers.location))).text);
    expect(shownPage).toContain('AI-readiness score');
    expect(shownPage.length).toBeLessThan(20_000);
    const csv = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'export-csv.js'), '--no-bom'], { env: { PATH: process.env.PATH ?? '', DATABASE_PATH: app.config.databasePath }, encoding: 'utf8' });
    expect(csv.stdout.split('\r\n')[1]?.length).toBeLessThan(10_000);
  });
});

describe('a check\'s result, and who may ask for it', () => {
  let app: TestApp;
  afterEach(() => app?.close());

  it('a held submission\'s link answers exactly as a check still running does, so a sender cannot tell', async () => {
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    const website = 'https://www.okafor-electrical.example/';
    const held = await postForm(app, '/free-audit', { ...validAudit, website_url: website }, { hidden: { [HONEYPOT_FIELD]: 'http://spam.example' } });
    const real = await postForm(app, '/free-audit', { ...validAudit, email: 'real@example.co.uk', website_url: website });
    expect(countRows(app.db, 'quarantine')).toBe(1);
    const answers = await Promise.all(
      [held, real].map(async ({ response }) => {
        const location = String(response.headers.location);
        expect(location).toMatch(THANK_YOU_WITH_CHECK);
        const status = await request(app.app).get(location.replace('/thank-you', '/site-check/status'));
        const page = await request(app.app).get(location);
        return { status: status.status, cache: status.headers['cache-control'], body: status.body, page: shown(page.text).replace(/\s+/g, ' ') };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.body).toEqual({ siteCheck: { status: 'pending', host: 'www.okafor-electrical.example', url: website }, probe: null });
    expect(answers[0]?.page).toContain("We're reading your website now");
  });

  it('results wait behind the bound on one address like the form pages: a flood of made-up tokens is refused, others and shared pages go on', async () => {
    app = createTestApp({ env: { TRUST_PROXY: '1' }, formRequestsPerAddress: { burst: 2, perSecond: 0.001, maxWaitMs: 1, maxWaiting: 100 } });
    const from = (address: string) => (target: string) => request(app.app).get(target).set('X-Forwarded-For', address);
    const flooder = from('203.0.113.5');
    const made = () => `check=${newCheckToken()}`;
    expect((await flooder(`/site-check/status?${made()}`)).status).toBe(404);
    expect((await flooder(`/thank-you?${made()}`)).status).toBe(200);
    for (const target of [`/site-check/status?${made()}`, `/thank-you?${made()}`, `/ai-readiness-check/result?${made()}`, '/free-audit']) {
      const refused = await flooder(target);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    }
    // What is the same for everyone is not held back; nor is another visitor.
    expect((await flooder('/')).status).toBe(200);
    expect((await flooder('/thank-you')).status).toBe(200);
    expect((await from('198.51.100.7')(`/site-check/status?${made()}`)).status).toBe(404);
  });

  it('two addresses of one IPv6 /56 are one visitor to the bound; another /56 is another', async () => {
    app = createTestApp({ env: { TRUST_PROXY: '1' }, formRequestsPerAddress: { burst: 1, perSecond: 0.001, maxWaitMs: 1, maxWaiting: 100 } });
    const status = async (address: string) => (await request(app.app).get(`/site-check/status?check=${newCheckToken()}`).set('X-Forwarded-For', address)).status;
    expect(await status('2001:db8:1:100::1')).toBe(404);
    expect(await status('2001:db8:1:1ff::2')).toBe(429);
    expect(await status('2001:db8:1:200::1')).toBe(404);
  });
});
