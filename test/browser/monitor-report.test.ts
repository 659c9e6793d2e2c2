import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Request } from 'playwright-core';
import { MONITOR_REPORT_PATH } from '../../server/reports/private-addresses';
import { newCheckToken } from '../../server/site-check/check-store';
import { trendDocument } from '../fixtures/trend-document';
import { violations } from '../helpers/axe';
import { watchConsole } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared-site';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * A client's monitoring report in Chromium, as the client opens it from a mail and as "Save as
 * PDF" prints it: accessible at a desktop and a phone width, no script fetched or run, nothing
 * scrolling sideways on a phone, printed as A4. The app is the real one over a temporary
 * database, serving the trend of three composed runs from memory.
 */

const TOKEN = newCheckToken();
let app: TestApp;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  app = createTestApp({ monitorReports: new Map([[TOKEN, trendDocument]]) });
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
const notMadeYet = () => `${origin}${MONITOR_REPORT_PATH}/${newCheckToken()}`;

describe('the monitoring report in a browser', () => {
  it.each([1280, 375])('at %i px axe finds nothing on the report or on the page of no run yet', async (width) => {
    // axe is injected as a script, which the page's CSP refuses: this context bypasses it.
    const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
    for (const url of [report(), notMadeYet()]) {
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
      'share-trend',
      'competitor-changes',
      'question-changes',
      'visibility',
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
