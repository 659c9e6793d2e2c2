import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { violations } from '../helpers/axe';
import { waitForHydration, watchConsole } from '../helpers/browser';
import { startSiteAt, wellMadeSite, type FixtureAnswer, type FixtureSite } from '../helpers/fixture-sites';
import { validAudit } from '../helpers/forms';
import { waitFor } from '../helpers/process-forms';
import { sharedBrowser } from '../helpers/shared-site';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { decodeQuotedPrintable, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { ROOT } from '../helpers/locations';

// A real server, a real SMTP peer, fixture sites and Chromium: the whole flow takes a while.
jest.setTimeout(120_000);

let server: ServerProcess;
let browser: Browser;
let smtp: TestSmtpServer;
const sites: FixtureSite[] = [];

async function fixture(paths: (origin: () => string) => Record<string, FixtureAnswer>): Promise<FixtureSite> {
  const site = await startSiteAt(paths);
  sites.push(site);
  return site;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  [server, browser] = await Promise.all([startServerProcess({ SITE_CHECK_ALLOW: '127.0.0.1', SMTP_URL: smtp.url }), sharedBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
  await Promise.all(sites.map((site) => site.close()));
});


async function requestAudit(page: Page, values: Record<string, string>) {
  await page.goto(`${server.url}/free-audit`);
  for (const [name, value] of Object.entries(values)) await page.locator(`[name="${name}"]`).fill(value);
  await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
  await page.waitForURL(/\/thank-you\?check=[\w-]{43}$/);
}

function ops(script: 'export-csv' | 'erase', args: string[]) {
  return spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', `${script}.js`), ...args], {
    env: { PATH: process.env.PATH ?? '', DATABASE_PATH: path.join(server.dir, 'site.db') },
    encoding: 'utf8',
  });
}

const resultPanel = (page: Page) => page.getByRole('region', { name: /While we prepare your full audit: what AI crawlers see on/ });

describe('the instant site check, from the form to erasure', () => {
  it('with JavaScript: the result appears on the thank-you page, the agency\'s mail carries it, the CSV lists it, erase removes it', async () => {
    const site = await fixture(wellMadeSite);
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    await page.goto(`${server.url}/free-audit`);
    await waitForHydration(page);
    const email = 'js-check@example.co.uk';
    await requestAudit(page, { ...validAudit, email, website_url: `${site.origin}/` });
    const thankYouUrl = page.url();

    const panel = resultPanel(page);
    await panel.getByText('AI-readiness score: 95/100').waitFor();
    expect(await panel.getByRole('heading', { level: 2 }).textContent()).toBe(`While we prepare your full audit: what AI crawlers see on 127.0.0.1:${site.port}`);
    expect(await panel.getByRole('listitem').count()).toBe(14);
    expect(await panel.getByRole('listitem').filter({ hasText: 'Served over HTTPS' }).textContent()).toContain('To fix');
    expect(consoleRecords).toEqual([]);

    // The same page as the server renders it with the result: accessible (axe needs its script
    // let in, so this page alone is opened with the CSP bypassed).
    const axeContext = await browser.newContext({ bypassCSP: true });
    const axePage = await axeContext.newPage();
    await axePage.goto(thankYouUrl);
    await waitForHydration(axePage);
    await resultPanel(axePage).getByText('AI-readiness score: 95/100').waitFor();
    expect(await violations(axePage)).toEqual([]);
    await axeContext.close();

    // The agency: the lead's mail waited for the findings.
    await waitFor('the lead\'s mail', () => smtp.received.some((mail) => mail.raw.includes(email)), 30_000);
    const mail = decodeQuotedPrintable(smtp.received.find((received) => received.raw.includes(email))?.raw ?? '');
    expect(mail).toContain('[site 95/100]');
    expect(mail).toContain(`AI-readiness of ${site.origin}/: 95/100`);

    // Ops: the CSV has the score and a summary; erase removes the check with the person.
    const csv = ops('export-csv', ['--no-bom']);
    expect(csv.stdout).toContain('"95","95/100; to fix: Served over HTTPS"');
    expect(ops('erase', ['--email', email]).stdout).toContain('site checks:      1');
    await page.goto(thankYouUrl);
    await waitForHydration(page);
    await page.getByRole('heading', { level: 1, name: 'Thank You for Your Submission!' }).waitFor();
    expect(await resultPanel(page).count()).toBe(0);
    await page.close();
  });

  it('without JavaScript: the page says the check is running, and a reload shows the result', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const site = await fixture((origin) => ({
      ...wellMadeSite(origin),
      '/robots.txt': (_req, res) => void held.then(() => res.end('User-agent: *\nAllow: /\n')),
    }));
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await requestAudit(page, { ...validAudit, email: 'nojs-check@example.co.uk', website_url: `${site.origin}/` });
    expect(await resultPanel(page).textContent()).toContain('if it doesn\'t, reload this page');
    release();
    await waitFor('the check to finish', () => site.requests.some((request) => request.path === '/sitemap.xml'), 30_000);
    // The check is recorded a moment after its last fetch: reload until the page has it.
    for (let attempt = 0; attempt < 50 && (await resultPanel(page).getByText('AI-readiness score').count()) === 0; attempt += 1) {
      await page.reload();
    }
    expect(await resultPanel(page).textContent()).toContain('AI-readiness score: 95/100');
    await context.close();
  });

  it('shows nothing of a check on the plain /thank-you, nor when no website was given', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/free-audit`);
    await waitForHydration(page);
    await page.locator('[name="website_url"]').fill('');
    const { website_url: _none, ...withoutSite } = validAudit;
    for (const [name, value] of Object.entries({ ...withoutSite, email: 'no-site@example.co.uk' })) await page.locator(`[name="${name}"]`).fill(value);
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    await page.waitForURL(`${server.url}/thank-you`);
    await page.getByRole('heading', { level: 1, name: 'Thank You for Your Submission!' }).waitFor();
    expect(await resultPanel(page).count()).toBe(0);
    await page.close();
  });
});
