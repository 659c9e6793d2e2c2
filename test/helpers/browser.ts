import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/lib/chromium';


/** Debian's Chromium, headless, with the flags that keep it off this machine's closed network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

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

/** Waits until React has hydrated the page (the entry marks nothing, so we look for React's root fiber). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    return Boolean(root && Object.keys(root).some((key) => key.startsWith('__reactContainer')));
  });
}
