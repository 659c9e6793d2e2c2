import type { Browser, Locator, Page } from 'playwright-core';
import { violations } from '../helpers/axe';
import { waitForHydration, watchConsole } from '../helpers/browser';
import { startSiteAt, wellMadeSite, type FixtureAnswer, type FixtureSite } from '../helpers/fixture-sites';
import { waitFor } from '../helpers/process-forms';
import { sharedBrowser } from '../helpers/shared-site';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

/** The public AI-readiness check in Chromium, against a real server and fixture sites. */
jest.setTimeout(120_000);

let server: ServerProcess;
let browser: Browser;
const sites: FixtureSite[] = [];

async function fixture(paths: (origin: () => string) => Record<string, FixtureAnswer>): Promise<FixtureSite> {
  const site = await startSiteAt(paths);
  sites.push(site);
  return site;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServerProcess({ SITE_CHECK_ALLOW: '127.0.0.1' }), sharedBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await Promise.all(sites.map((site) => site.close()));
});


async function check(page: Page, website: string) {
  await page.getByLabel(/Your website/).fill(website);
  await page.getByRole('button', { name: 'Check My Website' }).click();
  await page.waitForURL(/\/ai-readiness-check\/result\?check=[\w-]{43}$/);
}

const resultPanel = (page: Page) => page.getByRole('region', { name: /What AI crawlers see on/ });

/**
 * How a control is seen as the page opens, unscrolled: whether it is shown, which of its edges
 * lie outside the viewport (none: it is wholly in the first screen), and whether it is what is
 * drawn at its middle (no header or banner over it).
 */
async function asFirstSeen(control: Locator, viewport: { width: number; height: number }) {
  const box = await control.boundingBox();
  if (!box) return { visible: false, outside: ['not drawn'], onTop: false };
  const bottom = box.y + box.height;
  const right = box.x + box.width;
  const outside = [
    ...(box.y < 0 ? [`top at ${box.y} px, above the viewport`] : []),
    ...(bottom > viewport.height ? [`bottom at ${bottom} px, below the first ${viewport.height}`] : []),
    ...(box.x < 0 ? [`left at ${box.x} px, left of the viewport`] : []),
    ...(right > viewport.width ? [`right at ${right} px, past its ${viewport.width}`] : []),
  ];
  const onTop = await control.evaluate((element, { x, y }) => {
    const drawn = document.elementFromPoint(x, y);
    return drawn !== null && (drawn === element || element.contains(drawn));
  }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
  return { visible: await control.isVisible(), outside, onTop };
}

describe('the public AI-readiness check', () => {
  it('with JavaScript: the result appears in place with no reload, the address bar has its link, and it invites to the audit with the site filled in', async () => {
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n' } }));
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    await page.goto(`${server.url}/ai-readiness-check`);
    await waitForHydration(page);
    // A mark that a reload would wipe: it must survive to the result.
    await page.evaluate(() => Object.assign(window, { stillThisDocument: true }));
    await check(page, `${site.origin}/`);
    const panel = resultPanel(page);
    await panel.getByText(/AI-readiness score: \d+\/100/).waitFor();
    expect(await page.evaluate(() => (window as unknown as { stillThisDocument?: boolean }).stillThisDocument)).toBe(true);
    expect(await panel.getByRole('heading', { level: 2 }).textContent()).toBe(`What AI crawlers see on 127.0.0.1:${site.port}`);
    expect(await panel.textContent()).toContain('it blocks GPTBot');
    expect(consoleRecords).toEqual([]);
    const resultUrl = page.url();

    // The invitation opens the audit form with the website in it.
    await panel.getByRole('link', { name: /Get My Free AI Audit/ }).click();
    await page.waitForURL(/\/free-audit\?website=/);
    expect(await page.locator('[name="website_url"]').inputValue()).toBe(`${site.origin}/`);

    // The result's link, opened anew, shows the result as the server renders it: accessible (axe
    // needs its script let in, so these pages alone are opened with the CSP bypassed).
    const axeContext = await browser.newContext({ bypassCSP: true });
    const axePage = await axeContext.newPage();
    await axePage.goto(resultUrl);
    await waitForHydration(axePage);
    await resultPanel(axePage).getByText(/AI-readiness score: \d+\/100/).waitFor();
    expect(await violations(axePage)).toEqual([]);
    await axePage.goto(`${server.url}/ai-readiness-check`);
    await waitForHydration(axePage);
    expect(await violations(axePage)).toEqual([]);
    await axeContext.close();
    await page.close();
  });

  it('without JavaScript: the post answers with the result page, which says the check runs, and a reload shows the result', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const site = await fixture((origin) => ({ ...wellMadeSite(origin), '/robots.txt': (_req, res) => void held.then(() => res.end('User-agent: *\nAllow: /\n')) }));
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/ai-readiness-check`);
    await check(page, `${site.origin}/`);
    expect(await resultPanel(page).textContent()).toContain("if it doesn't, reload this page");
    release();
    await waitFor('the check to finish', () => site.requests.some((request) => request.path === '/sitemap.xml'), 30_000);
    for (let attempt = 0; attempt < 50 && (await resultPanel(page).getByText('AI-readiness score').count()) === 0; attempt += 1) await page.reload();
    expect(await resultPanel(page).textContent()).toMatch(/AI-readiness score: \d+\/100/);
    expect(await resultPanel(page).getByRole('link', { name: /Get My Free AI Audit/ }).getAttribute('href')).toBe(`/free-audit?website=${encodeURIComponent(`${site.origin}/`)}`);
    await context.close();
  });

  it('a refused address shows its reason and no score', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/ai-readiness-check`);
    await waitForHydration(page);
    await check(page, 'http://10.20.30.40/');
    const panel = resultPanel(page);
    await panel.getByText(/10\.20\.30\.40 is a private network address, which the checker never fetches/).waitFor();
    expect(await panel.getByText('AI-readiness score').count()).toBe(0);
    await page.close();
  });
});

describe('the check page\'s first screen', () => {
  // A phone (390 x 844, as an iPhone 12 to 15) and a laptop: the field and its button are seen
  // as the page opens, before any scroll, as on PageSpeed Insights or HubSpot's Website Grader.
  it.each([
    { screen: 'a phone', viewport: { width: 390, height: 844 }, isMobile: true },
    { screen: 'a desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  ])('on $screen ($viewport.width x $viewport.height) the website field and the check button are wholly in it', async ({ viewport, isMobile }) => {
    const context = await browser.newContext({ viewport, isMobile, hasTouch: isMobile });
    const page = await context.newPage();
    await page.goto(`${server.url}/ai-readiness-check`);
    await waitForHydration(page);
    const field = page.getByLabel(/Your website/);
    const button = page.getByRole('button', { name: 'Check My Website' });
    const seen = { field: await asFirstSeen(field, viewport), button: await asFirstSeen(button, viewport) };
    const whole = { visible: true, outside: [], onTop: true };
    expect(seen).toEqual({ field: whole, button: whole });
    // What the check looks at is still on the page, further down.
    const looks = page.getByRole('list').filter({ hasText: 'Which AI crawlers your robots.txt lets in' });
    expect(await looks.getByRole('listitem').count()).toBe(4);
    await context.close();
  });
});
