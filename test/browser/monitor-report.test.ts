import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Request } from 'playwright-core';
import { MONITOR_REPORT_PATH } from '../../server/reports/private-addresses';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import { newCheckToken } from '../../server/site-check/check-store';
import { trendDocument } from '../fixtures/trend-document';
import { violations } from '../helpers/axe';
import { watchConsole } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared-site';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * A client's monitoring report in Chromium, as the client opens it from a mail and as "Save as
 * PDF" prints it: accessible at a desktop and a phone width, no script fetched or run, nothing
 * scrolling sideways on a phone, printed as A4; what the assistants say run by run, an answer's
 * markup shown as its words. The app is the real one over a temporary database, serving the trend
 * of three composed runs from memory.
 */

/** What an assistant may write into its answer, quoted back in the report. */
const HOSTILE = '<img src=x onerror=alert(1)>';

/** The trend with the words of the fact put right carrying markup. */
function trendWithMarkup(): TrendDocument {
  const document = structuredClone(trendDocument);
  const fact = document.said?.putRight[0];
  if (!fact) throw new Error('the fixture puts nothing right');
  fact.says = `You can reach **Acme Plumbing Ltd** ${HOSTILE} on 0113 496 0000.`;
  return document;
}

const TOKEN = newCheckToken();
const MARKUP = newCheckToken();
let app: TestApp;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  app = createTestApp({
    monitorReports: new Map([
      [TOKEN, trendDocument],
      [MARKUP, trendWithMarkup()],
    ]),
  });
  server = app.app.listen(0, '127.0.0.1');
  [browser] = await Promise.all([sharedBrowser(), once(server, 'listening')]);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  server?.close();
  app?.close();
});

const report = () => `${origin}${MONITOR_REPORT_PATH}/${TOKEN}`;
const withMarkup = () => `${origin}${MONITOR_REPORT_PATH}/${MARKUP}`;
const notMadeYet = () => `${origin}${MONITOR_REPORT_PATH}/${newCheckToken()}`;

describe('the monitoring report in a browser', () => {
  it.each([1280, 375])('at %i px axe finds nothing on the report or on the page of no run yet', async (width) => {
    // axe is injected as a script, which the page's CSP refuses: this context bypasses it.
    const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
    for (const url of [report(), withMarkup(), notMadeYet()]) {
      const page = await context.newPage();
      await page.goto(url);
      expect({ url, width, violations: await violations(page) }).toEqual({ url, width, violations: [] });
      await page.close();
    }
    await context.close();
  });

  it('with its CSP enforced: only the document is fetched, nothing is logged, and at 375 px nothing scrolls sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    const consoleRecords = watchConsole(page);
    const fetched: Request[] = [];
    page.on('request', (request) => fetched.push(request));
    await page.goto(report(), { waitUntil: 'networkidle' });
    expect(fetched.filter((request) => request.resourceType() !== 'document' && !request.url().endsWith('/favicon.svg')).map((request) => request.url())).toEqual([]);
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    expect(consoleRecords).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The two line charts and the latest run's three bar charts, each scaled to the phone's width.
    const charts = await page.locator('svg[role="img"]').evaluateAll((svgs) => svgs.map((svg) => svg.getBoundingClientRect().width));
    expect(charts).toHaveLength(5);
    for (const width of charts) expect(width).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('shows what the assistants say run by run after the visibility trend: wrong facts and tone, put right, still wrong, new; markup as words', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(withMarkup());
    const ids = await page.locator('main section').evaluateAll((sections) => sections.map((section) => section.id));
    expect(ids.slice(0, 4)).toEqual(['changes', 'visibility-trend', 'said-trend', 'share-trend']);
    expect(await page.getByRole('navigation', { name: 'Contents' }).getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
      '#changes',
      '#visibility-trend',
      '#said-trend',
      '#share-trend',
      '#competitor-changes',
      '#question-changes',
      '#latest-run',
    ]);
    const section = page.getByRole('region', { name: 'What the assistants say about you, run by run' });
    const rows = (name: string) =>
      section.getByRole('table', { name }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => (cell as HTMLElement).innerText)));
    // A row per run; the first run was made before what they say was kept.
    expect(await rows('Wrong facts and tone in each run')).toEqual([
      ['20 Sept 2026', 'not checked in this run', 'not checked in this run'],
      ['20 Oct 2026', '2', '2 positive, 3 neutral and 1 mixed, of 6 read closely'],
      ['20 Nov 2026', '2', '2 positive, 3 neutral and 1 negative, of 6 read closely'],
    ]);
    // ChatGPT's wrong number of the run before, put right, beside the site's; its markup as words.
    expect(await section.getByRole('table', { name: 'Put right since the run before' }).locator('thead th').allInnerTexts()).toEqual(['Assistant', 'Fact', 'What it said the run before', 'Your website says']);
    expect(await rows('Put right since the run before')).toEqual([['ChatGPT', 'Phone number', `You can reach Acme Plumbing Ltd ${HOSTILE} on 0113 496 0000.`, '+44 113 496 0001']]);
    expect(await rows('Still wrong')).toEqual([['Claude', 'Where you are', 'Acme Plumbing Ltd is a plumbing and heating firm based in Harrogate, serving North Yorkshire.', 'Acme Plumbing Ltd: family-run plumbing and heating engineers in Leeds since 1998.']]);
    expect(await rows('New this run')).toEqual([['Perplexity', 'Whether you are open', 'Acme Plumbing Ltd appears to have permanently closed [1].', 'Nothing of the kind: your website is up and trading']]);
    expect(await page.locator('main img').count()).toBe(0);
    expect(alerts).toEqual([]);
    await page.close();
  });

  it('printed: A4, no navigation, a page per section, figures kept whole', async () => {
    const page = await browser.newPage();
    await page.goto(report());
    await page.emulateMedia({ media: 'print' });
    for (const hidden of [page.locator('header'), page.locator('footer'), page.getByRole('navigation', { name: 'Contents' })]) {
      expect(await hidden.isVisible()).toBe(false);
    }
    const printed = await page.evaluate(() => ({
      breaks: [...document.querySelectorAll('main section')].map((section) => [section.id, getComputedStyle(section).breakBefore]),
      figures: [...document.querySelectorAll('main figure')].map((figure) => getComputedStyle(figure).breakInside),
    }));
    // The trend's sections each start a page; the latest run's heading runs on into its summary.
    expect(printed.breaks.filter(([, value]) => value === 'page').map(([id]) => id)).toEqual([
      'visibility-trend',
      'said-trend',
      'share-trend',
      'competitor-changes',
      'question-changes',
      'visibility',
      'said',
      'competitors',
      'keywords',
      'recommendations',
      'plan',
      'readiness',
      'about',
    ]);
    expect(new Set(printed.figures)).toEqual(new Set(['avoid']));
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
    const sizes = new Set([...pdf.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((match) => `${Math.round(Number(match[1]))}x${Math.round(Number(match[2]))}`));
    expect([...sizes]).toEqual(['595x842']);
    await page.close();
  });
});
