import type { Browser, BrowserContext, Page } from 'playwright-core';
import { routesPaths } from '../../shared/site';
import { everyPagePath, violations } from '../helpers/axe';
import { waitForHydration, walkingTab, type WalkingTab } from '../helpers/browser';
import { sharedBrowser, sharedSite } from '../helpers/shared-site';
import { serveUiKitFixture, type FixtureServer } from './fixtures/ui-kit-server';

/*
 * axe-core, with the WCAG 2.1 A and AA rules and its best practices, over every route at a
 * desktop and a phone width, and over the states a visitor can put a page in. axe is injected
 * as a script file, which our CSP would refuse: these contexts bypass the CSP (site.test.ts
 * checks the CSP itself on a normal context).
 */

/** A desktop, and a common phone (the site's narrowest layout applies below 640 px). */
const WIDTHS = [1280, 375] as const;
const PHONE = 375;

const server = sharedSite();
let fixture: FixtureServer;
let browser: Browser;
const contexts = new Map<number, BrowserContext>();

beforeAll(async () => {
  [fixture, browser] = await Promise.all([serveUiKitFixture(), sharedBrowser()]);
  for (const width of WIDTHS) contexts.set(width, await browser.newContext({ viewport: { width, height: 800 }, bypassCSP: true }));
});
afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

async function open(width: number, path: string): Promise<Page> {
  const context = contexts.get(width);
  if (!context) throw new Error(`no context for ${width}`);
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  await waitForHydration(page);
  return page;
}

describe('axe-core finds no violation of WCAG 2.1 A or AA or of its best practices', () => {
  // Every page at the desktop width; at the phone's in accessibility-phone.test.ts, which the
  // suite runs beside this one.
  let tab: WalkingTab;
  beforeAll(() => {
    const context = contexts.get(WIDTHS[0]);
    if (!context) throw new Error(`no context for ${WIDTHS[0]}`);
    tab = walkingTab(context);
  });
  afterAll(() => tab.close());
  it.each(everyPagePath)(`on %s at ${WIDTHS[0]} px`, async (path) => {
    const { page } = await tab.visit(`${server.url}${path}`);
    expect({ path, violations: await violations(page) }).toEqual({ path, violations: [] });
  });

  it(`with the mobile menu open at ${PHONE} px`, async () => {
    const page = await open(PHONE, '/');
    await page.locator('header button[aria-controls]').click();
    expect(await page.locator('header nav[aria-label="Mobile"]').isVisible()).toBe(true);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it.each(WIDTHS)('with an FAQ answer open at %i px', async (width) => {
    const page = await open(width, '/');
    const question = page.locator('#faq details > summary').first();
    await question.click();
    expect(await question.evaluate((summary) => (summary.parentElement as HTMLDetailsElement).open)).toBe(true);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  const formCases = WIDTHS.flatMap((width) => [routesPaths.freeAudit, routesPaths.contact].map((path) => [path, width] as const));

  it.each(formCases)('with the form on %s showing its field errors at %i px', async (path, width) => {
    const page = await open(width, path);
    const form = page.locator(`form[action="${path}"]`);
    // Values the browser's own validation lets through and the shared schema refuses: blank
    // answers and an address with no dot in its domain.
    for (const field of await form.locator('input[required], textarea[required]').all()) {
      await field.fill((await field.getAttribute('type')) === 'email' ? 'jane@example' : '   ');
    }
    await form.locator('button[type="submit"]').click();
    await form.locator('[aria-invalid="true"]').first().waitFor();
    await form.locator('[role="alert"]').first().waitFor();
    // Every failed submission also shows the error toast; the pointer on it holds it on screen
    // (its 4 s clock stops) while axe runs, so axe sees the whole state.
    const toast = page.locator('section[aria-label="Notifications alt+T"] li');
    await toast.hover();
    expect(await violations(page)).toEqual([]);
    expect(await toast.count()).toBe(1);
    await page.close();
  });

  it.each(WIDTHS)('with the error toast a failed audit submission shows at %i px', async (width) => {
    const page = await open(width, routesPaths.freeAudit);
    const form = page.locator(`form[action="${routesPaths.freeAudit}"]`);
    // The server is down for this one post: the site's own error toast appears.
    await page.route(`${server.url}${routesPaths.freeAudit}`, (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }) : route.continue(),
    );
    for (const field of await form.locator('input[required], textarea[required]').all()) {
      await field.fill((await field.getAttribute('type')) === 'email' ? 'jane@example.co.uk' : (await field.getAttribute('type')) === 'url' ? 'https://www.example.co.uk' : 'An answer');
    }
    await form.locator('button[type="submit"]').click();
    const toast = page.locator('section[aria-label="Notifications alt+T"] li');
    await toast.waitFor();
    expect(await toast.innerText()).toContain('There was an issue submitting your request');
    // The pointer on the toast holds it on screen (its 4 s clock stops) while axe runs.
    await toast.hover();
    expect(await violations(page)).toEqual([]);
    expect(await toast.count()).toBe(1);
    await page.close();
  });

  it.each(WIDTHS)('with a toast of each kind and a tooltip shown at %i px', async (width) => {
    const context = contexts.get(width);
    if (!context) throw new Error(`no context for ${width}`);
    const page = await context.newPage();
    // A frozen clock keeps the toasts on screen until the pointer rests on them (which pauses
    // them); axe needs running timers, so the clock runs again before axe starts.
    await page.clock.install({ time: new Date('2026-03-02T09:00:00Z') });
    await page.goto(fixture.url);
    await page.clock.pauseAt(new Date('2026-03-02T09:01:00Z'));
    for (const id of ['#toast-default', '#toast-destructive', '#toast-success']) await page.click(id);
    expect(await page.locator('section[aria-label="Notifications alt+T"] li').count()).toBe(3);
    await page.locator('#tip-copy').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.locator('[role="tooltip"]:visible').count()).toBe(1);
    await page.locator('section[aria-label="Notifications alt+T"] li').first().hover();
    await page.clock.resume();
    expect(await violations(page)).toEqual([]);
    await page.close();
  });
});

describe('article tables on a phone', () => {
  it(`are cards that print each column heading at ${PHONE} px, and stay native tables to assistive technology`, async () => {
    const page = await open(PHONE, '/blog/what-is-llm-seo');
    const table = page.locator('.table-scroll table').first();
    const layout = await table.evaluate((element) => {
      const headings = [...element.querySelectorAll('thead th')].map((cell) => cell.textContent?.trim() ?? '');
      return {
        pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
        rowDisplay: [...element.querySelectorAll('tbody tr')].map((row) => getComputedStyle(row).display),
        // What the eye sees above each value (the first cell is the card's title).
        printed: [...element.querySelectorAll('tbody tr')].map((row) =>
          [...row.querySelectorAll('td')].slice(1).map((cell) => getComputedStyle(cell, '::before').content.replace(/^"(.*?)".*$/, '$1')),
        ),
        expected: [...element.querySelectorAll('tbody tr')].map(() => headings.slice(1)),
      };
    });
    expect(layout.pageScrollsSideways).toBe(false);
    expect(new Set(layout.rowDisplay)).toEqual(new Set(['block']));
    expect(layout.printed).toEqual(layout.expected);

    // Chromium's own accessibility tree, as a screen reader gets it: the card layout changes
    // the boxes only, not what the parts are.
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument');
    const roleOf = async (selector: string) => {
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      return nodes[0]?.role?.value;
    };
    expect({
      table: await roleOf('.table-scroll table'),
      heading: await roleOf('.table-scroll thead th'),
      row: await roleOf('.table-scroll tbody tr'),
      cell: await roleOf('.table-scroll tbody td:nth-child(2)'),
    }).toEqual({ table: 'table', heading: 'columnheader', row: 'row', cell: 'cell' });
    await page.close();
  });
});

describe('the audit form with the keyboard alone', () => {
  it('reaches every field and the submit button by Tab, with a visible focus ring, and submits', async () => {
    const page = await open(1280, routesPaths.freeAudit);
    // Each control the keyboard should reach (not the honeypot, which is out of the Tab order on
    // purpose) gets a probe number, so the walk below can tell which one has focus.
    const expected = await page.locator(`form[action="${routesPaths.freeAudit}"]`).evaluate((form) =>
      [...form.querySelectorAll<HTMLElement>('input, textarea, select, button')]
        .filter((element) => element.tabIndex >= 0 && element.getAttribute('type') !== 'hidden')
        .map((element, index) => {
          element.dataset.probe = String(index);
          return `${element.tagName.toLowerCase()} ${element.getAttribute('type') ?? ''} ${element.getAttribute('name') ?? ''}`.trim();
        }),
    );
    expect(expected.length).toBeGreaterThanOrEqual(11);
    expect(expected.at(-1)).toBe('button submit');

    const reached: string[] = [];
    const typed: string[] = [];
    const unringed: string[] = [];
    for (let step = 0; step < 150 && reached.length < expected.length; step += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement;
        if (!(element instanceof HTMLElement)) return null;
        const style = getComputedStyle(element);
        return {
          probe: element.dataset.probe,
          tag: element.tagName.toLowerCase(),
          type: element.getAttribute('type'),
          description: element.outerHTML.slice(0, 100),
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        };
      });
      if (!focused) continue;
      if (!focused.ring) unringed.push(focused.description);
      if (focused.probe === undefined) continue;
      reached.push(expected[Number(focused.probe)] ?? focused.probe);
      if (focused.tag === 'textarea' || focused.tag === 'input') {
        const value = focused.type === 'email' ? 'jane@example.co.uk' : focused.type === 'url' ? 'https://www.example.co.uk' : `Typed by keyboard ${step}`;
        await page.keyboard.type(value);
        typed.push(value);
      } else if (focused.tag === 'select') {
        await page.keyboard.press('ArrowDown');
      }
    }
    // In document order, each once, the submit button last.
    expect(reached).toEqual(expected);
    // Every element Tab reached on the way showed where focus was.
    expect(unringed).toEqual([]);

    const request = page.waitForRequest((sent) => sent.method() === 'POST' && new URL(sent.url()).pathname === routesPaths.freeAudit);
    await page.keyboard.press('Enter');
    const sent = new URLSearchParams((await request).postData() ?? '');
    expect([...sent.values()]).toEqual(expect.arrayContaining(typed));
    await page.close();
  });
});
