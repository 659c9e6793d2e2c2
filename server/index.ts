import './production-default';
import type { Server } from 'node:http';
import { createApp } from './app';
import { createHttpServer } from './http-server';
import { ConfigError, loadConfig } from './config';
import { migrate, openDatabase } from './db/database';
import { createLogger } from './logger';
import { emlFileTransport, smtpTransport } from './mail/mail-transport';
import { OutboxWorker } from './mail/outbox-worker';

/** How long SIGTERM waits for requests in flight before it closes them anyway. */
const SHUTDOWN_GRACE_MS = 8000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'Unhandled promise rejection'));

  const db = openDatabase(config.databasePath);
  const schemaVersion = migrate(db);
  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : emlFileTransport(config.mailDir);
  // One clock for the pages, the records they write and the worker that reads them back.
  const clock = () => new Date();
  const mailer = new OutboxWorker({ db, transport, logger, clock, retryBaseMs: config.mailRetryBaseMs });
  const app = createApp({ config, db, logger, mailer, clock });
  await app.warmPages();
  // Mail left unsent before a restart goes out now.
  mailer.start();
  logger.info({ via: transport.description }, 'Mail outbox started');

  const server: Server = createHttpServer(app);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    logger.info({ url: `http://${host}:${port}`, siteUrl: config.siteUrl, database: config.databasePath, schemaVersion }, 'Listening');
  });
  server.keepAliveTimeout = 5000;
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'The server could not listen');
    process.exit(1);
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'Shutting down: no new connections, finishing requests in flight');
    // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
    server.closeIdleConnections();
    const force = setTimeout(() => {
      logger.warn('Requests still open after the grace period; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(() => {
      // A send in progress finishes (its own timeouts bound it) before the database closes.
      void mailer.stop().finally(() => {
        transport.close();
        db.close();
        logger.info('Stopped');
        process.exit(0);
      });
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
