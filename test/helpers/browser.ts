import type { ConsoleMessage, Page } from 'playwright-core';

export interface ConsoleRecord {
  type: string;
  text: string;
}

/** Collects what a visitor's console would show: messages, uncaught errors and CSP violations. */
export function watchConsole(page: Page): ConsoleRecord[] {
  const records: ConsoleRecord[] = [];
  page.on('console', (message: ConsoleMessage) => records.push({ type: message.type(), text: message.text() }));
  page.on('pageerror', (error) => records.push({ type: 'pageerror', text: error.message }));
  return records;
}

/** Waits until hydration has committed: the app marks <html data-hydrated> from an effect. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/**
 * Waits until the page has fallen quiet: no request for half a second (chunks, fonts, data) and
 * two frames painted since, so that what late work would log has been logged.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Opens a path with its scripts held back, as on a slow connection, and waits for the server's
 * HTML to be parsed. Returns the call that lets the scripts through.
 */
export async function gotoWithScriptsHeld(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  // Module scripts hold back DOMContentLoaded, so wait for the parsed footer instead.
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForSelector('footer', { state: 'attached' });
  return release;
}
