import './production-default';
import './private-files';
import type { Server } from 'node:http';
import path from 'node:path';
import { createApp } from './app';
import { BackupSchedule, backupCommand } from './backup/backup-schedule';
import { exitOnConfigError, loadConfig } from './config';
import { migrate, openConfigured, openDatabase } from './db/database';
import { createHttpServer } from './http-server';
import { LeadStore } from './leads/lead-store';
import { loadAiSources } from './ledger/ai-sources';
import { createLogger, type Logger } from './logger';
import { emlFileTransport, smtpTransport } from './mail/mail-transport';
import { OutboxWorker } from './mail/outbox-worker';
import { placeholderContent } from './placeholder-content';
import { formatFinding } from '../shared/launch-check';
import { site } from '../shared/site';
import { siteCheckDelivery } from './leads/site-check-delivery';
import { MAIL_WAITS_FOR_CHECK_MS, SiteCheckWorker } from './site-check/check-worker';
import { SiteCheckStore } from './site-check/check-store';
import { createSiteChecker } from './site-check/site-checker';
import { probeDelivery } from './leads/probe-delivery';
import { createProber } from './visibility-probe/prober';
import { ProbeWorker } from './visibility-probe/probe-worker';
import { withoutPrivateLinks } from './reports/private-addresses';
import { RunStore } from './runs/run-store';
import { neverFits, runCalls, runShape } from './runs/run-budget';
import { createRunWorker } from './runs/run-machine';

/** How long SIGTERM waits for requests in flight before it closes them anyway. */
const SHUTDOWN_GRACE_MS = 8000;
/**
 * How long, after the last request, the stop waits for a mail being sent. Within it, the mail is
 * sent and recorded exactly once; past it, it stays in the outbox and goes out at the next start.
 */
const MAIL_STOP_GRACE_MS = 1500;
/** How long the stop waits for site checks in progress; the rest run again at the next start. */
const CHECK_STOP_GRACE_MS = 1000;
/** How long the stop waits for a visibility probe in progress; an unfinished one runs again at the next start. */
const PROBE_STOP_GRACE_MS = 1000;
/** How long the stop waits for a run in progress (an audit's or a client's); an unfinished one is put back and resumes at the next start, with the answers it kept. */
const RUN_STOP_GRACE_MS = 1000;
/** How often the outbox looks for mail an ops command queued (a report sent with `npm run audit -- --send`). */
const OPS_MAIL_POLL_MS = 2000;
/** How often held submissions and public checks past their retention are deleted (and once at start). */
const QUARANTINE_PURGE_EVERY_MS = 6 * 60 * 60 * 1000;
/** Days a public AI-readiness check is kept (the privacy policy states 30: change both together). */
const PUBLIC_CHECK_DAYS = 30;

/** Lets the asynchronous log be written (300 ms at most: an output that fails or stopped cannot hold the exit), then exits. */
function exitAfterLogs(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  setTimeout(exit, 300).unref();
  logger.flush(exit);
}

async function main(): Promise<void> {
  const config = exitOnConfigError(() => loadConfig());
  const logger = createLogger(config.logLevel);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'Unhandled promise rejection'));
  // Until the server listens nothing is served or being sent, so a stop during start-up (the
  // pages being rendered into memory) has nothing to finish: it ends the process at once, with 0.
  // One listener for the process's life: removing the last one would drop a signal not yet handled.
  let stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'Stopped during start-up');
    exitAfterLogs(logger, 0);
  };
  process.on('SIGTERM', (signal) => stop(signal));
  process.on('SIGINT', (signal) => stop(signal));

  // A public (https) site must not go live with contact details that reach nobody, a placeholder
  // company registration or invented reviews: the same list `npm run launch-check` prints.
  if (config.siteUrl.startsWith('https:')) {
    const findings = placeholderContent(config).map(formatFinding);
    if (findings.length > 0 && !config.allowPlaceholderContent) {
      logger.error(
        { siteUrl: config.siteUrl, findings },
        `Refusing to start on ${config.siteUrl}: ${findings.length} placeholder or illustrative content items remain (listed in "findings"; \`npm run launch-check\` prints them). Replace them, or set ALLOW_PLACEHOLDER_CONTENT=1 to start anyway`,
      );
      exitAfterLogs(logger, 1);
      return;
    }
    if (findings.length > 0) logger.warn({ findings }, `Starting with ${findings.length} placeholder or illustrative content items because ALLOW_PLACEHOLDER_CONTENT=1`);
  }

  // The site check judges robots.txt for the same AI agents the ledger counts.
  const aiSources = exitOnConfigError(() => loadAiSources(config.aiSourcesFile));
  const { db, schemaVersion } = exitOnConfigError(() =>
    openConfigured(config.databasePath, (file) => {
      const db = openDatabase(file);
      return { db, schemaVersion: migrate(db) };
    }),
  );
  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : emlFileTransport(config.mailDir);
  // One clock for the pages, the records they write and the worker that reads them back.
  const clock = () => new Date();
  // A report's private link stays in a mail only until it is sent: the outbox keeps the mail, not the secret.
  const mailer = new OutboxWorker({ db, transport, logger, clock, retryBaseMs: config.mailRetryBaseMs, pollMs: OPS_MAIL_POLL_MS, keptOnceSent: (stored) => withoutPrivateLinks(stored, config.siteUrl) });
  const store = new LeadStore(db);
  if (config.siteCheckAllow.length > 0) {
    logger.warn({ siteCheckAllow: config.siteCheckAllow }, 'SITE_CHECK_ALLOW is set: the site check may reach these addresses on any port (for staging and tests only)');
  }
  const deliverCheck = siteCheckDelivery(store, config, clock);
  const checker = createSiteChecker({ brand: site.brand, siteUrl: config.siteUrl, allow: config.siteCheckAllow, agents: aiSources.agents.map((agent) => agent.match), clock, priority: config.backgroundPriority });
  const siteChecks = new SiteCheckWorker({
    db,
    logger,
    clock,
    checker,
    deliver: (finished) => {
      const delivery = deliverCheck(finished);
      logger.info({ checkId: finished.checkId, auditId: finished.auditId, delivery }, 'Site check findings mailed');
    },
    onDelivered: () => {
      mailer.kick();
      // A probe waits for its request's site check, which reads the business's name.
      probes?.kick();
    },
  });
  // The AI visibility probe, and the audit's full runs, run only while an assistant's key is set.
  const deliverProbe = probeDelivery(store, new SiteCheckStore(db), config, clock);
  const runStore = new RunStore(db);
  const shape = runShape(config);
  // Every full run, an audit request's and a monitored client's, on one worker: one at a time,
  // each rule of the day's calls, erasure, retries and resumption written once (server/runs/).
  const runs = config.probe.assistants.length === 0 ? null : createRunWorker(config, { db, logger, clock, checker, onDelivered: () => mailer.kick() });
  // AUDIT_AUTO=1: the calls of a lead's full run, asked for by its probe (a run no day could hold is never queued).
  const autoRunCalls = runCalls(config.audit.promptsPerAssistant, shape);
  const autoRunRefused = neverFits(autoRunCalls, config.probe.dailyCalls, 'Set a lower AUDIT_PROMPTS');
  if (config.audit.auto && autoRunRefused) logger.warn({ calls: autoRunCalls, dailyCalls: config.probe.dailyCalls }, `AUDIT_AUTO=1 queues no run: ${autoRunRefused}`);
  const probes =
    config.probe.assistants.length === 0
      ? null
      : new ProbeWorker({
          db,
          logger,
          clock,
          prober: createProber({ assistants: config.probe.assistants, promptsPerAssistant: config.probe.promptsPerAssistant, clock, priority: config.backgroundPriority }),
          dailyCalls: config.probe.dailyCalls,
          deliver: (finished) => {
            const delivery = deliverProbe(finished);
            logger.info({ probeId: finished.probeId, auditId: finished.auditId, delivery }, 'Visibility probe results mailed');
            // AUDIT_AUTO=1: a lead whose probe asked every question gets its full audit run, queued
            // with the probe's record. Held submissions are no leads: they have no probe.
            if (config.audit.auto && !autoRunRefused && finished.report.status === 'done' && delivery !== 'lead erased') {
              const runId = runStore.enqueue({ for: { audit: finished.auditId }, trigger: 'auto', prompts: config.audit.promptsPerAssistant, shape }, clock());
              logger.info({ runId, auditId: finished.auditId }, 'Audit run queued (AUDIT_AUTO=1)');
            }
          },
          onDelivered: () => {
            mailer.kick();
            runs?.kick();
          },
        });
  logger.info({ assistants: config.probe.assistants.map((assistant) => assistant.id) }, probes ? 'AI visibility probe on' : 'AI visibility probe not configured (no assistant key set)');
  const app = createApp({
    config,
    db,
    logger,
    mailer,
    clock,
    aiSources,
    siteChecks: { kick: () => siteChecks.kick(), mailWaitMs: MAIL_WAITS_FOR_CHECK_MS },
    ...(probes ? { probes } : {}),
  });
  app.aiLedger?.start();
  await app.warmPages();

  const checkStore = new SiteCheckStore(db);
  const purge = () => {
    try {
      const deleted = store.purgeQuarantine(clock(), config.quarantineDays);
      if (deleted > 0) logger.info({ deleted, olderThanDays: config.quarantineDays }, 'Held submissions past their retention deleted');
      const checks = checkStore.purgeAskedAlone(new Date(clock().getTime() - PUBLIC_CHECK_DAYS * 86_400_000));
      if (checks > 0) logger.info({ deleted: checks, olderThanDays: PUBLIC_CHECK_DAYS }, 'AI-readiness checks past their retention deleted');
    } catch (error) {
      logger.error({ err: error }, 'Data past its retention could not be deleted (tried again in 6 hours)');
    }
  };
  let purgeTimer: NodeJS.Timeout | undefined;
  // dist/server/index.js runs dist/scripts/backup.js (npm run backup) on the schedule. It is the
  // server's own program, not a reader of what strangers send: it gets the server's environment.
  const backups = BackupSchedule.fromConfig(config, { clock, logger, take: backupCommand(path.join(__dirname, '..', 'scripts', 'backup.js'), { ...process.env, DATABASE_PATH: config.databasePath }) });

  /**
   * The background work starts once the site answers: what a restart finds (mail left unsent,
   * checks and probes queued or cut short, retention to apply) must not keep the first visitor,
   * or the health check, waiting.
   */
  const startBackgroundWork = () => {
    mailer.start();
    logger.info({ via: transport.description }, 'Mail outbox started');
    siteChecks.start();
    probes?.start();
    runs?.start();
    purge();
    purgeTimer = setInterval(purge, QUARANTINE_PURGE_EVERY_MS);
    purgeTimer.unref();
    backups.start();
  };

  let stopping = false;
  const server: Server = createHttpServer(app);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    logger.info({ url: `http://${host}:${port}`, siteUrl: config.siteUrl, database: config.databasePath, schemaVersion }, 'Listening');
    if (!stopping) startBackgroundWork();
  });
  server.keepAliveTimeout = 5000;
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'The server could not listen');
    exitAfterLogs(logger, 1);
  });

  stop = (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'Shutting down: no new connections, finishing requests in flight');
    clearInterval(purgeTimer);
    backups.stop();
    // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
    server.closeIdleConnections();
    const force = setTimeout(() => {
      logger.warn('Requests still open after the grace period; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(() => {
      // However many mails wait, none is started now; the one being sent may finish. A check
      // still running, or a probe, stays queued and runs again at the next start.
      void Promise.all([mailer.stop(MAIL_STOP_GRACE_MS), siteChecks.stop(CHECK_STOP_GRACE_MS), probes?.stop(PROBE_STOP_GRACE_MS), runs?.stop(RUN_STOP_GRACE_MS)]).then(([settled]) => {
        if (!settled) logger.warn('A mail was still being sent at shutdown: it stays in the outbox and is sent at the next start');
        transport.close();
        app.aiLedger?.stop();
        // A send still waiting for its answer may yet be accepted before the process ends: the
        // database stays open to record it (the exit closes it; every commit is already on disk).
        if (settled) db.close();
        logger.info('Stopped');
        exitAfterLogs(logger, 0);
      });
    });
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
