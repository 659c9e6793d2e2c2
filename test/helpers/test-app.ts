import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppRoute } from '../../client/routes';
import { createApp, type MailOutbox, type ProbeQueue, type SiteApp, type SiteCheckQueue } from '../../server/app';
import type { AddressBoundOptions } from '../../server/http/address-bound';
import { loadConfig, type Config } from '../../server/config';
import { migrate, openDatabase, type Db } from '../../server/db/database';
import { createLogger, type Logger } from '../../server/logger';
import type { MailTransport } from '../../server/mail/mail-transport';
import { OutboxWorker, type OutboxWorkerOptions } from '../../server/mail/outbox-worker';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import { testClock, type TestClock } from './clock';
import { CLIENT_DIR, TEST_PAGE_CACHE, TEST_SITE_URL } from './locations';

export interface TestApp {
  app: SiteApp;
  /** How often the app asked the mail outbox to send (after each stored lead). */
  mailKicks: () => number;
  /** How often the app asked the site check worker to run (after each request naming a website). */
  checkKicks: () => number;
  db: Db;
  config: Config;
  dir: string;
  /** The one clock the app and the workers made by `outboxWorker` read. */
  clock: TestClock;
  /** A mail outbox worker over the app's database and clock, as server/index.ts makes it. */
  outboxWorker(transport: MailTransport, options?: Partial<Omit<OutboxWorkerOptions, 'db' | 'transport' | 'clock'>> & { logger?: Logger }): OutboxWorker;
  close(): void;
}

/** A page at /broken whose component throws `message` when it renders, before the site's own routes. */
export function withBrokenPage(routes: AppRoute[], message = 'broken on purpose'): AppRoute[] {
  const broken: AppRoute = {
    path: '/broken',
    modules: [],
    load: () =>
      Promise.resolve(function Broken(): never {
        throw new Error(message);
      }),
  };
  return [broken, ...routes];
}

/** The real app over a real SQLite file in a fresh temporary folder. */
export function createTestApp(
  options: {
    env?: Record<string, string>;
    routes?: AppRoute[];
    mailer?: MailOutbox;
    /** The site check worker; by default a counter, and a lead's mail does not wait for its check. */
    siteChecks?: SiteCheckQueue;
    /** The visibility probe worker, nudged after each audit request while an assistant is configured. */
    probes?: ProbeQueue;
    formRateLimit?: { limit: number; windowMs: number };
    formRequestsPerAddress?: AddressBoundOptions;
    checksPerAddressPerHour?: number;
    /** Probes one client address may start in 24 hours; null: as the server works it out from the probe's configuration. */
    probesPerAddressPerDay?: number | null;
    minFillMs?: number;
    clock?: TestClock;
    /** The app's logger (test/helpers/capturing-logger.ts, to read what it logs); by default one at LOG_LEVEL, silent. */
    logger?: Logger;
    /** The finished audit reports, by their links' tokens (by default none: every link shows its report as being written). */
    auditReports?: ReadonlyMap<string, AuditDocument>;
    /** The monitored clients' pages, by their links' tokens (by default none: every link shows a client with no finished run yet). */
    monitorReports?: ReadonlyMap<string, TrendDocument>;
  } = {},
): TestApp {
  const clock = options.clock ?? testClock();
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-test-'));
  const config = loadConfig({
    DATABASE_PATH: path.join(dir, 'site.db'),
    SITE_URL: TEST_SITE_URL,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    PAGE_CACHE_DIR: TEST_PAGE_CACHE,
    ...options.env,
  });
  const db = openDatabase(config.databasePath);
  migrate(db);
  let kicks = 0;
  let checkKicks = 0;
  const logger = options.logger ?? createLogger(config.logLevel);
  const app = createApp({
    config,
    db,
    logger,
    clientDir: CLIENT_DIR,
    mailer: options.mailer ?? { kick: () => (kicks += 1) },
    siteChecks: options.siteChecks ?? { kick: () => (checkKicks += 1), mailWaitMs: 0 },
    ...(options.probes ? { probes: options.probes } : {}),
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.formRateLimit ? { formRateLimit: options.formRateLimit } : {}),
    // Tests post the moment they have the form; the fill-time check has its own test.
    minFillMs: options.minFillMs ?? 0,
    // Tests ask for form pages from one address as fast as they like; the bound has its own tests.
    formRequestsPerAddress: options.formRequestsPerAddress ?? { burst: 100_000, perSecond: 100_000, maxWaitMs: 30_000, maxWaiting: 100_000 },
    // Tests post audits naming websites from one address as often as they like; the budget has its own tests.
    checksPerAddressPerHour: options.checksPerAddressPerHour ?? 100_000,
    // Likewise their probes; the per-address share of the day's calls has its own tests.
    ...(options.probesPerAddressPerDay === null ? {} : { probesPerAddressPerDay: options.probesPerAddressPerDay ?? 100_000 }),
    ...(options.monitorReports ? { trendFor: (token: string) => options.monitorReports?.get(token) ?? null } : {}),
    ...(options.auditReports ? { auditReportFor: (token: string) => options.auditReports?.get(token) ?? null } : {}),
    clock,
  });
  return {
    app,
    mailKicks: () => kicks,
    checkKicks: () => checkKicks,
    db,
    config,
    dir,
    clock,
    outboxWorker: (transport, workerOptions = {}) =>
      new OutboxWorker({ db, transport, clock, logger, retryBaseMs: config.mailRetryBaseMs, ...workerOptions }),
    close() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
