import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { violations } from '../helpers/axe';
import { waitForHydration, watchConsole } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared-site';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { buildSiteCopy, type SiteCopy } from '../helpers/site-copy';

/*
 * A statistic on the home page with a published source shows it in a tooltip: on keyboard focus,
 * on a touch, and to a screen reader as the "Source" button's description. The repository's
 * content has no verified source yet (the launch check lists each figure), so the page is built
 * from a copy of the content where two figures have one.
 */

const SOURCE = { publisher: 'Example Research', title: 'Assistants and search, 2024', date: '2024-05', url: 'https://www.research.example/assistants-2024' };
const DESCRIPTION = 'Example Research, “Assistants and search, 2024”, May 2024 (research.example)';
const sourceYaml = `{ publisher: "${SOURCE.publisher}", title: "${SOURCE.title}", date: "${SOURCE.date}", url: "${SOURCE.url}" }`;

let site: SiteCopy;
let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([
    buildSiteCopy((content) => {
      const file = path.join(content, 'home.yaml');
      const yaml = readFileSync(file, 'utf8')
        .replace('{ stat: "1.8B+", label: "ChatGPT monthly visits" }', `{ stat: "1.8B+", label: "ChatGPT monthly visits", source: ${sourceYaml} }`)
        .replace(/(\n {6}stat: "70%"\n {6}description: "[^"\n]+"\n)/, `$1      source: ${sourceYaml}\n`);
      if (yaml.split(SOURCE.url).length !== 3) throw new Error('home.yaml no longer has the two figures this test gives a source');
      writeFileSync(file, yaml);
    }),
    sharedBrowser(),
  ]);
  server = await startServerProcess({}, site.root);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  site?.remove();
});

const sourceButtons = (page: Page) => page.getByRole('button', { name: /^Source of / });

/** The tooltip a trigger names in aria-describedby: its text, and whether it is on screen. */
const tooltipOf = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).evaluate((trigger) => {
    const tooltip = (trigger.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id))
      .find((element) => element?.getAttribute('role') === 'tooltip');
    return tooltip ? { text: tooltip.textContent, shown: tooltip.getBoundingClientRect().width > 0 } : null;
  });
const waitForTooltip = (page: Page, name: string, shown: boolean) =>
  page.waitForFunction(
    ([triggerName, wanted]) => {
      const trigger = [...document.querySelectorAll('button')].find((button) => button.getAttribute('aria-label') === triggerName);
      const tooltip = document.getElementById((trigger?.getAttribute('aria-describedby') ?? '').split(' ').pop() ?? '');
      return (tooltip?.getBoundingClientRect().width ?? 0) > 0 === wanted;
    },
    [name, shown] as const,
  );

const HERO = 'Source of 1.8B+ ChatGPT monthly visits';
const SHIFT = /^Source of 70%: Of Gen Z/;

it('gives each sourced figure a Source button whose description is the source, and none to the others', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/`);
  expect(await sourceButtons(page).count()).toBe(2);
  expect(await tooltipOf(page, HERO)).toEqual({ text: DESCRIPTION, shown: false });
  const shiftName = (await page.getByRole('button', { name: SHIFT }).getAttribute('aria-label')) ?? '';
  expect(await tooltipOf(page, shiftName)).toEqual({ text: DESCRIPTION, shown: false });
  // What a screen reader announces on focus, from Chromium's accessibility tree: the button's
  // name, then its description, with the tooltip closed.
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value: string }; name?: { value: string }; description?: { value: string } }[] };
  const announced = nodes.find((node) => node.role?.value === 'button' && node.name?.value === HERO);
  expect(announced?.description?.value).toBe(DESCRIPTION);
  await page.close();
});

it('shows the source on keyboard focus and hides it on Escape and when focus moves on', async () => {
  const page = await browser.newPage();
  const consoleRecords = watchConsole(page);
  await page.goto(`${server.url}/`);
  await waitForHydration(page);
  const trigger = page.getByRole('button', { name: HERO, exact: true });
  // Focus the element before it, then Tab, as a keyboard user arrives.
  await trigger.evaluate((element) => {
    const all = [...document.querySelectorAll<HTMLElement>('a[href], button')];
    all[all.indexOf(element as HTMLElement) - 1]?.focus();
  });
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(HERO);
  await waitForTooltip(page, HERO, true);
  await page.keyboard.press('Escape');
  await waitForTooltip(page, HERO, false);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await waitForTooltip(page, HERO, true);
  await page.keyboard.press('Tab');
  await waitForTooltip(page, HERO, false);
  expect(consoleRecords).toEqual([]);
  await page.close();
});

it('shows the source on a touch, and hides it on a touch elsewhere', async () => {
  const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await waitForHydration(page);
  await page.getByRole('button', { name: HERO, exact: true }).tap();
  await waitForTooltip(page, HERO, true);
  // On screen in full on a phone.
  const box = await page.getByRole('tooltip', { name: DESCRIPTION }).first().boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
  await page.locator('#hero-title').tap();
  await waitForTooltip(page, HERO, false);
  await context.close();
});

it('passes axe with a source shown, on a phone', async () => {
  const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 740 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await waitForHydration(page);
  await page.getByRole('button', { name: HERO, exact: true }).tap();
  await waitForTooltip(page, HERO, true);
  expect(await violations(page)).toEqual([]);
  await context.close();
});
