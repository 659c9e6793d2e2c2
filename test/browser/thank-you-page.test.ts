import type { Browser, Page } from 'playwright-core';
import { violations } from '../helpers/axe';
import { waitForHydration, watchConsole } from '../helpers/browser';
import { fakeEnvironment, startFakeAssistant, type FakeAssistant } from '../helpers/fake-assistants';
import { startSiteAt, wellMadeSite, type FixtureSite } from '../helpers/fixture-sites';
import { validAudit } from '../helpers/forms';
import { sharedBrowser } from '../helpers/shared-site';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

// A real server asking a fake ChatGPT about a fixture site's business, and Chromium: a while.
jest.setTimeout(120_000);

/** The business as the fixture site names it, which the probe looks for in the answers. */
const BRAND = 'Okafor Electrical';
/** What the fake ChatGPT answers: the business named, with markup and links that must stay words. */
const ANSWER = [
  `1. **${BRAND}** – NICEIC-approved, see <a href="https://evil.example/win">their reviews</a>.`,
  '2. **Spark Bros Surrey** – [book a free survey](https://evil.example/survey) <img src=x onerror="window.owned=1">',
].join('\n');
/** How long the fake keeps the first question waiting (a 429 with Retry-After): the probe stays pending that long after the check. */
const RETRY_AFTER_S = 4;

let server: ServerProcess;
let browser: Browser;
let site: FixtureSite;
let chatgpt: FakeAssistant;

beforeAll(async () => {
  [site, chatgpt, browser] = await Promise.all([
    startSiteAt(wellMadeSite),
    startFakeAssistant('chatgpt', 'sk-test-openai-4f9c2a7e1b3d', (_request, index) => (index === 0 ? { status: 429, headers: { 'Retry-After': String(RETRY_AFTER_S) } } : { answer: { text: ANSWER, sources: [] } })),
    sharedBrowser(),
  ]);
  server = await startServerProcess({ SITE_CHECK_ALLOW: '127.0.0.1', PROBE_PROMPTS: '2', ...fakeEnvironment([chatgpt]) });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await Promise.all([site?.close(), chatgpt?.close()]);
});

const probePanel = (page: Page) => page.getByRole('region', { name: /^What AI assistants say when asked about/ });

describe('the thank-you page with the AI visibility probe', () => {
  it('with JavaScript: the probe shows as running, then its answers appear without a reload, inert, and axe finds nothing', async () => {
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    // Reached by a link in the page: the form learns the assistants with its token.
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    await page.locator('header a[href="/free-audit"]').first().click();
    await page.waitForURL(`${server.url}/free-audit`);
    await page.getByText('To see whether they recommend you, we\'ll ask ChatGPT questions made from your keywords').waitFor();
    const values = { ...validAudit, email: 'probe-js@example.co.uk', website_url: `${site.origin}/`, target_keywords: 'electrician Guildford, EV charger installation' };
    for (const [name, value] of Object.entries(values)) await page.locator(`[name="${name}"]`).fill(value);
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'no reload';
    });
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    await page.waitForURL(/\/thank-you\?check=[\w-]{43}$/);
    const thankYouUrl = page.url();

    // Running: the probe waits for the site check, then for the fake's Retry-After.
    const panel = probePanel(page);
    await panel.getByText('We\'re asking AI assistants the questions your customers would ask them, right now.').waitFor();
    expect(await panel.getByRole('heading', { level: 2 }).textContent()).toBe('What AI assistants say when asked about electrician Guildford');
    await page.getByText('AI-readiness score: 95/100').waitFor();
    expect(await panel.getByText('Their answers appear here as soon as they\'re in').isVisible()).toBe(true);
    expect(await panel.getByText('Reload this page in a few minutes').isVisible()).toBe(false);
    expect(await panel.getByRole('status').textContent()).toContain('We\'re asking AI assistants');

    // Done, in place: the same status region says so, and the page was never reloaded.
    await panel.getByRole('status').getByText('ChatGPT named your business in 2 of 2 answers.').waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no reload');
    expect(await panel.getByRole('heading', { level: 3 }).textContent()).toBe('ChatGPT');
    expect(await panel.getByText('Named you in 2 of 2 answers').count()).toBe(1);
    expect(await panel.getByText('Named instead: Spark Bros Surrey').count()).toBe(1);
    // The answer is text: its markup is shown, its links are not links, its image never loads.
    const quoted = panel.locator('blockquote');
    expect(await quoted.textContent()).toBe(ANSWER.replace(/\s+/g, ' '));
    expect(await panel.locator('a, img, script').count()).toBe(0);
    expect(await page.evaluate(() => 'owned' in window)).toBe(false);
    // The page stops asking once both have ended.
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    await page.waitForTimeout(6000);
    expect(asked.filter((url) => url.includes('/site-check/status'))).toEqual([]);
    expect(consoleRecords).toEqual([]);
    await page.close();

    // The page as the server renders it once done: hydrates without a warning, and is accessible
    // (axe needs its script let in, so this page alone is opened with the CSP bypassed).
    const axeContext = await browser.newContext({ bypassCSP: true });
    const axePage = await axeContext.newPage();
    const axeConsole = watchConsole(axePage);
    await axePage.goto(thankYouUrl);
    await waitForHydration(axePage);
    await probePanel(axePage).getByText('Named you in 2 of 2 answers').waitFor();
    expect(await violations(axePage)).toEqual([]);
    expect(axeConsole).toEqual([]);
    await axeContext.close();
  });
});
