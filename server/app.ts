import path from 'node:path';
import express, { type Express } from 'express';
import { appRoutes, NOT_FOUND_PATH, type AppRoute } from '../client/routes';
import { markdownTwins } from '../shared/generated/markdown-twins';
import { twinPath } from '../shared/markdown-twin';
import type { Config } from './config';
import { waitBrieflyForLocks, type Db } from './db/database';
import { cookieSigningSecret, csrfProtection } from './http/csrf';
import { fillTimer } from './http/fill-time';
import { healthCheck } from './http/healthz';
import { publicFiles } from './http/public-files';
import { AddressBound, addressBound, type AddressBoundOptions } from './http/address-bound';
import { formRateLimit } from './http/rate-limit';
import { redirects } from './http/redirects';
import { requestLog } from './http/request-log';
import { securityHeaders, staticSecurityHeaders } from './http/security-headers';
import { CHECKS_PER_ADDRESS_PER_HOUR, FORM_REQUESTS_PER_ADDRESS, formRoutes, probesPerAddressPerDay } from './leads/form-routes';
import { LeadStore } from './leads/lead-store';
import { DAY_MS, StartBudget } from './leads/start-budget';
import type { Logger } from './logger';
import { assetFiles } from './pages/asset-files';
import { readAssetManifest } from './pages/asset-manifest';
import type { FastPath } from './pages/fast-path';
import { sitePages } from './pages/site-pages';
import { socialImages } from './pages/social-images';
import { AiLedger } from './ledger/ai-ledger';
import { aiClassifier, loadAiSources, type AiSources } from './ledger/ai-sources';
import { SEO_FILE_PATHS, seoFiles } from './seo/seo-router';
import { SITE_CHECK_PARAM } from '../shared/site-check';
import { SiteCheckStore } from './site-check/check-store';
import { siteCheckResultRoutes } from './site-check/result-routes';
import { ASSISTANTS } from './visibility-probe/assistant-catalogue';
import { ProbeStore } from './visibility-probe/probe-store';
import { probeViews } from './visibility-probe/probe-view';
import { usePageCache } from './pages/representation';
import type { AuditDocument } from './reports/audit/audit-document';
import { auditReportRoutes } from './reports/audit/audit-routes';
import { RunStore } from './runs/run-store';
import { monitorReportRoutes } from './reports/monitor/monitor-routes';
import type { TrendDocument } from './reports/monitor/trend-document';

/** What the app needs of the mail outbox: a nudge after a lead is stored. */
export interface MailOutbox {
  kick(): void;
}

/** What the app needs of the site check worker: a nudge after a check is queued, and how long a lead's mail waits for its findings. */
export interface SiteCheckQueue {
  kick(): void;
  mailWaitMs: number;
}

/** What the app needs of the visibility probe worker: a nudge after a probe is queued. */
export interface ProbeQueue {
  kick(): void;
}

export interface AppDependencies {
  config: Config;
  db: Db;
  logger: Logger;
  /** Sends stored mail; the process passes the outbox worker. */
  mailer: MailOutbox;
  /** Runs queued site checks; the process passes the site check worker. */
  siteChecks: SiteCheckQueue;
  /** Runs queued visibility probes (when an assistant is configured); the process passes the probe worker. */
  probes?: ProbeQueue;
  /** The clock pages and records read, shared with the mail worker; tests pass one they move. */
  clock: () => Date;
  /** The route table; tests may pass one with a route that throws. */
  routes?: AppRoute[];
  /** Where the build put the client bundle (dist/client). */
  clientDir?: string;
  /** Form POSTs allowed per client address per window (tests lower it). */
  formRateLimit?: { limit: number; windowMs: number };
  /** The bound on one address's requests for form pages, their token and posts (tests lower it). */
  formRequestsPerAddress?: AddressBoundOptions;
  /** Site checks one client address may start in an hour through the audit form (tests lower it). */
  checksPerAddressPerHour?: number;
  /** Visibility probes one client address may start in 24 hours (by default from the probe's configuration: probesPerAddressPerDay). */
  probesPerAddressPerDay?: number;
  /** The least time between showing a form and its post that counts as a person (tests lower it). */
  minFillMs?: number;
  /** The AI agents and assistants the ledger recognises (server/ledger/ai-sources.json unless given). */
  aiSources?: AiSources;
  /** The finished audit report a private link's token opens; null: none (unknown, erased, not finished). None given: every link shows its report as being written. */
  auditReportFor?: (token: string) => AuditDocument | null;
  /** A monitored client's page (its trend) a private link's token opens; null: none (unknown, removed, no run finished). None given: from the clients' store. */
  trendFor?: (token: string) => TrendDocument | null;
}

export interface SiteApp extends Express {
  /** Renders every shared page into memory; the process calls it before it listens. */
  warmPages(): Promise<void>;
  /** Shared pages answered by node:http before Express (server/http-server.ts). */
  fastPages: FastPath;
  /** The AI ledger (null when AI_LEDGER=off); the process writes it at intervals and at shutdown. */
  aiLedger: AiLedger | null;
}

/** Builds the Express app from its dependencies. It does not listen: server/index.ts does. */
/** A stored document (JSON) as its page reads it; null for none. */
const parsedOrNull = <T>(json: string | null): T | null => (json === null ? null : (JSON.parse(json) as T));

export function createApp(deps: AppDependencies): SiteApp {
  const { config, db, logger, clock } = deps;
  usePageCache(config.pageCacheDir);
  const routes = deps.routes ?? appRoutes;
  const clientDir = deps.clientDir ?? path.resolve(__dirname, '..', 'client');
  const https = config.siteUrl.startsWith('https:');
  const security = staticSecurityHeaders(https);
  const secret = cookieSigningSecret(db);
  const csrf = csrfProtection(secret, https);
  const aiLedger = config.aiLedger
    ? new AiLedger({
        db,
        clock,
        logger,
        classifier: aiClassifier(deps.aiSources ?? loadAiSources(config.aiSourcesFile)),
        // Where a visit counts: the pages; and what else AI reads: the twins and the SEO files.
        pages: new Set(routes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path)),
        files: new Set([...markdownTwins.map((twin) => twinPath(twin.path)), ...SEO_FILE_PATHS]),
      })
    : null;
  const pages = sitePages({
    routes,
    context: {
      config: { siteUrl: config.siteUrl, bookingUrl: config.bookingUrl, year: clock().getUTCFullYear() },
      assets: readAssetManifest(clientDir),
    },
    security,
    https,
    logger,
    showErrors: !config.isProduction,
    observe: aiLedger ? (req, path) => aiLedger.observe(req, path) : undefined,
    privateParams: [SITE_CHECK_PARAM],
  });
  const checkStore = new SiteCheckStore(db);
  // The probe is on while an assistant's key is set: the audit form then says what it sends.
  const probesOn = config.probe.assistants.length > 0;
  // One bound for everything made for one visitor alone: form pages, their token, posts and check results.
  const perVisitorBound = addressBound(
    new AddressBound({
      ...(deps.formRequestsPerAddress ?? FORM_REQUESTS_PER_ADDRESS),
      onRefusing: (address) => logger.warn({ address }, 'One address keeps more requests for pages made for it alone than the bound lets through: those waiting too long, or past the queue, are refused (429)'),
    }),
  );

  const app = express() as unknown as SiteApp;
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  app.use(requestLog(logger));
  app.use(securityHeaders(https));
  if (aiLedger) app.use(aiLedger.middleware);

  app.get('/healthz', healthCheck(db));

  app.use('/assets', assetFiles(path.join(clientDir, 'assets'), security));
  app.use('/social', socialImages(path.join(clientDir, 'social'), security));
  app.use(publicFiles(path.join(clientDir, 'public')));
  app.use(redirects());
  app.use(seoFiles(config, security));
  app.get(/.*/, pages.twinHandler);
  app.use(
    formRoutes({
      config,
      store: new LeadStore(db),
      clock,
      csrf,
      fillTime: fillTimer(secret, clock),
      minFillMs: deps.minFillMs ?? config.formMinFillMs,
      rateLimit: formRateLimit(logger, deps.formRateLimit),
      addressBound: perVisitorBound,
      onStored: () => deps.mailer.kick(),
      siteChecks: {
        store: checkStore,
        mailWaitMs: deps.siteChecks.mailWaitMs,
        onQueued: () => deps.siteChecks.kick(),
        budget: new StartBudget(deps.checksPerAddressPerHour ?? CHECKS_PER_ADDRESS_PER_HOUR, clock),
      },
      publicChecks: { perAddress: new StartBudget(config.publicChecksPerAddress, clock), perHour: new StartBudget(config.publicChecksPerHour, clock) },
      probes: {
        store: new ProbeStore(db),
        on: probesOn,
        assistants: config.probe.assistants.map((assistant) => ASSISTANTS[assistant.id].label),
        onQueued: () => deps.probes?.kick(),
        budget: new StartBudget(deps.probesPerAddressPerDay ?? probesPerAddressPerDay(config), clock, DAY_MS),
      },
      sendPage: pages.sendPerVisitor,
    }),
  );
  app.use(siteCheckResultRoutes({ store: checkStore, probeFor: probeViews(db, probesOn), sendPage: pages.sendPerVisitor, addressBound: perVisitorBound }));
  // An audit run's report, and a monitored client's page: only a link given out for it (its token's hash is looked up) opens it.
  const runs = new RunStore(db);
  app.use(auditReportRoutes({ reportFor: deps.auditReportFor ?? ((token) => parsedOrNull<AuditDocument>(runs.reportFor(token))), pages, addressBound: perVisitorBound }));
  app.use(monitorReportRoutes({ reportFor: deps.trendFor ?? ((token) => parsedOrNull<TrendDocument>(runs.trendFor(token))), pages, addressBound: perVisitorBound }));
  app.get(/.*/, pages.pageHandler);
  app.use(pages.methodHandler);
  app.use(pages.errorHandler);

  app.fastPages = pages.fastPath;
  app.aiLedger = aiLedger;
  app.warmPages = pages.warm;
  // Pages are served on the event loop that a write waiting for another program's lock blocks:
  // from here on only a visitor's own write waits the full busy timeout.
  waitBrieflyForLocks(db);
  return app;
}
