import request from 'supertest';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { routesPaths } from '../../shared/site';
import { SiteCheckStore } from '../../server/site-check/check-store';
import { createSiteChecker } from '../../server/site-check/site-checker';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { startSiteAt, wellMadeSite } from '../helpers/fixture-sites';
import { openForm, validAudit, validContact } from '../helpers/forms';
import { checkHtml } from '../helpers/html-checker';
import { assistantPart, doneReport, probeAnswer } from '../helpers/probe-reports';
import { createTestApp, withBrokenPage, type TestApp } from '../helpers/test-app';

/*
 * Every page the server sends is valid HTML by the W3C Nu checker, errors only: each route, the
 * not-found and server-error pages, and each form page as a visitor without JavaScript gets it
 * back after a refused post (field errors shown, typed values kept) or after sending.
 */

jest.setTimeout(120_000);

let testApp: TestApp;
let failing: TestApp;
/** With an assistant's key set: the audit form's note, and the thank-you page's probe. */
let probing: TestApp;
beforeAll(() => {
  testApp = createTestApp();
  failing = createTestApp({
    routes: withBrokenPage(appRoutes),
  });
  probing = createTestApp({ env: { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
});
afterAll(() => {
  testApp?.close();
  failing?.close();
  probing?.close();
});

/** A page fetched with the status the visitor gets; any other status fails here, not in vnu. */
async function page(send: () => Promise<request.Response>, status: number): Promise<string> {
  const response = await send();
  expect([response.status, response.headers['content-type']]).toEqual([status, expect.stringMatching(/^text\/html/)]);
  return response.text;
}

describe('the HTML checker', () => {
  it('finds the errors in a known-invalid page, so a run that checks nothing cannot pass', async () => {
    const invalid = [
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Invalid</title></head><body>',
      '<h2 id="twice">One</h2><h2 id="twice">Two</h2>',
      '<table><thead><tr role="row"><th>A</th></tr></thead><tbody><tr><td role="cell">1</td></tr></tbody></table>',
      '</body></html>',
    ].join('');
    const valid = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Valid</title></head><body><p>Fine.</p></body></html>';
    const errors = await checkHtml(new Map([['invalid', invalid], ['valid', valid]]));
    expect(errors.map((error) => error.document)).not.toContain('valid');
    expect(errors.filter((error) => error.document === 'invalid').map((error) => error.message).sort()).toEqual([
      'Duplicate ID “twice”.',
      expect.stringContaining('“role” attribute must not be used on a “td” element'),
      expect.stringContaining('“role” attribute must not be used on a “tr” element'),
    ]);
  });
});

describe('every page the server sends', () => {
  it('is valid HTML (W3C Nu checker, errors)', async () => {
    const documents = new Map<string, string>();
    for (const route of appRoutes.filter((candidate) => candidate.path !== NOT_FOUND_PATH)) {
      documents.set(route.path, await page(() => request(testApp.app).get(route.path), route.status ?? 200));
    }
    documents.set('/no-such-page (404)', await page(() => request(testApp.app).get('/no-such-page'), 404));
    documents.set('/broken (500)', await page(() => request(failing.app).get('/broken'), 500));

    const audit = await openForm(testApp.app, routesPaths.freeAudit);
    documents.set(
      `${routesPaths.freeAudit} with field errors (400)`,
      await page(
        () => audit.agent.post(routesPaths.freeAudit).type('form').send({ ...validAudit, name: '', email: 'not-an-email', website_url: 'javascript:alert(1)', main_goal: '', ...audit.hidden }),
        400,
      ),
    );
    const contact = await openForm(testApp.app, routesPaths.contact);
    documents.set(
      `${routesPaths.contact} with field errors (400)`,
      await page(() => contact.agent.post(routesPaths.contact).type('form').send({ ...validContact, firstName: '', email: 'nope', message: '', ...contact.hidden }), 400),
    );
    documents.set(`${routesPaths.contact}?sent=1`, await page(() => request(testApp.app).get(`${routesPaths.contact}?sent=1`), 200));

    // The thank-you page with the visitor's site check: running, done (a fixture site) and refused.
    const site = await startSiteAt(wellMadeSite);
    const { origin } = site;
    try {
      const checker = createSiteChecker({ brand: 'Citewise', siteUrl: testApp.config.siteUrl, allow: ['127.0.0.1'], agents: ['GPTBot', 'ClaudeBot'], clock: testApp.clock, priority: 'normal' });
      const store = new SiteCheckStore(testApp.db);
      const states = [
        ['running', validAudit.website_url, 'reload this page'],
        ['done', `${origin}/`, 'AI-readiness score'],
        ['refused', 'http://10.0.0.1/', 'a private network address'],
      ] as const;
      for (const [state, website, shown] of states) {
        const form = await openForm(testApp.app, routesPaths.freeAudit);
        const posted = await form.agent.post(routesPaths.freeAudit).type('form').send({ ...validAudit, email: `${state}@example.co.uk`, website_url: website, ...form.hidden });
        const row = store.claimNext();
        if (row && state !== 'running') store.finish(row.id, await checker.check(website), testApp.clock());
        const html = await page(() => request(testApp.app).get(posted.headers.location as string), 200);
        expect(html).toContain(shown);
        documents.set(`/thank-you with a site check ${state}`, html);
      }
    } finally {
      await site.close();
    }

    // The audit form with the probe's note, and the thank-you page with its probe: running, done
    // (an answer holding markup) and not run.
    documents.set(`${routesPaths.freeAudit} with the probe on`, await page(() => request(probing.app).get(routesPaths.freeAudit), 200));
    const probes = new ProbeStore(probing.db);
    const business = { brand: 'Shah Payroll', domain: 'shahpayroll.example' };
    const answer = probeAnswer(business, 'Who is the best payroll bureau Bristol?', '1. **Shah Payroll** <a href="https://evil.example/">x</a> <script>alert(1)</script>\n2. **Bristol Payroll Co**');
    for (const [state, shown] of [['running', 'Reload this page'], ['done', 'Named you in 1 of 1 answers'], ['not run', 'ask the AI assistants this time']] as const) {
      const form = await openForm(probing.app, routesPaths.freeAudit);
      const posted = await form.agent.post(routesPaths.freeAudit).type('form').send({ ...validAudit, email: `probe-${state.replace(' ', '-')}@example.co.uk`, ...form.hidden });
      const id = Number(probing.db.prepare('SELECT max(id) FROM visibility_probes').pluck().get());
      if (state === 'done') probes.finish(id, doneReport(business, [assistantPart('chatgpt', [answer]), assistantPart('claude', [], 'key rejected')]), probing.clock());
      if (state === 'not run') probes.fail(id, 'the probe could not run', probing.clock());
      const html = await page(() => request(probing.app).get(posted.headers.location as string), 200);
      expect(html).toContain(shown);
      documents.set(`/thank-you with a probe ${state}`, html);
    }

    // Every route, the 404 and 500 pages, two refused forms, the sent contact page, three site
    // checks, the audit form with the probe on, three probes.
    expect(documents.size).toBe(appRoutes.length - 1 + 5 + 3 + 1 + 3);
    const errors = await checkHtml(documents);
    // One line per error, so that a failure reads as a list of what to fix where.
    expect(errors.map((error) => `${error.document}:${error.line ?? '?'}: ${error.message} [${error.extract ?? ''}]`)).toEqual([]);
  });
});
