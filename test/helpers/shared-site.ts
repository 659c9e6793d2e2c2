import { readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const SHARED_SITE_ENV = 'CITEWISE_SHARED_SITE_URL';
export const SHARED_BROWSER_ENV = 'CITEWISE_SHARED_BROWSER_WS';
export const SHARED_LOG_ENV = 'CITEWISE_SHARED_SITE_LOG';

function fromSetup(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: browser suites run under the browser project's global setup (test/helpers/browser-global-setup.ts)`);
  return value;
}

/** The Chromium the browser suites share; close() on it disconnects this suite only. */
export function sharedBrowser(): Promise<Browser> {
  return chromium.connect(fromSetup(SHARED_BROWSER_ENV));
}

/** The built site's server the browser suites share: its URL, and the log lines it has written. */
export function sharedSite(): { url: string; logs: () => Record<string, unknown>[] } {
  const url = fromSetup(SHARED_SITE_ENV);
  const log = fromSetup(SHARED_LOG_ENV);
  return {
    url,
    logs: () =>
      readFileSync(log, 'utf8')
        .split('\n')
        // The last piece is a line still being written, or nothing.
        .slice(0, -1)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
