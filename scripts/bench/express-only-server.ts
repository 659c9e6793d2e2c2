import '../../server/production-default';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { migrate, openDatabase } from '../../server/db/database';
import { createLogger } from '../../server/logger';

/**
 * The site's Express app with nothing in front of it: the same pages from the same memory cache,
 * but every request goes through Express's whole middleware stack (request log, security headers,
 * static files, redirects, SEO files, CSRF cookie parsing, routing). `npm run bench` measures it
 * as a third line, to show what the fast path in server/http-server.ts saves. Run with
 * `node --import tsx`, with HOST and PORT in the environment; mail is never sent.
 */
async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-express-only-'));
  const config = loadConfig({ ...process.env, DATABASE_PATH: path.join(dir, 'site.db') });
  const logger = createLogger(config.logLevel);
  const db = openDatabase(config.databasePath);
  migrate(db);
  const app = createApp({ config, db, logger, mailer: { kick() {} }, siteChecks: { kick() {}, mailWaitMs: 0 }, clock: () => new Date(), clientDir: path.resolve(__dirname, '..', '..', 'dist', 'client') });
  await app.warmPages();
  const server = createServer(app);
  server.keepAliveTimeout = 5000;
  server.listen(config.port, config.host);
  process.on('SIGTERM', () =>
    server.close(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
