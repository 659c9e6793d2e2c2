import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parse } from 'node-html-parser';
import request from 'supertest';
import { siteCheckDelivery } from '../../server/leads/site-check-delivery';
import { LeadStore } from '../../server/leads/lead-store';
import { createLogger } from '../../server/logger';
import { smtpTransport } from '../../server/mail/mail-transport';
import { storedReport } from '../../server/site-check/check-store';
import { SiteCheckWorker } from '../../server/site-check/check-worker';
import { reportJson } from '../../server/site-check/report';
import { createSiteChecker, type SiteChecker } from '../../server/site-check/site-checker';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { loadAiSources } from '../../server/ledger/ai-sources';
import { EMPTY_SHELL, html, startSiteAt, wellMadeSite, type FixtureAnswer, type FixtureSite } from '../helpers/fixture-sites';
import { countRows, openForm, validAudit } from '../helpers/forms';
import { assistantPart as part, doneReport, probeAnswer } from '../helpers/probe-reports';
import { decodeQuotedPrintable, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { waitFor } from '../helpers/process-forms';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT } from '../helpers/locations';

jest.setTimeout(60_000);

const AGENTS = loadAiSources().agents.map((agent) => agent.match);
const logger = createLogger('silent');

function checker(options: { timeoutMs?: number; fetchTimeoutMs?: number } = {}): SiteChecker {
  return createSiteChecker({ brand: 'Citewise', siteUrl: 'https://www.citewise.example', allow: ['127.0.0.1'], agents: AGENTS, clock: () => new Date(), priority: 'normal', ...options });
}

const sites: FixtureSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});
async function fixture(paths: (origin: () => string) => Record<string, FixtureAnswer>): Promise<FixtureSite> {
  const site = await startSiteAt(paths);
  sites.push(site);
  return site;
}
const finding = (report: Awaited<ReturnType<SiteChecker['check']>>, id: string) => report.findings.find((item) => item.id === id);

describe('a check of fixture sites, as an AI crawler sees them', () => {
  it('a well-made site passes everything but https (the fixtures are plain http)', async () => {
    const site = await fixture(wellMadeSite);
    const report = await checker().check(`${site.origin}/`);
    expect(report.status).toBe('done');
    expect(report.findings.filter((item) => item.verdict !== 'pass').map((item) => item.id)).toEqual(['https']);
    expect(report.score).toBe(95);
    const json = reportJson(report);
    expect(json).toMatchObject({ status: 'done', reason: null, textWords: expect.any(Number), llmsTxt: true, sitemapUrls: 3, jsonLdTypes: expect.arrayContaining(['Electrician', 'FAQPage']) });
    expect(Object.values(json.aiAgents).every((verdict) => verdict === 'allowed')).toBe(true);
    expect(site.requests.map((item) => item.path)).toEqual(['/robots.txt', '/', '/llms.txt', '/sitemap.xml']);
  });

  it('an empty JavaScript shell has no text, and robots.txt (BOM, CRLF, wildcards) blocks some AI agents', async () => {
    const robots = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('User-agent: GPTBot\r\nUser-agent: CCBot\r\nDisallow: /\r\n\r\nUser-agent: ClaudeBot\r\nDisallow: /*$\r\n\r\nUser-agent: *\r\nAllow: /\r\n')]);
    const site = await fixture(() => ({ '/': html(EMPTY_SHELL), '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: robots } }));
    const report = await checker().check(`${site.origin}/`);
    const json = reportJson(report);
    expect(json.textWords).toBe(0);
    expect(json.aiAgents).toMatchObject({ GPTBot: 'blocked', CCBot: 'blocked', ClaudeBot: 'blocked', PerplexityBot: 'allowed', 'OAI-SearchBot': 'allowed' });
    expect(finding(report, 'textInHtml')).toMatchObject({ verdict: 'fail', detail: expect.stringContaining('empty shell') });
    expect(json.llmsTxt).toBe(false);
    expect(json.sitemapUrls).toBeNull();
  });

  it('robots.txt, llms.txt and the sitemap answering 404, then 5xx', async () => {
    const missing = await fixture((origin) => ({ '/': wellMadeSite(origin)['/'] as FixtureAnswer }));
    const notFound = reportJson(await checker().check(`${missing.origin}/`));
    expect(Object.values(notFound.aiAgents).every((verdict) => verdict === 'allowed')).toBe(true);
    expect(notFound).toMatchObject({ llmsTxt: false, sitemapUrls: null });

    const broken = await fixture((origin) => ({
      '/': wellMadeSite(origin)['/'] as FixtureAnswer,
      '/robots.txt': { status: 503, body: 'down' },
      '/llms.txt': { status: 500, body: 'oops' },
      '/sitemap.xml': { status: 502, body: 'bad gateway' },
    }));
    const report = await checker().check(`${broken.origin}/`);
    expect(Object.values(reportJson(report).aiAgents).every((verdict) => verdict === 'blocked')).toBe(true);
    expect(finding(report, 'aiCrawlers')).toMatchObject({ points: 0, detail: expect.stringContaining('answered 503') });
    expect(finding(report, 'llmsTxt')?.detail).toBe('llms.txt answered 500');
    expect(finding(report, 'sitemap')?.detail).toContain('answered 502');
  });

  it('robots.txt behind more than five redirects, or redirected where the checker does not go, is read as missing; within five it is obeyed', async () => {
    const hops = (count: number, to: string) =>
      Object.fromEntries(Array.from({ length: count }, (_, index) => [index === 0 ? '/robots.txt' : `/hop${index}`, { status: index % 2 ? 302 : 301, headers: { Location: index === count - 1 ? to : `/hop${index + 1}` } }]));
    const rules = { headers: { 'Content-Type': 'text/plain' }, body: 'User-agent: GPTBot\nDisallow: /\n' };
    const site = (paths: Record<string, FixtureAnswer>) => fixture((origin) => ({ ...wellMadeSite(origin), ...paths }));
    const agents = (report: Awaited<ReturnType<SiteChecker['check']>>) => reportJson(report).aiAgents;

    // Five redirects are followed: the rules at the end are the site's.
    const five = await site({ ...hops(5, '/rules.txt'), '/rules.txt': rules });
    const followed = await checker().check(`${five.origin}/`);
    expect(agents(followed)).toMatchObject({ GPTBot: 'blocked', ClaudeBot: 'allowed' });
    expect(followed.facts?.robots.state).toBe('found');

    // A sixth is not: robots.txt counts as missing, as a 404 does, and the report says why.
    const six = await site({ ...hops(6, '/rules.txt'), '/rules.txt': rules });
    const tooMany = await checker().check(`${six.origin}/`);
    expect(tooMany.status).toBe('done');
    expect(Object.values(agents(tooMany)).every((verdict) => verdict === 'allowed')).toBe(true);
    expect(six.requests.map((item) => item.path)).not.toContain('/rules.txt');
    expect(finding(tooMany, 'aiCrawlers')).toMatchObject({
      verdict: 'pass',
      points: 20,
      detail: `${six.origin}/robots.txt redirects more than 5 times (a redirect loop?): a crawler that cannot follow robots.txt to the end treats it as missing, as Google does, so every crawler may fetch every page and none of its rules apply`,
      advice: expect.stringContaining('robots.txt itself goes unread: serve it at /robots.txt'),
    });

    // A redirect to an address the checker never fetches: the same, and nothing is sent there.
    const inside = await site(hops(2, 'http://10.0.0.1/robots.txt'));
    const refused = await checker().check(`${inside.origin}/`);
    expect(refused.status).toBe('done');
    expect(Object.values(agents(refused)).every((verdict) => verdict === 'allowed')).toBe(true);
    expect(finding(refused, 'aiCrawlers')?.detail).toBe(
      'robots.txt redirects to http://10.0.0.1/robots.txt, which the checker does not follow (10.0.0.1 is a private network address, which the checker never fetches): a crawler that cannot follow robots.txt to the end treats it as missing, as Google does, so every crawler may fetch every page and none of its rules apply',
    );

    // Another scheme on the site's own host is not followed either: it does not refuse the check.
    const ftp = await fixture((origin) => ({
      ...wellMadeSite(origin),
      '/robots.txt': (_req, res) => void res.writeHead(301, { Location: `${origin().replace('http:', 'ftp:')}/robots.txt` }).end(),
    }));
    const otherScheme = await checker().check(`${ftp.origin}/`);
    expect(otherScheme.status).toBe('done');
    expect(finding(otherScheme, 'aiCrawlers')?.detail).toMatch(/^robots\.txt redirects to ftp:\/\/127\.0\.0\.1:\d+\/robots\.txt, which the checker does not follow \(only http and https addresses are checked, not ftp:\): /);

    // A redirect to a server that does not answer is no answer: every agent blocked, as before.
    const nowhere = await site(hops(1, 'http://127.0.0.1:9/robots.txt'));
    const unreachable = await checker().check(`${nowhere.origin}/`);
    expect(Object.values(agents(unreachable)).every((verdict) => verdict === 'blocked')).toBe(true);
    expect(finding(unreachable, 'aiCrawlers')).toMatchObject({ points: 0, detail: 'robots.txt could not be fetched (127.0.0.1:9 refused the connection), so crawlers must assume the whole site is off limits' });
  });

  it('broken JSON-LD is reported, with the parser\'s complaint', async () => {
    const site = await fixture(() => ({ '/': html('<html lang="en"><head><title>x</title><script type="application/ld+json">{"@type": "LocalBusiness", "name": "A",}</script></head><body><p>Hello</p></body></html>') }));
    const report = await checker().check(`${site.origin}/`);
    expect(finding(report, 'structuredDataParses')).toMatchObject({ verdict: 'fail', detail: expect.stringContaining('1 of 1 JSON-LD block does not parse') });
    expect(finding(report, 'organization')?.verdict).toBe('fail');
  });

  it('a redirect chain is followed and reported; a loop fails the check; a redirect to a private address refuses it', async () => {
    const site = await fixture((origin) => ({
      ...wellMadeSite(origin),
      '/old': { status: 301, headers: { Location: '/older' } },
      '/older': { status: 302, headers: { Location: '/' } },
      '/loop': { status: 302, headers: { Location: '/loop' } },
      '/inside': { status: 307, headers: { Location: 'http://10.0.0.1/admin' } },
    }));
    const chain = await checker().check(`${site.origin}/old`);
    expect(chain.status).toBe('done');
    expect(chain.facts?.redirects).toEqual([{ url: `${site.origin}/old`, status: 301 }, { url: `${site.origin}/older`, status: 302 }]);
    expect(finding(chain, 'https')?.detail).toBe(`the page is served over plain http (${site.origin}/), after 2 redirects (301 from ${site.origin}/old, 302 from ${site.origin}/older); it answered 200`);
    expect(await checker().check(`${site.origin}/loop`)).toMatchObject({ status: 'failed', reason: expect.stringContaining('redirects more than 5 times') });
    expect(await checker().check(`${site.origin}/inside`)).toMatchObject({ status: 'refused', reason: '10.0.0.1 is a private network address, which the checker never fetches' });
  });

  it('a 50 MB page is read to 1 MB; a PDF is no HTML; a server that sends a byte a second fails the check', async () => {
    const drips: NodeJS.Timeout[] = [];
    const site = await fixture(() => ({
      '/': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.write('<html><body><p>');
        const word = Buffer.from('word '.repeat(13_000));
        let sent = 0;
        const write = () => {
          while (sent < 50 * 1024 * 1024 && !res.destroyed) {
            sent += word.length;
            if (!res.write(word)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
      },
      '/brochure.pdf': { headers: { 'Content-Type': 'application/pdf' }, body: '%PDF-1.7\n...' },
      '/slow': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        const drip = setInterval(() => res.write('a'), 1000);
        drips.push(drip);
        res.on('close', () => clearInterval(drip));
      },
    }));
    const big = await checker().check(`${site.origin}/`);
    expect(big.status).toBe('done');
    expect(big.facts?.page.truncated).toBe(true);
    expect(finding(big, 'textInHtml')?.detail).toContain('(in its first 1 MB)');
    const pdf = await checker().check(`${site.origin}/brochure.pdf`);
    expect(finding(pdf, 'textInHtml')?.detail).toBe('the page is application/pdf, not HTML');
    const slow = await checker({ fetchTimeoutMs: 2000 }).check(`${site.origin}/slow`);
    expect(slow).toMatchObject({ status: 'failed', reason: `127.0.0.1:${site.port} gave no complete answer within 2 s` });
    for (const drip of drips) clearInterval(drip);
  });

  it('stops at robots.txt when a group there names the checker', async () => {
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: 'User-agent: CitewiseSiteCheck\nDisallow: /\n' } }));
    expect(await checker().check(`${site.origin}/`)).toMatchObject({ status: 'refused', reason: expect.stringContaining('asks CitewiseSiteCheck not to fetch the site') });
    expect(site.requests.map((item) => item.path)).toEqual(['/robots.txt']);
  });
});

/** A Leeds plumber's home page that names its services and links its contact page, where its details are. */
const plumberHome = (contactHref: string, before = '') => `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Hartley Plumbing | Plumbers in Leeds</title></head>
<body><header><nav>${before}<a href="/">Home</a> <a href="${contactHref}">Contact us</a></nav></header>
<main><h1>Plumbers in Leeds</h1><section><h2>Our services</h2><ul><li>Boiler repair</li><li>Bathroom fitting</li></ul></section></main>
<footer><p>Hartley Plumbing Ltd</p></footer></body></html>`;
const PLUMBER_CONTACT = `<!doctype html><html lang="en-GB"><head><title>Contact Hartley Plumbing</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Plumber","name":"Hartley Plumbing","email":"office@hartley-plumbing.example"}</script></head>
<body><h1>Get in touch</h1><p>Call <a href="tel:0113 496 0000">0113 496 0000</a> or 07700 900123.</p>
<address>12 Park Row<br>Leeds<br>LS1 5HD</address><p>Monday to Friday: 08:00 - 18:00</p></body></html>`;

describe("the business's facts: its home page, and the contact page it links", () => {
  it('reads the contact page the home page links, and keeps each fact with the page and the part of it it was read from', async () => {
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/': html(plumberHome('/contact-us')), '/contact-us': html(PLUMBER_CONTACT) }));
    const report = await checker().check(`${site.origin}/`);
    expect(report.status).toBe('done');
    expect(site.requests.map((item) => item.path)).toContain('/contact-us');
    const business = report.facts?.business;
    expect(business).toMatchObject({
      contactPage: `${site.origin}/contact-us`,
      phones: [
        { value: '0113 496 0000', source: { page: 'contact page', from: 'link' } },
        { value: '07700 900123', source: { page: 'contact page', from: 'text' } },
      ],
      emails: [{ value: 'office@hartley-plumbing.example', source: { page: 'contact page', from: 'structured data' } }],
      addresses: [{ value: '12 Park Row, Leeds, LS1 5HD', source: { page: 'contact page', from: 'text' } }],
      postcodes: [{ value: 'LS1 5HD', source: { page: 'contact page', from: 'text' } }],
      towns: [{ value: 'Leeds', source: { page: 'contact page', from: 'text' } }],
      openingHours: [{ value: 'Monday to Friday: 08:00 - 18:00', source: { page: 'contact page', from: 'text' } }],
      services: [
        { value: 'Boiler repair', source: { page: 'home page', from: 'text' } },
        { value: 'Bathroom fitting', source: { page: 'home page', from: 'text' } },
      ],
    });
    // The home page's text first, then the contact page's.
    expect(business?.text).toBe('Home Contact us Plumbers in Leeds Our services Boiler repair Bathroom fitting Hartley Plumbing Ltd Get in touch Call 0113 496 0000 or 07700 900123. 12 Park Row Leeds LS1 5HD Monday to Friday: 08:00 - 18:00');
    // The score and findings are the same as with no contact page at all.
    const without = await fixture((origin) => ({ ...wellMadeSite(origin), '/': html(plumberHome('/contact-us')) }));
    const alone = await checker().check(`${without.origin}/`);
    expect(alone.facts?.business?.contactPage).toBeNull();
    expect(report.score).toBe(alone.score);
    const details = (checked: typeof report, origin: string) => checked.findings.map((item) => item.detail.replaceAll(origin, ''));
    expect(details(report, site.origin)).toEqual(details(alone, without.origin));
  });

  it('never fetches a contact link on another host, nor follows the site\'s own contact page there', async () => {
    const elsewhere = await fixture(() => ({ '/contact': html(PLUMBER_CONTACT) }));
    // The first contact link is another site's: it is passed over for the site's own.
    const linked = await fixture((origin) => ({ ...wellMadeSite(origin), '/': html(plumberHome('/contact', `<a href="${elsewhere.origin}/contact">Contact</a> `)), '/contact': html(PLUMBER_CONTACT) }));
    const report = await checker().check(`${linked.origin}/`);
    expect(report.facts?.business?.contactPage).toBe(`${linked.origin}/contact`);
    expect(linked.requests.map((item) => item.path)).toContain('/contact');
    // The site's own contact page redirects to another host: not followed.
    const redirected = await fixture((origin) => ({ ...wellMadeSite(origin), '/': html(plumberHome('/contact')), '/contact': { status: 302, headers: { Location: `${elsewhere.origin}/contact` } } }));
    const refused = await checker().check(`${redirected.origin}/`);
    expect(refused.status).toBe('done');
    expect(redirected.requests.map((item) => item.path)).toContain('/contact');
    expect(refused.facts?.business).toMatchObject({ contactPage: null, phones: [], services: [{ value: 'Boiler repair' }, { value: 'Bathroom fitting' }] });
    expect(elsewhere.requests).toEqual([]);
  });

  it('a contact page that never answers, answers 404 or is no HTML neither holds the check up nor fails it', async () => {
    const site = await fixture((origin) => ({
      ...wellMadeSite(origin),
      '/': html(plumberHome('/contact')),
      '/contact': () => undefined,
      '/missing/': html(plumberHome('/missing/contact')),
      '/missing/contact': { status: 404, body: '<p>Call 0113 496 0000</p>' },
      '/pdf/': html(plumberHome('/pdf/contact')),
      '/pdf/contact': { headers: { 'Content-Type': 'application/pdf' }, body: '%PDF-1.7 Call 0113 496 0000' },
    }));
    const silent = await checker().check(`${site.origin}/`);
    expect(silent.status).toBe('done');
    expect(silent.facts?.business).toMatchObject({ contactPage: null, phones: [], services: [{ value: 'Boiler repair' }, { value: 'Bathroom fitting' }] });
    for (const path of ['/missing/', '/pdf/']) {
      const report = await checker().check(`${site.origin}${path}`);
      expect(report.status).toBe('done');
      expect(report.facts?.business).toMatchObject({ contactPage: null, phones: [] });
      expect(report.facts?.business?.text).not.toContain('0113');
    }
  });
});

describe('the check of an audit request, from the form to the agency', () => {
  let app: TestApp;
  let smtp: TestSmtpServer;
  afterEach(async () => {
    app?.close();
    await smtp?.close();
  });

  /** The app with both workers over its database and clock, as server/index.ts wires them. */
  async function wired(mailWaitMs = 20_000, check: SiteChecker = checker()) {
    smtp = await startSmtpServer();
    let checks: SiteCheckWorker | undefined;
    let mail: ReturnType<TestApp['outboxWorker']> | undefined;
    app = createTestApp({ siteChecks: { kick: () => checks?.kick(), mailWaitMs }, mailer: { kick: () => mail?.kick() } });
    mail = app.outboxWorker(smtpTransport(smtp.url), { logger });
    const store = new LeadStore(app.db);
    checks = new SiteCheckWorker({ db: app.db, checker: check, logger, clock: app.clock, deliver: siteCheckDelivery(store, app.config, app.clock), onDelivered: () => mail?.kick() });
    return { checks, mail };
  }

  async function submit(values: Record<string, string>) {
    const { agent, hidden } = await openForm(app.app, '/free-audit');
    const response = await agent.post('/free-audit').type('form').send({ ...values, ...hidden }).expect(303);
    return response.headers.location as string;
  }

  it('the lead\'s mail waits for the findings, and the thank-you page shows them to that visitor only', async () => {
    const site = await fixture(wellMadeSite);
    const { checks, mail } = await wired();
    const thankYou = await submit({ ...validAudit, website_url: `${site.origin}/` });
    // Not due yet: the notification waits for its check.
    mail.kick();
    await mail.idle();
    expect(smtp.received).toHaveLength(0);
    const pending = await request(app.app).get(thankYou);
    expect(pending.headers['cache-control']).toBe('private, no-store');
    expect(pending.text).toContain('While we prepare your full audit: what AI crawlers see on');
    expect(pending.text).toContain('reload this page');

    await checks.idle();
    await mail.idle();
    expect(smtp.received).toHaveLength(1);
    const text = decodeQuotedPrintable(smtp.received[0]?.raw ?? '');
    expect(text).toContain('[site 95/100]');
    expect(text).toContain(`AI-readiness of ${site.origin}/: 95/100`);
    expect(text).toContain('[FAIL] Served over HTTPS');

    const page = await request(app.app).get(thankYou);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.text).toContain('<meta name="robots" content="noindex, follow"');
    const shown = parse(page.text).querySelector('main')?.text ?? '';
    expect(shown).toContain(`While we prepare your full audit: what AI crawlers see on 127.0.0.1:${site.port}`);
    expect(shown).toContain('AI-readiness score: 95/100');
    expect(shown).toContain('Served over HTTPS');
    const status = await request(app.app).get(thankYou.replace('/thank-you', '/site-check/status'));
    expect(status.headers['cache-control']).toBe('private, no-store');
    expect(status.body.siteCheck).toMatchObject({ status: 'done', score: 95, host: `127.0.0.1:${site.port}` });
    // No token, another token, two tokens: no result.
    for (const other of ['/thank-you', '/thank-you?check=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', `${thankYou}&check=x`]) {
      const answer = await request(app.app).get(other);
      expect(answer.status).toBe(200);
      expect(parse(answer.text).querySelector('main')?.text).not.toContain('what AI crawlers see on');
    }
    expect((await request(app.app).get('/site-check/status?check=nope')).status).toBe(404);
    expect(app.db.prepare('SELECT status, score FROM site_checks').get()).toEqual({ status: 'done', score: 95 });
  });

  it("stores the business's facts with the check's report, those of the contact page marked so", async () => {
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/': html(plumberHome('/contact-us')), '/contact-us': html(PLUMBER_CONTACT) }));
    const { checks } = await wired(0);
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    await checks.idle();
    const stored = storedReport({ report: app.db.prepare('SELECT report FROM site_checks').pluck().get() as string });
    expect(stored?.facts?.business).toMatchObject({
      contactPage: `${site.origin}/contact-us`,
      phones: [{ value: '0113 496 0000', source: { page: 'contact page', from: 'link' } }, { value: '07700 900123', source: { page: 'contact page', from: 'text' } }],
      postcodes: [{ value: 'LS1 5HD', source: { page: 'contact page', from: 'text' } }],
      services: [{ value: 'Boiler repair', source: { page: 'home page', from: 'text' } }, { value: 'Bathroom fitting', source: { page: 'home page', from: 'text' } }],
    });
  });

  it('a check that ends after the wait follows in a second mail that names the lead', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/robots.txt': (_req, res) => void held.then(() => res.end('User-agent: *\nAllow: /\n')) }));
    const { checks, mail } = await wired();
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    app.clock.advance(20_000);
    mail.kick();
    await mail.idle();
    expect(smtp.received).toHaveLength(1);
    expect(decodeQuotedPrintable(smtp.received[0]?.raw ?? '')).toContain('is still running: its findings follow in a separate mail');
    release();
    await checks.idle();
    await mail.idle();
    expect(smtp.received).toHaveLength(2);
    const second = decodeQuotedPrintable(smtp.received[1]?.raw ?? '');
    expect(second).toMatch(/Subject: AI-readiness check for audit request #1: 127\.0\.0\.1:\d+ 95\/100/);
    expect(second).toContain(`named in audit request #1 from ${validAudit.name}`);
    expect(app.db.prepare(`SELECT kind, source_id FROM mail_outbox ORDER BY id`).all()).toEqual([{ kind: 'audit', source_id: 1 }, { kind: 'site-check', source_id: 1 }]);
  });

  it('a check that ends while its lead\'s notification is being sent follows in a mail of its own: nothing is written into a mail already on its way', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/robots.txt': (_req, res) => void held.then(() => res.end('User-agent: *\nAllow: /\n')) }));
    const { checks, mail } = await wired();
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    // The wait is over and the notification is on its way: the mail server has it, and answers
    // only once the check has ended.
    smtp.holdNextReply();
    app.clock.advance(20_000);
    mail.kick();
    await waitFor('the notification to be waiting for its answer', () => smtp.awaitingReply === 1, 20_000);
    release();
    await checks.idle();
    smtp.answerHeld();
    await mail.idle();
    expect(smtp.received).toHaveLength(2);
    expect(decodeQuotedPrintable(smtp.received[0]?.raw ?? '')).toContain('is still running: its findings follow in a separate mail');
    expect(decodeQuotedPrintable(smtp.received[1]?.raw ?? '')).toMatch(/Subject: AI-readiness check for audit request #1: 127\.0\.0\.1:\d+ 95\/100/);
  });

  it('erasing the person removes the mail of their check\'s findings too', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/robots.txt': (_req, res) => void held.then(() => res.end('User-agent: *\nAllow: /\n')) }));
    const { checks, mail } = await wired();
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    app.clock.advance(20_000);
    mail.kick();
    await mail.idle();
    release();
    await checks.idle();
    await mail.idle();
    expect(app.db.prepare('SELECT kind, sent_at IS NOT NULL AS sent FROM mail_outbox ORDER BY id').all()).toEqual([{ kind: 'audit', sent: 1 }, { kind: 'site-check', sent: 1 }]);
    const erased = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'erase.js'), '--email', validAudit.email], {
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: app.config.databasePath },
      encoding: 'utf8',
    });
    expect(erased.stdout).toContain('outbox mails:     2 (0 not yet sent)');
    expect(countRows(app.db, 'mail_outbox')).toBe(0);
  });

  it('a failed check says why in one line, in the lead\'s mail', async () => {
    const { checks, mail } = await wired();
    await submit({ ...validAudit, website_url: 'http://10.20.30.40/' });
    await checks.idle();
    await mail.idle();
    expect(decodeQuotedPrintable(smtp.received[0]?.raw ?? '')).toContain('AI-readiness of http://10.20.30.40/: not checked, 10.20.30.40 is a private network address, which the checker never fetches');
  });

  it('an address checked in the last hour is not fetched again: its result is reused, under the new request\'s own address', async () => {
    const site = await fixture(wellMadeSite);
    const { checks } = await wired(0);
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    await checks.idle();
    const fetched = site.requests.length;
    // The same address, typed otherwise.
    const typed = `HTTP://127.0.0.1:${site.port}#top`;
    await submit({ ...validAudit, email: 'second@example.co.uk', website_url: typed });
    await checks.idle();
    expect(site.requests).toHaveLength(fetched);
    expect(app.db.prepare('SELECT score, reused_from FROM site_checks ORDER BY id').all()).toEqual([{ score: 95, reused_from: null }, { score: 95, reused_from: 1 }]);
    const copy = JSON.parse(String(app.db.prepare('SELECT report FROM site_checks WHERE id = 2').pluck().get())) as { url: string };
    expect(copy.url).toBe(typed);
    // Another page of the same site is another address: checked on its own.
    await submit({ ...validAudit, email: 'third@example.co.uk', website_url: `${site.origin}/services` });
    await checks.idle();
    expect(site.requests.length).toBeGreaterThan(fetched);
    const afterOtherPage = site.requests.length;
    app.clock.advance(60 * 60 * 1000 + 1);
    await submit({ ...validAudit, email: 'fourth@example.co.uk', website_url: `${site.origin}/` });
    await checks.idle();
    expect(site.requests.length).toBeGreaterThan(afterOtherPage);
  });

  it('erasing the first request leaves nothing of it in the copies of its result', async () => {
    const site = await fixture(wellMadeSite);
    const { checks } = await wired(0);
    const firstUrl = `${site.origin}/?ref=first-person-campaign`;
    await submit({ ...validAudit, email: 'first@example.co.uk', website_url: firstUrl });
    await checks.idle();
    await submit({ ...validAudit, email: 'second@example.co.uk', website_url: `${site.origin}/?ref=first-person-campaign#x` });
    await checks.idle();
    expect(app.db.prepare('SELECT reused_from FROM site_checks WHERE id = 2').pluck().get()).toBe(1);
    const erased = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'erase.js'), '--email', 'first@example.co.uk'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: app.config.databasePath },
      encoding: 'utf8',
    });
    expect(erased.status).toBe(0);
    const left = app.db.prepare('SELECT * FROM site_checks').all() as Record<string, unknown>[];
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ reused_from: null, url: `${site.origin}/?ref=first-person-campaign#x` });
    expect(JSON.stringify(left)).not.toContain('first@example.co.uk');
    expect(JSON.parse(String(left[0]?.report)).url).toBe(`${site.origin}/?ref=first-person-campaign#x`);
  });

  it('pending checks survive a restart, and a few run at once at most', async () => {
    const sitesUp = await Promise.all([1, 2, 3, 4, 5].map(() => fixture(wellMadeSite)));
    // Queued with no worker running, as if the process had stopped.
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    smtp = await startSmtpServer();
    for (const [index, site] of sitesUp.entries()) await submit({ ...validAudit, email: `p${index}@example.co.uk`, website_url: `${site.origin}/` });
    app.db.prepare(`UPDATE site_checks SET status = 'running', attempts = 1 WHERE id = 1`).run();
    expect(countRows(app.db, 'site_checks')).toBe(5);
    let running = 0;
    let most = 0;
    const base = checker();
    const counting: SiteChecker = { userAgent: base.userAgent, check: async (url) => { running += 1; most = Math.max(most, running); try { return await base.check(url); } finally { running -= 1; } } };
    const restarted = new SiteCheckWorker({ db: app.db, checker: counting, logger, clock: app.clock, deliver: siteCheckDelivery(new LeadStore(app.db), app.config, app.clock) });
    restarted.start();
    await restarted.idle();
    expect(app.db.prepare(`SELECT status, count(*) AS n FROM site_checks GROUP BY status`).all()).toEqual([{ status: 'done', n: 5 }]);
    expect(most).toBe(3);
  });

  it('the second mail keeps to the daily cap and to each sender\'s turn', async () => {
    const site = await fixture(wellMadeSite);
    smtp = await startSmtpServer();
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    const lead = new LeadStore(app.db);
    // A prospect's lead mail already went; their check's mail follows. Meanwhile two new leads arrive.
    await submit({ ...validAudit, email: 'first@example.co.uk', website_url: `${site.origin}/` });
    const early = app.outboxWorker(smtpTransport(smtp.url), { logger });
    early.kick();
    await early.idle();
    await submit({ ...validAudit, email: 'second@example.co.uk', website_url: '' });
    await submit({ ...validAudit, email: 'third@example.co.uk', website_url: '' });
    const worker = new SiteCheckWorker({ db: app.db, checker: checker(), logger, clock: app.clock, deliver: siteCheckDelivery(lead, app.config, app.clock) });
    worker.start();
    await worker.idle();
    const capped = app.outboxWorker(smtpTransport(smtp.url), { logger, dailyCap: 3 });
    capped.kick();
    await capped.idle();
    // The two new leads first (a lead's notification before a check's findings), then the cap.
    expect(smtp.received.map((mail) => /Reply-To: .*<([^>]+)>/.exec(mail.raw)?.[1])).toEqual(['first@example.co.uk', 'third@example.co.uk', 'second@example.co.uk']);
    expect(app.db.prepare(`SELECT kind FROM mail_outbox WHERE sent_at IS NULL`).all()).toEqual([{ kind: 'site-check' }]);
  });

  it('a second request from one sender goes before a check\'s findings that wait at the same turn', async () => {
    const site = await fixture(wellMadeSite);
    smtp = await startSmtpServer();
    app = createTestApp({ siteChecks: { kick: () => undefined, mailWaitMs: 0 } });
    await submit({ ...validAudit, email: 'first@example.co.uk', website_url: `${site.origin}/` });
    await submit({ ...validAudit, email: 'second@example.co.uk', website_url: '' });
    const early = app.outboxWorker(smtpTransport(smtp.url), { logger });
    early.kick();
    await early.idle();
    // Each sender's second mail of the day: second@'s next request, then first@'s findings, queued after it.
    await submit({ ...validAudit, email: 'second@example.co.uk', website_url: '' });
    const worker = new SiteCheckWorker({ db: app.db, checker: checker(), logger, clock: app.clock, deliver: siteCheckDelivery(new LeadStore(app.db), app.config, app.clock) });
    worker.start();
    await worker.idle();
    const capped = app.outboxWorker(smtpTransport(smtp.url), { logger, dailyCap: 3 });
    capped.kick();
    await capped.idle();
    // Room for one more mail today: the request, not the findings, though the findings are newer.
    expect(smtp.received.map((mail) => /Reply-To: .*<([^>]+)>/.exec(mail.raw)?.[1])).toEqual(['second@example.co.uk', 'first@example.co.uk', 'second@example.co.uk']);
    expect(app.db.prepare(`SELECT kind, source_id FROM mail_outbox WHERE sent_at IS NULL`).all()).toEqual([{ kind: 'site-check', source_id: 1 }]);
  });

  it('erasing the person removes the check with the request; the CSV shows score and summary', async () => {
    const site = await fixture(wellMadeSite);
    const { checks } = await wired(0);
    await submit({ ...validAudit, website_url: `${site.origin}/` });
    await checks.idle();
    const run = (script: string, args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', `${script}.js`), ...args], { env: { PATH: process.env.PATH ?? '', DATABASE_PATH: app.config.databasePath }, encoding: 'utf8' });
    const csv = run('export-csv', ['--no-bom']);
    expect(csv.stdout.split('\r\n')[0]).toContain('"site_check_score","site_check_summary"');
    expect(csv.stdout).toContain('"95","95/100; to fix: Served over HTTPS"');
    const erased = run('erase', ['--email', validAudit.email]);
    expect(erased.stdout).toContain('site checks:      1');
    expect(countRows(app.db, 'site_checks')).toBe(0);
  });
});

describe('the visibility probe on the thank-you page', () => {
  /** Two assistants configured (their APIs are never called here: no probe worker runs). */
  const PROBES_ON = { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1' };
  const TITLE = 'What AI assistants say when asked about payroll bureau Bristol';
  const BRAND = 'Shah Payroll';
  const BUSINESS = { brand: BRAND, domain: 'shahpayroll.example' };
  let app: TestApp;
  afterEach(() => app?.close());

  /** An audit request posted without JavaScript: the thank-you link it is sent to, and its probe's row id. */
  async function requested(env: Record<string, string> = PROBES_ON): Promise<{ thankYou: string; probeId: number | undefined }> {
    app = createTestApp({ env });
    const { agent, hidden } = await openForm(app.app, '/free-audit');
    const response = await agent.post('/free-audit').type('form').send({ ...validAudit, ...hidden }).expect(303);
    const probeId = app.db.prepare('SELECT id FROM visibility_probes').pluck().get() as number | undefined;
    return { thankYou: response.headers.location as string, probeId };
  }

  const answer = (prompt: string, text: string) => probeAnswer(BUSINESS, prompt, text);
  const report = (assistants: Parameters<typeof doneReport>[1]) => doneReport(BUSINESS, assistants);

  /** The page as a visitor reads it: the probe's panel, found by its heading. */
  async function probePanel(thankYou: string) {
    const page = await request(app.app).get(thankYou).expect(200);
    const main = parse(page.text).querySelector('main');
    const panel = main?.querySelector('section[aria-labelledby="probe-title"]');
    return { page, main, panel };
  }

  it('while it runs: below the site check, a heading, a line in a live region, and the line to reload the page (the other line waits for the script)', async () => {
    const { thankYou } = await requested();
    const { main, panel } = await probePanel(thankYou);
    // Headings in order: the page's h1, the site check's h2, then the probe's h2.
    expect(main?.querySelectorAll('h1, h2').map((heading) => heading.text.trim()).slice(0, 3)).toEqual([
      'Thank You for Your Submission!',
      `While we prepare your full audit: what AI crawlers see on www.shahpayroll.example`,
      TITLE,
    ]);
    expect(panel?.querySelector('h2#probe-title')?.text).toBe(TITLE);
    expect(panel?.querySelector('[role="status"]')?.text).toBe('We\'re asking AI assistants the questions your customers would ask them, right now.');
    const lines = panel?.querySelectorAll('p:not([role="status"] p)') ?? [];
    const shown = lines.filter((line) => !line.hasAttribute('hidden')).map((line) => line.text);
    const hidden = lines.filter((line) => line.hasAttribute('hidden')).map((line) => line.text);
    expect(shown).toEqual(['Reload this page in a few minutes to see their answers.']);
    expect(hidden).toEqual(['Their answers appear here as soon as they\'re in, usually within a few minutes.']);
    // The page's script asks the same status path for both.
    const status = await request(app.app).get(thankYou.replace('/thank-you', '/site-check/status')).expect(200);
    expect(status.body).toMatchObject({ siteCheck: { status: 'pending' }, probe: { status: 'pending', keyword: 'payroll bureau Bristol' } });
  });

  it('done: each assistant\'s count, who it named instead, one answer as inert text, and why one stopped', async () => {
    const { thankYou, probeId } = await requested();
    const hostile =
      `Try <a href="https://evil.example/win">${BRAND}</a> or [Pipe Pros](https://evil.example/survey) ` +
      '<script>alert("owned")</script><img src=x onerror="alert(1)"> **Bristol Payroll Co** is good too.';
    const chatgpt = part('chatgpt', [answer('Who is the best payroll bureau Bristol for owners of firms with 5-50 employees?', hostile), answer('Who would you recommend for Payroll?', '1. **Bristol Payroll Co** – fast.\n2. **PIPE PROS** – cheap.')]);
    new ProbeStore(app.db).finish(probeId ?? 0, report([chatgpt, part('claude', [], 'key rejected')]), app.clock());

    const { page, panel } = await probePanel(thankYou);
    expect(panel?.querySelector('h2')?.text).toBe(TITLE);
    expect(panel?.querySelector('[role="status"]')?.text).toBe('ChatGPT named your business in 1 of 2 answers.');
    const [first, second] = panel?.querySelectorAll('li') ?? [];
    expect(first?.querySelector('h3')?.text).toBe('ChatGPT');
    expect(first?.text).toContain('Named you in 1 of 2 answers');
    // "Pipe Pros" and "PIPE PROS" are one business, named in both answers, as the agency's report counts it.
    expect(first?.text).toContain('Named instead: Pipe Pros, Bristol Payroll Co');
    expect(first?.querySelector('dl')?.querySelectorAll('dt').map((term) => term.text)).toEqual(['We asked', 'It answered']);
    expect(first?.querySelector('dd')?.text).toBe('Who is the best payroll bureau Bristol for owners of firms with 5-50 employees?');
    // The answer's markup and links are its words, shown as written: nothing in it is an element.
    const quoted = first?.querySelector('blockquote');
    expect(quoted?.text).toBe(hostile);
    expect(quoted?.childNodes.every((node) => node.nodeType === 3)).toBe(true);
    expect(panel?.querySelectorAll('a, script, img')).toHaveLength(0);
    expect(page.text).not.toContain('<a href="https://evil.example');
    expect(page.text).not.toContain('<script>alert');
    expect(second?.querySelector('h3')?.text).toBe('Claude');
    expect(second?.text).toContain('It gave no answer this time.');
    // Why (a key the provider refused) is the agency's business: its mail says it, the page does not.
    expect(second?.text).not.toContain('key rejected');
    expect(panel?.text).toContain('A few answers are a first look, not a verdict');
  });

  it('not run: a sentence, with the reason when it is about the request; every assistant refusing its key reads the same way', async () => {
    const { thankYou, probeId } = await requested();
    const store = new ProbeStore(app.db);
    store.fail(probeId ?? 0, 'the probe was interrupted 3 times, so it was given up', app.clock());
    let { panel } = await probePanel(thankYou);
    expect(panel?.querySelector('h2')?.text).toBe(TITLE);
    // A reason on the agency's side (a restart, a call limit, a key) is not the prospect's to read.
    expect(panel?.querySelector('[role="status"]')?.text).toBe('We couldn\'t ask the AI assistants this time. Our team will put your questions to them by hand for your full audit.');

    store.finish(probeId ?? 0, { ...report([]), status: 'skipped', reason: 'nothing to ask: the request gives no keywords, products or customer to make a question of' }, app.clock());
    ({ panel } = await probePanel(thankYou));
    expect(panel?.querySelector('[role="status"]')?.text).toBe(
      'We couldn\'t ask the AI assistants this time: your request gave no keywords, products or customers to ask about. Our team will put your questions to them by hand for your full audit.',
    );
    expect(panel?.querySelectorAll('li')).toHaveLength(0);

    store.finish(probeId ?? 0, report([part('chatgpt', [], 'key rejected'), part('claude', [], 'key rejected')]), app.clock());
    ({ panel } = await probePanel(thankYou));
    expect(panel?.querySelector('[role="status"]')?.text).toBe('We couldn\'t ask the AI assistants this time. Our team will put your questions to them by hand for your full audit.');
    expect(panel?.querySelectorAll('li').map((item) => item.text)).toEqual([expect.stringContaining('It gave no answer this time.'), expect.stringContaining('It gave no answer this time.')]);
    expect(panel?.text).not.toContain('Named you in');
  });

  it('each poll reads what the page shows, stored when the probe is recorded, not the report; a probe recorded before that is shown from its report', async () => {
    const { thankYou, probeId } = await requested();
    const chatgpt = part('chatgpt', [answer('Who would you recommend for Payroll?', `1. **Bristol Payroll Co** – fast.\n2. **${BRAND}** – friendly.`), answer('Who is best?', '**bristol payroll co.** again.')]);
    new ProbeStore(app.db).finish(probeId ?? 0, report([chatgpt]), app.clock());
    const status = () => request(app.app).get(thankYou.replace('/thank-you', '/site-check/status')).expect(200);
    const shown = (await status()).body.probe as unknown;
    expect(shown).toMatchObject({ status: 'done', keyword: 'payroll bureau Bristol', assistants: [{ name: 'ChatGPT', answered: 2, named: 1, others: expect.arrayContaining(['Bristol Payroll Co']) }] });
    // Ops find it beside the report, a fraction of its size; the poll answers from it alone.
    const stored = app.db.prepare('SELECT length(view) AS view, length(report) AS report FROM visibility_probes').get() as { view: number; report: number };
    expect(stored.view).toBeLessThan(stored.report);
    app.db.prepare(`UPDATE visibility_probes SET report = '{}'`).run();
    expect((await status()).body.probe).toEqual(shown);

    // Recorded by a release that stored no view: the page still shows it, made from the report.
    app.db.prepare('UPDATE visibility_probes SET view = NULL, report = ?').run(JSON.stringify(report([chatgpt])));
    expect((await status()).body.probe).toEqual(shown);
  });

  it('shows nothing of a probe while no assistant is configured', async () => {
    const { thankYou, probeId } = await requested({});
    expect(probeId).toBeUndefined();
    const { main, panel } = await probePanel(thankYou);
    expect(main?.text).toContain('While we prepare your full audit');
    expect(panel).toBeNull();
    expect(main?.text).not.toContain('What AI assistants say');
  });
});
