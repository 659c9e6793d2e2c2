import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parse } from 'node-html-parser';
import request from 'supertest';
import { HONEYPOT_FIELD } from '../../shared/forms/form-contract';
import { LeadStore } from '../../server/leads/lead-store';
import { siteCheckDelivery } from '../../server/leads/site-check-delivery';
import { loadAiSources } from '../../server/ledger/ai-sources';
import { createLogger } from '../../server/logger';
import { MAX_QUEUED_CHECKS, newCheckToken, SiteCheckStore } from '../../server/site-check/check-store';
import { SiteCheckWorker } from '../../server/site-check/check-worker';
import { createSiteChecker } from '../../server/site-check/site-checker';
import { startSiteAt, wellMadeSite, type FixtureAnswer, type FixtureSite } from '../helpers/fixture-sites';
import { countRows, formSession, validAudit } from '../helpers/forms';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT } from '../helpers/locations';

/** The public AI-readiness check, through the app: page, post, result, budgets, reuse, prefill, CSV. */
jest.setTimeout(60_000);

const logger = createLogger('silent');
const checker = createSiteChecker({ brand: 'Citewise', siteUrl: 'https://www.citewise.example', allow: ['127.0.0.1'], agents: loadAiSources().agents.map((agent) => agent.match), clock: () => new Date(), priority: 'normal' });
const RESULT = /^\/ai-readiness-check\/result\?check=[\w-]{43}$/;

let app: TestApp;
const sites: FixtureSite[] = [];
afterEach(async () => {
  app?.close();
  await Promise.all(sites.splice(0).map((site) => site.close()));
});
async function fixture(paths: (origin: () => string) => Record<string, FixtureAnswer>): Promise<FixtureSite> {
  const site = await startSiteAt(paths);
  sites.push(site);
  return site;
}

/** The app with the check worker over its database and clock, as server/index.ts wires them. */
function wired(env: Record<string, string> = {}) {
  let worker: SiteCheckWorker | undefined;
  app = createTestApp({ env: { TRUST_PROXY: '1', ...env }, siteChecks: { kick: () => worker?.kick(), mailWaitMs: 0 } });
  worker = new SiteCheckWorker({ db: app.db, checker, logger, clock: app.clock, deliver: siteCheckDelivery(new LeadStore(app.db), app.config, app.clock) });
  return worker;
}

/** A visitor at `address` opens the page and checks `website`, as a browser without JavaScript does. */
async function checkFrom(address: string, website: string, extra: Record<string, string> = {}) {
  const page = await request(app.app).get('/ai-readiness-check').set('X-Forwarded-For', address);
  const session = formSession(page.text, page.headers['set-cookie'] as unknown as string[]);
  return request(app.app).post('/ai-readiness-check').set('X-Forwarded-For', address).set('Cookie', session.cookie).type('form').send({ website, ...session.hidden, ...extra });
}

const shown = (html: string) => parse(html).querySelector('main')?.text.replace(/\s+/g, ' ') ?? '';

describe('the page', () => {
  it('is indexable, with its own head, a WebApplication offered free, in the sitemap and llms.txt', async () => {
    wired();
    const page = await request(app.app).get('/ai-readiness-check');
    expect(page.status).toBe(200);
    const document = parse(page.text);
    expect(document.querySelector('title')?.text).toBe('Free AI-Readiness Check for Your Website | Citewise');
    expect(document.querySelector('meta[name="robots"]')).toBeNull();
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe('https://www.citewise.example/ai-readiness-check');
    expect(document.querySelector('meta[property="og:title"]')?.getAttribute('content')).toContain('AI-Readiness Check');
    expect(document.querySelector('h1')?.text).toBe('Free AI-Readiness Check');
    expect(shown(page.text)).toContain("See your website the way ChatGPT, Claude and Perplexity's crawlers see it");
    expect(document.querySelector('form[action="/ai-readiness-check"] input[name="website"]')?.getAttribute('type')).toBe('url');
    const jsonLd = document.querySelectorAll('script[type="application/ld+json"]').map((script) => JSON.parse(script.text) as Record<string, unknown>);
    expect(jsonLd).toContainEqual(expect.objectContaining({ '@type': 'WebApplication', isAccessibleForFree: true, offers: expect.objectContaining({ price: '0' }) }));
    expect((await request(app.app).get('/sitemap.xml')).text).toContain('<loc>https://www.citewise.example/ai-readiness-check</loc>');
    expect((await request(app.app).get('/sitemap.xml')).text).not.toContain('/ai-readiness-check/result');
    expect((await request(app.app).get('/llms.txt')).text).toContain('[Free AI-Readiness Check](https://www.citewise.example/ai-readiness-check.md)');
  });

  it('is linked from the home page, the footer, /site-checker and the robots.txt and AI-friendly-website articles', async () => {
    wired();
    for (const target of ['/', '/site-checker', '/blog/robots-llms-txt-guide', '/blog/ai-friendly-website']) {
      const links = parse((await request(app.app).get(target)).text).querySelectorAll('main a[href="/ai-readiness-check"]');
      expect({ target, links: links.length }).toEqual({ target, links: expect.any(Number) });
      expect(links.length).toBeGreaterThan(0);
    }
    expect(parse((await request(app.app).get('/blog')).text).querySelectorAll('footer a[href="/ai-readiness-check"]')).toHaveLength(1);
  });
});

describe('a check, without JavaScript', () => {
  it('answers 303 to its result page, which shows it running, then the score, each finding and the invitation to the audit', async () => {
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: 'User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n' } }));
    const worker = wired();
    const posted = await checkFrom('203.0.113.7', `${site.origin}/`);
    expect(posted.status).toBe(303);
    const location = String(posted.headers.location);
    expect(location).toMatch(RESULT);
    const running = await request(app.app).get(location);
    expect(running.status).toBe(200);
    expect(running.headers['cache-control']).toBe('private, no-store');
    expect(running.headers['x-robots-tag']).toBe('noindex');
    expect(running.text).toContain('<meta name="robots" content="noindex');
    await worker.idle();
    const done = await request(app.app).get(location);
    const text = shown(done.text);
    expect(text).toContain(`What AI crawlers see on 127.0.0.1:${site.port}`);
    expect(text).toMatch(/AI-readiness score: \d+\/100/);
    expect(text).toContain('it blocks ClaudeBot');
    expect(text).toContain('Served over HTTPS');
    const invitation = parse(done.text).querySelectorAll('main a').find((link) => link.text.includes('Get My Free AI Audit'));
    expect(invitation?.getAttribute('href')).toBe(`/free-audit?website=${encodeURIComponent(`${site.origin}/`)}`);
    // Only the token opens it; nobody can list results.
    expect((await request(app.app).get(`/ai-readiness-check/result?check=${newCheckToken()}`)).status).toBe(404);
    const bare = await request(app.app).get('/ai-readiness-check/result');
    expect(bare.status).toBe(200);
    expect(shown(bare.text)).toContain('We have no result at this address.');
    // No lead, no mail: a check asked for on its own.
    expect(countRows(app.db, 'audit_submissions')).toBe(0);
    expect(countRows(app.db, 'mail_outbox')).toBe(0);
  });

  it('a refused address gets its plain reason and no score', async () => {
    const worker = wired();
    const posted = await checkFrom('203.0.113.7', 'http://10.0.0.1/');
    await worker.idle();
    const text = shown((await request(app.app).get(String(posted.headers.location))).text);
    expect(text).toContain("We couldn't check this website: 10.0.0.1 is a private network address, which the checker never fetches.");
    expect(text).not.toContain('AI-readiness score');
  });

  it('an address that is no web address is refused by the form, the value kept', async () => {
    wired();
    const posted = await checkFrom('203.0.113.7', 'javascript:alert(1)');
    expect(posted.status).toBe(400);
    expect(parse(posted.text).querySelector('input[name="website"]')?.getAttribute('value')).toBe('javascript:alert(1)');
    expect(shown(posted.text)).toContain('Please enter a full web address starting with https:// or http://.');
  });

  it('a post that looks automated is held, never fetched, and its link answers as a check still running', async () => {
    const site = await fixture(wellMadeSite);
    const worker = wired();
    const posted = await checkFrom('203.0.113.7', `${site.origin}/`, { [HONEYPOT_FIELD]: 'filled by a bot' });
    expect(String(posted.headers.location)).toMatch(RESULT);
    await worker.idle();
    expect(app.db.prepare('SELECT form, reason FROM quarantine').all()).toEqual([{ form: 'readiness', reason: 'honeypot filled' }]);
    expect(countRows(app.db, 'site_checks')).toBe(0);
    expect(site.requests).toEqual([]);
    const status = await request(app.app).get(String(posted.headers.location).replace('/ai-readiness-check/result', '/site-check/status'));
    // A public check has no visibility probe: the status path, which answers both, says none.
    expect(status.body).toEqual({ siteCheck: { status: 'pending', host: `127.0.0.1:${site.port}`, url: `${site.origin}/` }, probe: null });
  });
});

describe('budgets', () => {
  it('past PUBLIC_CHECKS_PER_ADDRESS from one address: a 429 page with Retry-After that says when to come back; others go on', async () => {
    const site = await fixture(wellMadeSite);
    wired({ PUBLIC_CHECKS_PER_ADDRESS: '2' });
    for (const index of [1, 2]) expect((await checkFrom('203.0.113.7', `${site.origin}/page-${index}`)).status).toBe(303);
    const refused = await checkFrom('203.0.113.7', `${site.origin}/page-3`);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(shown(refused.text)).toMatch(/You have checked 2 websites in the last hour, as many as one visitor may\. Please come back in about \d+ minutes\./);
    expect(parse(refused.text).querySelector('input[name="website"]')?.getAttribute('value')).toBe(`${site.origin}/page-3`);
    expect((await checkFrom('198.51.100.4', `${site.origin}/page-3`)).status).toBe(303);
    // An hour on, the address may check again.
    app.clock.advance(60 * 60 * 1000 + 1);
    expect((await checkFrom('203.0.113.7', `${site.origin}/page-4`)).status).toBe(303);
  });

  it('past PUBLIC_CHECKS_PER_HOUR from everyone: the page says the checker is busy; the audit form\'s checks are not held back', async () => {
    const site = await fixture(wellMadeSite);
    wired({ PUBLIC_CHECKS_PER_HOUR: '2' });
    for (const index of [1, 2]) expect((await checkFrom(`203.0.113.${index}`, `${site.origin}/page-${index}`)).status).toBe(303);
    const refused = await checkFrom('203.0.113.3', `${site.origin}/page-3`);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(shown(refused.text)).toMatch(/The checker is busy just now\. Please come back in about \d+ minutes?\./);
    // An audit request still has its website checked.
    const page = await request(app.app).get('/free-audit').set('X-Forwarded-For', '203.0.113.9');
    const session = formSession(page.text, page.headers['set-cookie'] as unknown as string[]);
    const audit = await request(app.app).post('/free-audit').set('X-Forwarded-For', '203.0.113.9').set('Cookie', session.cookie).type('form').send({ ...validAudit, website_url: `${site.origin}/page-9`, ...session.hidden });
    expect(audit.status).toBe(303);
    expect(app.db.prepare('SELECT status FROM site_checks WHERE audit_id IS NOT NULL').pluck().get()).toBe('queued');
  });

  it('says when to come back from the oldest check in the hour: two checks 30 minutes apart leave 30 minutes', async () => {
    const site = await fixture(wellMadeSite);
    wired({ PUBLIC_CHECKS_PER_ADDRESS: '2' });
    expect((await checkFrom('203.0.113.7', `${site.origin}/page-1`)).status).toBe(303);
    app.clock.advance(30 * 60 * 1000);
    expect((await checkFrom('203.0.113.7', `${site.origin}/page-2`)).status).toBe(303);
    const refused = await checkFrom('203.0.113.7', `${site.origin}/page-3`);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1800');
    expect(shown(refused.text)).toContain('Please come back in about 30 minutes.');
  });

  it('keeps an address at its budget when its checks are swept from memory: only addresses with none in the hour are forgotten', async () => {
    const site = await fixture(wellMadeSite);
    wired({ PUBLIC_CHECKS_PER_ADDRESS: '2' });
    for (const index of [1, 2]) expect((await checkFrom('203.0.113.7', `${site.origin}/page-${index}`)).status).toBe(303);
    // Minutes on, another visitor's check sweeps the budget's memory.
    app.clock.advance(2 * 60 * 1000);
    expect((await checkFrom('198.51.100.4', `${site.origin}/page-3`)).status).toBe(303);
    expect((await checkFrom('203.0.113.7', `${site.origin}/page-4`)).status).toBe(429);
  });

  it('counts two IPv6 addresses of one /56 as one visitor; another /56 is another', async () => {
    const site = await fixture(wellMadeSite);
    wired({ PUBLIC_CHECKS_PER_ADDRESS: '2' });
    expect((await checkFrom('2001:db8:1:100::1', `${site.origin}/page-1`)).status).toBe(303);
    expect((await checkFrom('2001:db8:1:1ff::2', `${site.origin}/page-2`)).status).toBe(303);
    const refused = await checkFrom('2001:db8:1:100::3', `${site.origin}/page-3`);
    expect(refused.status).toBe(429);
    expect(shown(refused.text)).toContain('You have checked 2 websites in the last hour');
    expect((await checkFrom('2001:db8:1:200::1', `${site.origin}/page-3`)).status).toBe(303);
  });

  it('a site checked in the last hour is answered from that result at once, even with the queue full: nothing queued or fetched; another site waits for room', async () => {
    const site = await fixture(wellMadeSite);
    const worker = wired();
    await checkFrom('203.0.113.7', `${site.origin}/`);
    await worker.idle();
    const fetched = site.requests.length;
    const store = new SiteCheckStore(app.db);
    // Port 9 on loopback refuses at once, should anything try to check these.
    for (let index = 0; index < MAX_QUEUED_CHECKS; index += 1) store.enqueue(null, `http://127.0.0.1:9/queued-${index}`, newCheckToken(), app.clock());
    const queued = () => app.db.prepare(`SELECT count(*) FROM site_checks WHERE status = 'queued'`).pluck().get();
    const again = await checkFrom('198.51.100.4', `${site.origin}/`);
    expect(again.status).toBe(303);
    expect(shown((await request(app.app).get(String(again.headers.location))).text)).toMatch(/AI-readiness score: \d+\/100/);
    expect(queued()).toBe(MAX_QUEUED_CHECKS);
    expect(site.requests).toHaveLength(fetched);
    const other = await fixture(wellMadeSite);
    const busy = await checkFrom('198.51.100.4', `${other.origin}/`);
    expect(busy.status).toBe(429);
    expect(shown(busy.text)).toMatch(/The checker is busy just now\. Please come back in about 1 minute\./);
    expect(queued()).toBe(MAX_QUEUED_CHECKS);
  });

  it('a site checked in the last hour is shown from that result: no second fetch, no budget spent', async () => {
    const site = await fixture(wellMadeSite);
    const worker = wired({ PUBLIC_CHECKS_PER_ADDRESS: '2' });
    await checkFrom('203.0.113.7', `${site.origin}/`);
    await worker.idle();
    const fetched = site.requests.length;
    const again = await checkFrom('203.0.113.7', site.origin);
    expect(again.status).toBe(303);
    await worker.idle();
    expect(site.requests).toHaveLength(fetched);
    expect(shown((await request(app.app).get(String(again.headers.location))).text)).toMatch(/AI-readiness score: \d+\/100/);
    expect(app.db.prepare('SELECT reused_from FROM site_checks ORDER BY id').pluck().all()).toEqual([null, 1]);
    // The shown result cost nothing: a second site is still within this address's two an hour.
    const other = await fixture(wellMadeSite);
    expect((await checkFrom('203.0.113.7', `${other.origin}/`)).status).toBe(303);
  });

  it('the audit form\'s checks go before public ones in the queue', () => {
    wired();
    const store = new SiteCheckStore(app.db);
    store.enqueue(null, 'https://public.example/', newCheckToken(), app.clock());
    const audit = new LeadStore(app.db).save('audit', { ...validAudit }, app.clock(), () => ({ messageId: '<a@b>', from: 'a@b.example', to: 'c@d.example', subject: 's', text: 't', html: 'h' }));
    store.enqueue(audit.id, 'https://audit.example/', newCheckToken(), app.clock());
    expect(store.claimNext()?.url).toBe('https://audit.example/');
  });
});

describe('the audit form, from a result', () => {
  it('takes the website from its query, validated like any input and never echoed unescaped', async () => {
    wired();
    const value = (html: string) => parse(html).querySelector('input[name="website_url"]')?.getAttribute('value');
    expect(value((await request(app.app).get('/free-audit?website=https%3A%2F%2Fwww.okafor.example%2F')).text)).toBe('https://www.okafor.example/');
    expect(value((await request(app.app).get('/free-audit?website=javascript%3Aalert(1)')).text)).toBe('');
    const hostile = await request(app.app).get(`/free-audit?website=${encodeURIComponent('https://x.example/"><script>alert(1)</script>')}`);
    expect(hostile.text).not.toContain('<script>alert(1)</script>');
    expect(value(hostile.text)).toBe('https://x.example/"><script>alert(1)</script>');
  });
});

describe('ops', () => {
  it('lists the public checks with npm run export:csv -- --checks, with whether an audit request named the host afterwards; they go after 30 days', async () => {
    const site = await fixture(wellMadeSite);
    const worker = wired();
    await checkFrom('203.0.113.7', `${site.origin}/`);
    await checkFrom('203.0.113.8', 'https://other.example/');
    await worker.idle();
    const page = await request(app.app).get('/free-audit').set('X-Forwarded-For', '203.0.113.7');
    const session = formSession(page.text, page.headers['set-cookie'] as unknown as string[]);
    await request(app.app).post('/free-audit').set('X-Forwarded-For', '203.0.113.7').set('Cookie', session.cookie).type('form').send({ ...validAudit, website_url: `${site.origin}/`, ...session.hidden }).expect(303);
    const csv = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'export-csv.js'), '--checks', '--no-bom'], { env: { PATH: process.env.PATH ?? '', DATABASE_PATH: app.config.databasePath }, encoding: 'utf8' });
    const [header, ...rows] = csv.stdout.trim().split('\r\n');
    expect(header).toBe('"id","created_at","checked_at","url","host","status","score","summary","audit_requested"');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(new RegExp(`^"1",".+",".+","${site.origin}/","127\\.0\\.0\\.1:${site.port}","done","\\d+",".+","yes"$`));
    expect(rows[1]).toContain('"no"');
    expect(new SiteCheckStore(app.db).purgeAskedAlone(new Date(app.clock().getTime() - 30 * 86_400_000))).toBe(0);
    app.clock.advance(30 * 86_400_000 + 1);
    expect(new SiteCheckStore(app.db).purgeAskedAlone(new Date(app.clock().getTime() - 30 * 86_400_000))).toBe(2);
    expect(app.db.prepare('SELECT count(*) FROM site_checks').pluck().get()).toBe(1);
  });
});
