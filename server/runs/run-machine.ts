import { site } from '../../shared/site';
import type { BackgroundPriority, Config } from '../config';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import type { SiteChecker } from '../site-check/site-checker';
import { AuditRuns } from './audit-runs';
import { ClientRuns } from './client-runs';
import { runShape } from './run-budget';
import { createRunner, type Runner } from './runner';
import { RunWorker } from './run-worker';

/**
 * The run machine as the configuration makes it: one worker for both kinds of run, an audit
 * request's and a monitored client's, each asking the configured assistants (and its direct
 * questions, and its judge) within the day's calls. The server starts it; the tests start the
 * same one.
 */
export function createRunWorker(
  config: Config,
  parts: {
    db: Db;
    logger: Logger;
    clock: () => Date;
    checker: SiteChecker;
    /** After a run's mails are committed: the outbox is nudged. */
    onDelivered?: () => void;
    /** Tests only: a runner that misbehaves; the configured one by default. */
    runner?: Runner;
    /** Tests only, on a busy machine: the runs' processes at normal priority (BACKGROUND_PRIORITY by default). */
    priority?: BackgroundPriority;
  },
): RunWorker {
  const { db, logger, clock, checker } = parts;
  const mail = { mailFrom: config.mailFrom, mailTo: config.mailTo, siteUrl: config.siteUrl, brand: site.brand };
  const runner =
    parts.runner ??
    createRunner({ assistants: config.probe.assistants, promptsPerAssistant: config.audit.promptsPerAssistant, aboutPrompts: config.audit.factPrompts, judge: config.judge, clock, priority: parts.priority ?? config.backgroundPriority });
  return new RunWorker({
    db,
    logger,
    clock,
    checker,
    runner,
    dailyCalls: config.probe.dailyCalls,
    kinds: [
      new AuditRuns(db, { ...mail, autoSend: config.audit.autoSend }),
      new ClientRuns(db, { ...mail, shape: runShape(config), intervalDays: config.monitor.intervalDays, sendToClients: config.monitor.send }),
    ],
    ...(parts.onDelivered ? { onDelivered: parts.onDelivered } : {}),
  });
}
