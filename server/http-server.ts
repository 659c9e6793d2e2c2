import { createServer, type Server } from 'node:http';
import type { SiteApp } from './app';

/**
 * The HTTP server: the fast path for cached shared pages first, Express for everything else.
 * (On a page that is only bytes from memory, Express's middleware stack would take most of the
 * time; see the README's Performance section.)
 */
export function createHttpServer(app: SiteApp): Server {
  return createServer((req, res) => {
    if (!app.fastPages.handle(req, res)) app(req, res);
  });
}
