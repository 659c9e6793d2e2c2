import type { BrowserContext, ConsoleMessage, Page, Request } from 'playwright-core';

export interface ConsoleRecord {
  type: string;
  text: string;
}

/** What a page has asked for and not yet received, and when that last changed. */
interface RequestWatch {
  inFlight: Set<Request>;
  lastChange: number;
}

const watches = new WeakMap<Page, RequestWatch>();

/**
 * Follows a page's own requests from now on, for settle(): Playwright's networkidle is the
 * document load's, long reached when a client-side navigation fetches a page's code and data.
 * watchConsole() starts it too; a page opened without either settles on its load alone.
 */
export function watchRequests(page: Page): void {
  if (watches.has(page)) return;
  const watch: RequestWatch = { inFlight: new Set(), lastChange: Date.now() };
  watches.set(page, watch);
  page.on('request', (request) => {
    watch.inFlight.add(request);
    watch.lastChange = Date.now();
  });
  const ended = (request: Request) => {
    watch.inFlight.delete(request);
    watch.lastChange = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/** Collects what a visitor's console would show: messages, uncaught errors and CSP violations; its requests are watched too. */
export function watchConsole(page: Page): ConsoleRecord[] {
  watchRequests(page);
  const records: ConsoleRecord[] = [];
  page.on('console', (message: ConsoleMessage) => records.push({ type: message.type(), text: message.text() }));
  page.on('pageerror', (error) => records.push({ type: 'pageerror', text: error.message }));
  return records;
}

/** Waits until hydration has committed: the app marks <html data-hydrated> from an effect. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/** A page as a walking tab left it: loaded and hydrated, with what the console got since its load began. */
export interface Visit {
  page: Page;
  status: number | undefined;
  /** The console since this page's load began (it keeps collecting until the next visit). */
  console(): ConsoleRecord[];
}

export interface WalkingTab {
  visit(url: string): Promise<Visit>;
  close(): Promise<void>;
}

/**
 * One tab that goes from page to page, as a visitor who types each address would: each visit is
 * a fresh load, waited on until hydrated. For the checks that walk every page: a tab whose
 * renderer has already compiled the site's scripts (and axe) loads and checks the next page for
 * far less CPU than a new tab would. Its console is watched from its first visit.
 */
export function walkingTab(context: BrowserContext): WalkingTab {
  let tab: { page: Page; records: ConsoleRecord[] } | undefined;
  return {
    async visit(url) {
      if (!tab) {
        const page = await context.newPage();
        tab = { page, records: watchConsole(page) };
      }
      const { page, records } = tab;
      const from = records.length;
      const response = await page.goto(url);
      await waitForHydration(page);
      return { page, status: response?.status(), console: () => records.slice(from) };
    },
    async close() {
      await tab?.page.close();
    },
  };
}

/** How long no request may have been in flight or started before a page counts as quiet (networkidle's own measure). */
const QUIET_FOR_MS = 500;

/**
 * Waits until the page has fallen quiet: its document loaded, no request of its own in flight or
 * started for half a second (chunks, fonts, data, after a client-side navigation too, when its
 * requests are watched), and two frames painted since, so that what late work would log has been
 * logged.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const watch = watches.get(page);
  if (watch) {
    while (watch.inFlight.size > 0 || Date.now() - watch.lastChange < QUIET_FOR_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
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
