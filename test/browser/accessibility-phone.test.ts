import type { Browser, BrowserContext } from 'playwright-core';
import { everyPagePath, violations } from '../helpers/axe';
import { walkingTab, type WalkingTab } from '../helpers/browser';
import { sharedBrowser, sharedSite } from '../helpers/shared-site';

/*
 * axe-core, with the WCAG 2.1 A and AA rules and its best practices, over every route at a common
 * phone's width (the site's narrowest layout applies below 640 px): the desktop width and the
 * states a visitor can put a page in are in accessibility.test.ts. The context bypasses the CSP
 * to inject axe (site.test.ts checks the CSP itself on a normal context).
 */
const PHONE = 375;

const server = sharedSite();
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await sharedBrowser();
  context = await browser.newContext({ viewport: { width: PHONE, height: 800 }, bypassCSP: true });
});
afterAll(async () => {
  await browser?.close();
});

describe('axe-core finds no violation of WCAG 2.1 A or AA or of its best practices', () => {
  let tab: WalkingTab;
  beforeAll(() => {
    tab = walkingTab(context);
  });
  it.each(everyPagePath)(`on %s at ${PHONE} px`, async (path) => {
    const { page } = await tab.visit(`${server.url}${path}`);
    expect({ path, violations: await violations(page) }).toEqual({ path, violations: [] });
  });
});
