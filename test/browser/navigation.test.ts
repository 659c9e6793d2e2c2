import type { Browser, Page, Request } from 'playwright-core';
import { settle, waitForHydration, watchConsole, watchRequests } from '../helpers/browser';
import { sharedBrowser, sharedSite } from '../helpers/shared-site';

/*
 * What a visitor meets when moving around the site: a page whose code cannot be fetched, links
 * to a section of another page, Back and Forward, and a page that fails in the browser.
 */

const server = sharedSite();
let browser: Browser;

beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The blog page's own chunk (its name carries the build's hash). */
const BLOG_CHUNK = /\/assets\/blog-page-[a-z0-9]+\.js$/;

/**
 * A page on the home page that records every request it makes, to tell document loads of a path
 * and whether the page has fallen quiet.
 */
async function openHome(): Promise<{ page: Page; documentLoads: (path: string) => number; requestCount: () => number }> {
  const page = await browser.newPage();
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await page.goto(`${server.url}/`);
  await waitForHydration(page);
  // A full load would lose this marker.
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'first document'));
  return {
    page,
    documentLoads: (path) => requests.filter((request) => request.isNavigationRequest() && new URL(request.url()).pathname === path).length,
    requestCount: () => requests.length,
  };
}

/**
 * How long a page must ask for nothing more to count as having stopped: a loop of full loads or
 * of fetches would show several times over within it. Proving that something does not happen
 * takes a wait; there is no event for it.
 */
const QUIET_MS = 3000;

/**
 * Expects the page, once its own work is done, to make no request at all for QUIET_MS. Its own
 * work is done when no request has started for a second: Playwright's networkidle is the document
 * load's, long reached after a client-side navigation, and a page fetches what a return to the
 * page it left needs once it is on screen.
 */
async function expectNoFurtherRequests(page: Page, requestCount: () => number): Promise<void> {
  // At most 5 s: a page that never stops (a loop of loads) fails the expectation below instead.
  for (let seen = -1, tries = 0; seen !== requestCount() && tries < 5; tries += 1) {
    seen = requestCount();
    await page.waitForTimeout(1000);
  }
  await settle(page);
  const before = requestCount();
  await page.waitForTimeout(QUIET_MS);
  expect(requestCount()).toBe(before);
}

const marker = (page: Page) => page.evaluate(() => (window as unknown as { marker?: string }).marker);
const blogLink = (page: Page) => page.locator('header').getByRole('link', { name: 'Blog', exact: true }).first();

describe('a page whose code cannot be fetched', () => {
  it('is loaded in full instead, once, and then works (a tab left open across a deploy)', async () => {
    const { page, documentLoads } = await openHome();
    // The first fetch of the chunk fails, as for a file that the deploy removed.
    let failed = false;
    await page.route(BLOG_CHUNK, (route) => {
      if (failed) return route.continue();
      failed = true;
      return route.abort('failed');
    });
    await blogLink(page).click();
    await page.waitForURL(`${server.url}/blog`);
    // The address changes before the full load starts, and the first document is already marked
    // hydrated: wait for the fresh document, then for its own hydration.
    await page.waitForFunction(() => !(window as unknown as { marker?: string }).marker);
    await waitForHydration(page);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.title()).toMatch(/blog/i);
    expect(await marker(page)).toBeUndefined();
    expect(documentLoads('/blog')).toBe(1);
    await page.close();
  });

  it('cannot loop when the code is missing on the server too: one full load, and the server\'s page stays', async () => {
    const { page, documentLoads, requestCount } = await openHome();
    await page.route(BLOG_CHUNK, (route) => route.abort('failed'));
    await blogLink(page).click();
    await page.waitForURL(`${server.url}/blog`);
    await page.waitForFunction(() => !(window as unknown as { marker?: string }).marker);
    // The server's page, readable and working without its script: not an error page.
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.innerText()).not.toContain('Unexpected Application Error');
    expect(await page.title()).toMatch(/blog/i);
    await expectNoFurtherRequests(page, requestCount);
    expect(documentLoads('/blog')).toBe(1);
    expect(page.url()).toBe(`${server.url}/blog`);
    await page.close();
  });

  it('shows the error page, without asking again, when this navigation already had its full load', async () => {
    const { page, documentLoads, requestCount } = await openHome();
    const consoleRecords = watchConsole(page);
    await page.route(BLOG_CHUNK, (route) => route.abort('failed'));
    await page.evaluate((url) => sessionStorage.setItem('citewise:full-load-for', url), `${server.url}/blog`);
    await blogLink(page).click();
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    expect(await page.title()).toBe('This page could not be loaded | Citewise');
    expect(await page.locator('main').innerText()).toContain('This page could not be loaded.');
    expect(await page.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe(`${server.url}/blog`);
    // Neither a full load nor another fetch of the code: the error page stays.
    await expectNoFurtherRequests(page, requestCount);
    expect(await marker(page)).toBe('first document');
    expect(documentLoads('/blog')).toBe(0);
    // Besides the browser's own "Failed to load resource" and React's report of the caught error.
    expect(consoleRecords.some((record) => record.text.includes('A page could not be loaded'))).toBe(true);
    await page.close();
  });
});

describe('a page that fails in the browser', () => {
  it('shows the error page with a title that says so', async () => {
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    // The page's module arrives but its component throws when it renders.
    await page.route(BLOG_CHUNK, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'export default function Broken() { throw new Error("broken page"); }' }),
    );
    await blogLink(page).click();
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    expect(await page.title()).toBe('Something went wrong on this page | Citewise');
    expect(await page.locator('main').innerText()).not.toContain('500');
    expect(await page.locator('link[rel="canonical"]').count()).toBe(0);
    expect(consoleRecords.some((record) => record.type === 'error' && record.text.includes('Unexpected application error'))).toBe(true);
    await page.close();
  });
});

describe('links to a section of another page', () => {
  it.each([
    ['FAQ', 'faq'],
    ['Pricing', 'pricing'],
  ])('the footer\'s %s link, clicked on /blog, lands on the section with focus there', async (name, id) => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/blog`);
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
    await page.locator('footer').getByRole('link', { name, exact: true }).click();
    await page.waitForURL(`${server.url}/#${id}`);
    await page.waitForFunction((sectionId) => document.activeElement?.id === sectionId, id);
    // Below the sticky header (the page's scroll padding), at the top of the view.
    const top = await page.evaluate((sectionId) => document.getElementById(sectionId)!.getBoundingClientRect().top, id);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    expect(await marker(page)).toBe('same document');
    await page.close();
  });

  it('a plain path change still starts at the top', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/#faq`);
    await waitForHydration(page);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.locator('footer').getByRole('link', { name: 'How It Works', exact: true }).click();
    await page.waitForURL(`${server.url}/how-it-works`);
    await page.waitForFunction(() => document.title.includes('How'));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.close();
  });
});

describe('Back and Forward', () => {
  it('return the visitor to where they were on each page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.waitForFunction(() => window.scrollY === 2500);
    // A pointer click where the link is, as a visitor's: Playwright's locator click would first
    // scroll the sticky header's link "into view", moving the page the visitor is leaving.
    const link = (await page.locator('header').getByRole('link', { name: 'How It Works', exact: true }).first().boundingBox())!;
    await page.mouse.click(link.x + link.width / 2, link.y + link.height / 2);
    await page.waitForURL(`${server.url}/how-it-works`);
    await page.waitForFunction(() => document.title.includes('How') && window.scrollY === 0);
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.waitForFunction(() => window.scrollY === 600);

    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    await page.waitForFunction(() => window.scrollY === 2500);
    await page.goForward();
    await page.waitForURL(`${server.url}/how-it-works`);
    await page.waitForFunction(() => window.scrollY === 600);
    await page.close();
  });

  it.each([
    ['/', 'How It Works', '/how-it-works'],
    ['/blog/what-is-llm-seo', 'Blog', '/blog'],
  ])('show %s, first seen by a full load, without an empty moment on Back', async (start, linkName, next) => {
    const page = await browser.newPage();
    await page.goto(`${server.url}${start}`);
    await waitForHydration(page);
    watchRequests(page);
    await page.locator('header').getByRole('link', { name: linkName, exact: true }).first().click();
    await page.waitForURL(`${server.url}${next}`);
    // The visitor reads the next page for a moment: what a return needs, which the page fetches
    // once it is on screen, has arrived (the app marks the document), and the network falls quiet.
    await page.waitForFunction((left) => document.documentElement.dataset.returnReady === left, start);
    await settle(page);
    // The least height the page's main area has from here on, through the return: in every
    // frame painted, and after every change React makes (a suspended page is hidden, not removed).
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      const record = window as unknown as { lowest: number };
      record.lowest = main.offsetHeight;
      const measure = () => {
        record.lowest = Math.min(record.lowest, main.offsetHeight);
      };
      new MutationObserver(measure).observe(main, { childList: true, subtree: true, attributes: true });
      const everyFrame = () => {
        measure();
        requestAnimationFrame(everyFrame);
      };
      requestAnimationFrame(everyFrame);
    });
    await page.goBack();
    await page.waitForURL(`${server.url}${start}`);
    await settle(page);
    const { lowest, now, text } = await page.evaluate(() => {
      const main = document.querySelector('main')!;
      return { lowest: (window as unknown as { lowest: number }).lowest, now: main.offsetHeight, text: main.innerText.slice(0, 120) };
    });
    // The page in full (and, when not, what is there instead).
    expect(now > 2000 ? 'the page' : `${now} px: ${text}`).toBe('the page');
    // Never less than a screenful on the way (an empty main is its minimum height, 60% of the view).
    expect(lowest).toBeGreaterThan(1000);
    await page.close();
  });
});
