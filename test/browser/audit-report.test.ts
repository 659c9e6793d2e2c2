import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Request } from 'playwright-core';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import { auditReportUrl } from '../../server/reports/private-addresses';
import { newCheckToken } from '../../server/site-check/check-store';
import { auditDocument } from '../fixtures/audit-document';
import { handWrittenAudit } from '../fixtures/hand-written-audit';
import { violations } from '../helpers/axe';
import { watchConsole } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared-site';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * The free audit's report in Chromium, as the prospect opens it from the agency's mail and as
 * "Save as PDF" prints it: accessible at a desktop and a phone width, no script fetched or run,
 * and printed as A4 pages without the site's navigation, sections running on, links written out
 * (what the printed PDF holds, page by page: audit-report-print.test.ts); and what the assistants
 * say about the business, as a run composes it, with an answer's markup shown as its words.
 * The app is the real one over a temporary database, serving known reports from memory.
 */

/** What an assistant may write into its answer, quoted back in the report. */
const HOSTILE = '<img src=x onerror=alert(1)>';

/**
 * The report a run composes (test/fixtures/audit-document.ts), Claude's description of the
 * business and a wrong fact's words carrying markup, and Gemini's wrong website named as a rival's.
 */
function composedWithMarkup(): AuditDocument {
  const document = structuredClone(auditDocument);
  const [chatgpt, claude, gemini] = document.said?.assistants ?? [];
  if (!chatgpt || !claude || !gemini) throw new Error('the fixture says nothing about the business');
  claude.describes = `Acme Plumbing Ltd ${HOSTILE} is based in Harrogate.`;
  chatgpt.wrong.push({ kind: 'email', said: 'info@acme.example', says: `Write to **info@acme.example** ${HOSTILE} for a quote.`, siteSays: 'hello@acmeplumbing.co.uk', whose: null, by: 'compared' });
  for (const fact of gemini.wrong) fact.whose = 'Pipe Pros Leeds';
  return document;
}

const TOKEN = newCheckToken();
const COMPOSED = newCheckToken();
let app: TestApp;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  app = createTestApp({
    auditReports: new Map([
      [TOKEN, handWrittenAudit()],
      [COMPOSED, composedWithMarkup()],
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

const report = () => auditReportUrl(origin, TOKEN);
const composed = () => auditReportUrl(origin, COMPOSED);
const beingWritten = () => auditReportUrl(origin, newCheckToken());

describe('the audit report in a browser', () => {
  it.each([1280, 375])('at %i px axe finds nothing on the report, one with what the assistants say, or the page being written', async (width) => {
    // axe is injected as a script, which the page's CSP refuses: this context bypasses it.
    const context = await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true });
    for (const url of [report(), composed(), beingWritten()]) {
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
    // What the assistants say too: long quotes and addresses wrap in their cards.
    await page.goto(composed(), { waitUntil: 'networkidle' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(consoleRecords).toEqual([]);
    await context.close();
  });

  it('shows what the assistants say right after the visibility section: each one\'s words, tone and wrong facts beside the site\'s, markup as words', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(composed());
    // In the report's order, and in its contents.
    expect(await page.locator('main section').evaluateAll((sections) => sections.map((section) => section.id))).toEqual(['summary', 'visibility', 'said', 'competitors', 'keywords', 'recommendations', 'plan', 'readiness', 'about']);
    const contents = page.getByRole('navigation', { name: 'Contents' }).getByRole('link');
    expect(await contents.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(['#summary', '#visibility', '#said', '#competitors', '#keywords', '#recommendations', '#plan', '#readiness', '#about']);
    const section = page.getByRole('region', { name: 'What the assistants say about you' });
    await expect(section.getByRole('heading', { level: 3 }).allInnerTexts()).resolves.toEqual(['ChatGPT', 'Claude', 'Gemini', 'Perplexity']);

    // Each assistant's own sentence, quoted; its tone; its wrong facts beside what the site says.
    const chatgpt = section.locator('[data-assistant="chatgpt"]');
    await expect(chatgpt.locator('blockquote').innerText()).resolves.toBe('Acme Plumbing Ltd is a well-reviewed, Gas Safe registered firm offering boiler servicing and emergency call-outs across Leeds.');
    await expect(chatgpt.innerText()).resolves.toContain('Positive in 2, neutral in 1, mixed in 0 and negative in 0 of the 3 answers we read closely, of its 21 about you.');
    const table = page.getByRole('table', { name: 'What ChatGPT gets wrong about you' });
    expect(await table.locator('thead th').allInnerTexts()).toEqual(['Fact', 'Your website says', 'ChatGPT says']);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((cell) => (cell as HTMLElement).innerText)));
    expect(rows).toEqual([
      // The assistant's words as it wrote them, Markdown's marks taken out, the wrong number in bold.
      ['Phone number', '+44 113 496 0001', 'You can reach Acme Plumbing Ltd on 0113 496 0000 or at hello@acmeplumbing.co.uk.'],
      ['E-mail address', 'hello@acmeplumbing.co.uk', `Write to info@acme.example ${HOSTILE} for a quote.`],
    ]);
    await expect(table.locator('tbody tr').first().locator('strong').innerText()).resolves.toBe('0113 496 0000');
    expect(await page.getByRole('table', { name: 'What Claude gets wrong about you' }).locator('tbody tr').first().innerText()).toContain('Harrogate');
    // A rival's website, said to be the business's: whose it is.
    expect(await page.getByRole('table', { name: 'What Gemini gets wrong about you' }).locator('tbody td').last().innerText()).toBe('Website: pipeprosleeds.co.uk (the website of Pipe Pros Leeds)');
    // An assistant saying the business has closed: the site says nothing of the kind.
    expect(await page.getByRole('table', { name: 'What Perplexity gets wrong about you' }).locator('tbody tr').first().innerText()).toContain('Nothing of the kind: your website is up and trading');
    await expect(section.innerText()).resolves.toContain('Tone and claims were read by gpt-5-nano-2025-08-07, up to 8 answers of each assistant.');

    // An answer's markup is its words: shown, never an element, never run.
    await expect(section.locator('[data-assistant="claude"] blockquote').innerText()).resolves.toBe(`Acme Plumbing Ltd ${HOSTILE} is based in Harrogate.`);
    expect(await page.locator('main img').count()).toBe(0);
    expect(alerts).toEqual([]);

    // The plan's "Where we measured it" lands on the section.
    await page.locator('#plan a[href="#said"]').first().click();
    expect(new URL(page.url()).hash).toBe('#said');
    // Scrolled to its top (less the page's scroll padding), not merely somewhere on the page.
    const offset = await section.evaluate((element) => element.getBoundingClientRect().top - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop || '0'));
    expect(Math.abs(offset)).toBeLessThan(2);
    await context.close();
  });

  it('printed: A4 with margins, no navigation, sections running on, figures kept whole, links written out', async () => {
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
    // No section forced onto a page of its own: that left the page before it nearly empty.
    expect(printed.breaks).toEqual(['auto', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto', 'auto']);
    expect(printed.figures).toEqual(['avoid', 'avoid', 'avoid']);
    expect(printed.rows).toBe(true);
    // The links out (the agency's site, its booking page) are written out; links within the report are not.
    expect(printed.outward.length).toBeGreaterThanOrEqual(2);
    for (const [href, after] of printed.outward) expect(after).toBe(`" (${href})"`);
    expect(printed.inward).toEqual(['none']);

    // What "Save as PDF" makes: A4 pages (595 x 842 points), as many as its words need.
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
    const sizes = new Set([...pdf.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((match) => `${Math.round(Number(match[1]))}x${Math.round(Number(match[2]))}`));
    expect([...sizes]).toEqual(['595x842']);
    expect(pdf.match(/\/Type \/Page\b(?!s)/g)?.length).toBeGreaterThanOrEqual(8);
    await page.close();
  });
});
