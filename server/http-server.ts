import { createServer, type Server } from 'node:http';
import type { SiteApp } from './app';

/**
 * The HTTP server: the fast path for cached shared pages first, Express for everything else.
 * (Express's middleware stack costs about three quarters of the throughput on a page that is
 * only bytes from memory; see the README's Performance section.)
 */
export function createHttpServer(app: SiteApp): Server {
  return createServer((req, res) => {
    if (!app.fastPages.handle(req, res)) app(req, res);
  });
}
