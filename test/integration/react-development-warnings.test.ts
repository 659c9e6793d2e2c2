import { format } from 'node:util';
import request from 'supertest';
import { newCheckToken, SiteCheckStore } from '../../server/site-check/check-store';
import { auditDocument } from '../fixtures/audit-document';
import { handWrittenAudit } from '../fixtures/hand-written-audit';
import { trendDocument } from '../fixtures/trend-document';
import { checkedSite } from '../helpers/audit-inputs';
import { openForm } from '../helpers/forms';
import type { TestApp } from '../helpers/test-app';

/*
 * Every page, rendered by React's development build, draws no warning from it. The server and
 * the other tests run React's production build (test/helpers/production-libraries.ts), which
 * skips the checks the development build makes of every element: a list without keys, an
 * attribute the DOM does not know, a value without its change handler. This file alone loads the
 * development build, renders every kind of page with it and fails on anything it says.
 *
 * What loads React (the app, React itself) is imported after NODE_ENV is set, which each module
 * reads once when it loads: hence the dynamic imports. The first test fails if anything above
 * loaded React before.
 */

jest.setTimeout(60_000);

let app: TestApp;
let said: string[] = [];
/** The report pages' addresses: two audits (one written by hand, one as a run composes it) and a client's page after three runs. */
const reportPaths: string[] = [];

beforeAll(async () => {
  process.env.NODE_ENV = 'development';
  const { createTestApp } = await import('../helpers/test-app');
  const [handWritten, composed, threeRuns, unknown] = [newCheckToken(), newCheckToken(), newCheckToken(), newCheckToken()];
  app = createTestApp({
    auditReports: new Map([
      [handWritten, handWrittenAudit()],
      [composed, auditDocument],
    ]),
    monitorReports: new Map([[threeRuns, trendDocument]]),
  });
  reportPaths.push(`/audit/${handWritten}`, `/audit/${composed}`, `/audit/${unknown}`, `/monitor/${threeRuns}`, `/monitor/${unknown}`);
});
afterAll(() => app?.close());

beforeEach(() => {
  said = [];
  const record = (...parts: unknown[]) => said.push(format(...parts));
  jest.spyOn(console, 'error').mockImplementation(record);
  jest.spyOn(console, 'warn').mockImplementation(record);
});
afterEach(() => jest.restoreAllMocks());

it('is the development build here: a list without keys is told', async () => {
  const { createElement } = await import('react');
  const { renderToString } = await import('react-dom/server');
  renderToString(createElement('ul', null, [1, 2].map((n) => createElement('li', null, n))));
  expect(said.join('\n')).toContain('unique "key" prop');
});

it('every shared page and the not-found page', async () => {
  await app.app.warmPages();
  expect(said).toEqual([]);
});

it('each form page as first shown, and given back with every field in error', async () => {
  for (const path of ['/free-audit', '/contact', '/ai-readiness-check']) {
    const form = await openForm(app.app, path);
    expect(form.page.status).toBe(200);
    const refused = await form.agent.post(path).type('form').send(form.hidden);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('aria-invalid="true"');
  }
  expect(said).toEqual([]);
});

it('the readiness check\'s result while it runs and when it is done', async () => {
  const store = new SiteCheckStore(app.db);
  const token = newCheckToken();
  const id = store.enqueue(null, 'https://www.okaforplumbing.co.uk/', token, app.clock());
  const result = `/ai-readiness-check/result?check=${token}`;
  expect((await request(app.app).get(result)).text).toContain('okaforplumbing.co.uk');
  store.finish(id, checkedSite(), app.clock());
  expect((await request(app.app).get(result)).text).toContain('AI-readiness score');
  expect(said).toEqual([]);
});

it('the audit report and the monitoring page, and each still being written', async () => {
  for (const path of reportPaths) expect((await request(app.app).get(path)).status).toBe(200);
  expect(said).toEqual([]);
});
