import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/lib/chromium';
import buildIfStale from './global-setup';
import { SHARED_BROWSER_ENV, SHARED_LOG_ENV, SHARED_SITE_ENV } from './shared-site';
import { startServerProcess, type ServerProcess } from './server-process';

/** What the browser suites share, kept for the teardown (which runs in this same process). */
export const shared: { server?: ServerProcess; browser?: BrowserServer } = {};

/**
 * The browser suites that need only the site as built share one server process and one Chromium,
 * started here once for the whole run: starting them costs seconds each. Suites that need the
 * site configured otherwise (a mail server, a copy of the content) start their own server and
 * share the browser. The server's log lines go to a file that the suites read.
 */
export default async function browserGlobalSetup(): Promise<void> {
  buildIfStale();
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'citewise-shared-site-')), 'server.log');
  const [server, browser] = await Promise.all([
    startServerProcess(),
    chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS }),
  ]);
  for (const entry of server.logs) appendFileSync(log, `${JSON.stringify(entry)}\n`);
  server.child.stdout.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
  shared.server = server;
  shared.browser = browser;
  process.env[SHARED_SITE_ENV] = server.url;
  process.env[SHARED_BROWSER_ENV] = browser.wsEndpoint();
  process.env[SHARED_LOG_ENV] = log;
}
