import type { Browser, BrowserContext } from 'playwright-core';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { heroContent } from '../../shared/generated/home/hero';
import { pricingContent } from '../../shared/generated/home/pricing';
import { gotoWithScriptsHeld, settle, waitForHydration, walkingTab, watchConsole, type WalkingTab } from '../helpers/browser';
import { waitFor } from '../helpers/process-forms';
import { sharedBrowser, sharedSite } from '../helpers/shared-site';

const server = sharedSite();
let browser: Browser;

beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const pagePaths = appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path);

describe('hydration', () => {
  // One tab walks every page (test/helpers/browser.ts); each page's console is read from its own load.
  let context: BrowserContext;
  let tab: WalkingTab;
  beforeAll(async () => {
    context = await browser.newContext();
    tab = walkingTab(context);
  });
  afterAll(() => context.close());
  it.each(pagePaths)('%s hydrates with a clean console and no CSP violation', async (path) => {
    const { page, status, console } = await tab.visit(`${server.url}${path}`);
    expect(status).toBe(200);
    // Late work (effects, chunk loads, style insertion) reports before the page falls quiet.
    await settle(page);
    expect(console()).toEqual([]);
  });

  it.each(['/', '/blog/what-is-llm-seo', '/free-audit'])('%s asks for no script before its text is on screen, then hydrates', async (path) => {
    const page = await browser.newPage();
    await page.goto(`${server.url}${path}`);
    await waitForHydration(page);
    // The browser's own record of when it first painted text, and when it asked for each script.
    const timeline = await page.evaluate(() => ({
      painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ path: new URL(entry.name).pathname, requestedAt: entry.startTime })),
    }));
    if (timeline.painted === null) throw new Error(`${path} reported no first contentful paint`);
    const painted = timeline.painted;
    expect(timeline.scripts.length).toBeGreaterThan(0);
    expect(timeline.scripts.filter((script) => script.requestedAt < painted)).toEqual([]);
    await page.close();
  });

  it.each(['/', '/blog/what-is-llm-seo', '/free-audit'])('%s hydrates onto the server\'s CSS rules without adding a second copy', async (path) => {
    const page = await browser.newPage();
    const release = await gotoWithScriptsHeld(page, `${server.url}${path}`);
    // styled-components' server CSS also carries `data-styled.g1[id=...]` marker rules, which it
    // reads and removes when it starts; they are not styles.
    const countRules = () =>
      page.evaluate(() =>
        [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules]).filter((rule) => !(rule instanceof CSSStyleRule && rule.selectorText.startsWith('data-styled'))).length,
      );
    const serverRules = await countRules();
    release();
    await waitForHydration(page);
    // Class names that differ between server and client would make styled-components inject
    // its own copy of every rule (see scripts/lib/styled-component-ids.ts).
    expect(await countRules()).toBe(serverRules);
    await page.close();
  });

  it('keeps the server styles after hydration (no unstyled flash, styles still apply)', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    const before = await page.evaluate(() => getComputedStyle(document.querySelector('header')!).position);
    await waitForHydration(page);
    const after = await page.evaluate(() => getComputedStyle(document.querySelector('header')!).position);
    expect(before).toBe('sticky');
    expect(after).toBe('sticky');
    await page.close();
  });
});

describe('client-side navigation', () => {
  it('leaves a visitor where they scrolled while the JavaScript was still loading', async () => {
    const page = await browser.newPage();
    // The scripts wait until the visitor has scrolled, as on a slow mobile connection.
    const release = await gotoWithScriptsHeld(page, `${server.url}/`);
    await page.evaluate(() => window.scrollTo(0, 1200));
    expect(await page.evaluate(() => window.scrollY)).toBe(1200);
    release();
    await waitForHydration(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(1200);
    await page.close();
  });

  it('moves between pages without a reload, updating title and description, and scrolls to the top', async () => {
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    // A full reload would lose this marker.
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'still here';
      window.scrollTo(0, document.body.scrollHeight);
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);

    await page.locator('footer').getByRole('link', { name: 'How It Works' }).click();
    await page.waitForURL(`${server.url}/how-it-works`);
    await page.waitForFunction(() => document.querySelector('h1') && document.title.includes('How'));
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('still here');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toMatch(/\/how-it-works$/);

    // The head matches what the server renders for the same page.
    const direct = await browser.newPage();
    await direct.goto(`${server.url}/how-it-works`);
    expect(await page.title()).toBe(await direct.title());
    expect(description).toBe(await direct.locator('meta[name="description"]').getAttribute('content'));
    await direct.close();

    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('still here');
    expect(consoleRecords).toEqual([]);
    await page.close();
  });
});

describe('static islands', () => {
  it('a first visit to the home page downloads none of its static sections, and their links still navigate on the client', async () => {
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    await settle(page);
    expect(scripts.some((file) => file.includes('/home-page-'))).toBe(true);
    expect(scripts.filter((file) => /\/(intro-island|offer-island|site-footer)-/.test(file))).toEqual([]);
    // The server's HTML is still there, and a link inside it moves on the client.
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(heroContent.title);
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'still here'));
    await page.locator('[data-island="home-intro"]').getByRole('link', { name: heroContent.primaryCta }).click();
    await page.waitForURL(`${server.url}/free-audit`);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('still here');
    expect(consoleRecords).toEqual([]);
    await page.close();
  });

  it('a client-side navigation to the home page fetches and renders its static sections', async () => {
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    await page.goto(`${server.url}/blog`);
    await waitForHydration(page);
    await page.locator('header').getByRole('link', { name: 'Home' }).first().click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { level: 1, name: heroContent.title }).waitFor();
    await page.getByRole('heading', { name: pricingContent.title }).waitFor();
    expect(await page.locator('footer').count()).toBe(1);
    expect(consoleRecords).toEqual([]);
    await page.close();
  });
});

describe('mobile menu', () => {
  it('hides the top-bar audit link, opens and closes with the button, and Escape returns focus', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    const header = page.locator('header');
    const topBarCta = header.locator(':scope > div').first().getByRole('link', { name: 'Book Free Audit' });
    await expect(topBarCta.isVisible()).resolves.toBe(false);

    const toggle = header.locator('button[aria-controls]');
    expect(await toggle.getAttribute('aria-label')).toBe('Open menu');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const menuId = await toggle.getAttribute('aria-controls');
    const menu = page.locator(`[id="${menuId}"]`);
    expect(await menu.isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await toggle.getAttribute('aria-label')).toBe('Close menu');
    expect(await menu.isVisible()).toBe(true);
    expect(await menu.getByRole('link', { name: 'Book Free Audit' }).isVisible()).toBe(true);
    for (const name of ['Home', 'How It Works', 'Case Studies', 'Blog']) {
      expect(await menu.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }

    await menu.getByRole('link', { name: 'Blog', exact: true }).focus();
    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // The button closes it again too, and a link in it navigates and closes it.
    await toggle.click();
    await header.getByRole('button', { name: 'Close menu' }).click();
    expect(await menu.isVisible()).toBe(false);
    await toggle.click();
    await menu.getByRole('link', { name: 'Case Studies', exact: true }).click();
    await page.waitForURL(`${server.url}/case-studies`);
    expect(await menu.isVisible()).toBe(false);
    await context.close();
  });
});

describe('not-found page in the browser', () => {
  it('logs the attempted path to the console and the server log', async () => {
    const page = await browser.newPage();
    const warned = page.waitForEvent('console', (message) => message.type() === 'warning' && message.text().includes('/no-such-page'));
    const response = await page.goto(`${server.url}/no-such-page?x=1`);
    expect(response?.status()).toBe(404);
    await warned;
    await waitFor('the "Page not found" log line', () => server.logs().some((entry) => entry.msg === 'Page not found' && entry.path === '/no-such-page'), 5000);
    await page.close();
  });
});
