import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Request } from 'playwright-core';
import { auditReportUrl } from '../../server/reports/private-addresses';
import { newCheckToken } from '../../server/site-check/check-store';
import { handWrittenAudit } from '../fixtures/hand-written-audit';
import { violations } from '../helpers/axe';
import { watchConsole } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared-site';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * The free audit's report in Chromium, as the prospect opens it from the agency's mail and as
 * "Save as PDF" prints it: accessible at a desktop and a phone width, no script fetched or run,
 * and printed as A4 pages without the site's navigation, a page per section, links written out.
 * The app is the real one over a temporary database, serving a known report from memory.
 */

const TOKEN = newCheckToken();
let app: TestApp;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  app = createTestApp({ auditReports: new Map([[TOKEN, handWrittenAudit()]]) });
  server = app.app.listen(0, '127.0.0.1');
  [browser] = await Promise.all([sharedBrowser(), once(server, 'listening')]);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  server?.close();
  app?.close();
});

const report = () => auditReportUrl(origin, TOKEN);
const beingWritten = () => auditReportUrl(origin, newCheckToken());

describe('the audit report in a browser', () => {
  it.each([1280, 375])('at %i px axe finds nothing on the report or on the page being written', async (width) => {
    // axe is injected as a script, which the page's CSP refuses: this context bypasses it.
    const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
    for (const url of [report(), beingWritten()]) {
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
    // Each chart is drawn, and scaled to the phone's width.
    const charts = await page.locator('svg[role="img"]').evaluateAll((svgs) => svgs.map((svg) => svg.getBoundingClientRect().width));
    expect(charts).toHaveLength(3);
    for (const width of charts) expect(width).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('printed: A4 with margins, no navigation, a page per section, figures kept whole, links written out', async () => {
    const page = await browser.newPage();
    await page.goto(report());
    await page.emulateMedia({ media: 'print' });
    for (const hidden of [page.locator('header'), page.locator('footer'), page.getByRole('navigation', { name: 'Contents' }), page.getByRole('link', { name: 'Skip to content' })]) {
      expect(await hidden.isVisible()).toBe(false);
    }
    expect(await page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    const printed = await page.evaluate(() => {
      const pageRules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules]).filter((rule): rule is CSSPageRule => rule instanceof CSSPageRule);
      const after = (link: Element) => getComputedStyle(link, '::after').content;
      return {
        pageSizes: pageRules.map((rule) => rule.style.getPropertyValue('size')),
        pageMargins: pageRules.map((rule) => rule.style.getPropertyValue('margin')),
        breaks: [...document.querySelectorAll('main section')].map((section) => getComputedStyle(section).breakBefore),
        figures: [...document.querySelectorAll('main figure')].map((figure) => getComputedStyle(figure).breakInside),
        rows: [...document.querySelectorAll('main tr')].every((row) => getComputedStyle(row).breakInside === 'avoid'),
        outward: [...document.querySelectorAll('main a[href^="http"]')].map((link) => [link.getAttribute('href'), after(link)]),
        inward: [...new Set([...document.querySelectorAll('main a[href^="#"]')].map(after))],
      };
    });
    expect(printed.pageSizes.map((size) => size.toUpperCase())).toEqual(['A4']);
    expect(printed.pageMargins[0]).toMatch(/mm/);
    expect(printed.breaks).toEqual(['auto', 'page', 'page', 'page', 'page', 'page', 'page', 'page']);
    expect(printed.figures).toEqual(['avoid', 'avoid', 'avoid']);
    expect(printed.rows).toBe(true);
    // The links out (the agency's site, its booking page) are written out; links within the report are not.
    expect(printed.outward.length).toBeGreaterThanOrEqual(2);
    for (const [href, after] of printed.outward) expect(after).toBe(`" (${href})"`);
    expect(printed.inward).toEqual(['none']);

    // What "Save as PDF" makes: A4 pages (595 x 842 points), at least one per section.
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
    const sizes = new Set([...pdf.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((match) => `${Math.round(Number(match[1]))}x${Math.round(Number(match[2]))}`));
    expect([...sizes]).toEqual(['595x842']);
    expect(pdf.match(/\/Type \/Page\b(?!s)/g)?.length).toBeGreaterThanOrEqual(8);
    await page.close();
  });
});
