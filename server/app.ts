import { randomUUID } from 'node:crypto';
import path from 'node:path';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { AppConfig } from '../client/app-config';
import { appRoutes, matchAppRoute, NOT_FOUND_PATH, type AppRoute } from '../client/routes';
import type { Config } from './config';
import { isDatabaseReadable, type Db } from './db/database';
import { redirects } from './http/redirects';
import { securityHeaders } from './http/security-headers';
import type { Logger } from './logger';
import { readAssetManifest } from './render/assets';
import { isNotModified, negotiateEncoding, PageCache, toCachedPage, type CachedPage } from './render/page-cache';
import { renderErrorPage, renderRoute, type RenderContext } from './render/render-page';

export interface AppDependencies {
  config: Config;
  db: Db;
  logger: Logger;
  /** The clock pages and records read; tests pass a fixed one. */
  clock?: () => Date;
  /** The route table; tests may pass one with a route that throws. */
  routes?: AppRoute[];
  /** Where the build put the client bundle (dist/client). */
  clientDir?: string;
}

export interface SiteApp extends Express {
  /** Renders every page into the cache; the process calls it before it listens. */
  warmPages(): Promise<void>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Builds the Express app from its dependencies. It does not listen: server/index.ts does. */
export function createApp(deps: AppDependencies): SiteApp {
  const { config, db, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  const routes = deps.routes ?? appRoutes;
  const clientDir = deps.clientDir ?? path.resolve(__dirname, '..', 'client');
  const https = config.siteUrl.startsWith('https:');
  const renderContext = (): RenderContext => ({
    config: { siteUrl: config.siteUrl, bookingUrl: config.bookingUrl, year: clock().getUTCFullYear() } satisfies AppConfig,
    assets: readAssetManifest(clientDir),
  });
  const context = renderContext();

  const pages = new PageCache(async (key) => {
    const route = matchAppRoute(routes, key);
    const document = await renderRoute(routes, route, key, context);
    return toCachedPage(route.status ?? 200, document, https);
  });

  const app = express() as unknown as SiteApp;
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  );
  app.use(securityHeaders(https));

  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (isDatabaseReadable(db)) res.json({ status: 'ok' });
    else res.status(503).json({ status: 'unavailable', reason: 'database cannot be read' });
  });

  // Hashed file names never change content, so browsers and CDNs may keep them for a year.
  app.use(
    '/assets',
    express.static(path.join(clientDir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: false,
    }),
  );
  app.use(express.static(path.join(clientDir, 'public'), { index: false, maxAge: '1d' }));

  app.use(redirects());

  const sendPage = (req: Request, res: Response, page: CachedPage) => {
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    res.status(page.status);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', page.csp);
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('ETag', page.etag[encoding]);
    if (page.status === 200 && isNotModified(page, req.headers['if-none-match'])) {
      res.status(304).end();
      return;
    }
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    const body = page[encoding];
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  app.get(/.*/, async (req, res, next) => {
    try {
      const route = matchAppRoute(routes, req.path);
      if (route.path === NOT_FOUND_PATH) {
        req.log.warn({ path: req.path }, 'Page not found');
        // Every unknown path shows the same page, so it is rendered once.
        sendPage(req, res, await pages.get('/404'));
        return;
      }
      sendPage(req, res, await pages.get(route.path));
    } catch (error) {
      next(error);
    }
  });

  const onError: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (status < 500) {
      res.status(status).type('text/plain').send(status === 404 ? 'Not found' : 'Bad request');
      return;
    }
    req.log.error({ err: error }, 'Unhandled error');
    const message = config.isProduction ? undefined : error instanceof Error ? error.message : String(error);
    renderErrorPage(req.path, context, message)
      .then((document) => {
        const page = toCachedPage(500, document, https);
        res.status(500);
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.setHeader('Content-Security-Policy', page.csp);
        res.setHeader('Cache-Control', 'no-store');
        res.end(page.identity);
      })
      .catch((renderError: unknown) => {
        req.log.error({ err: renderError }, 'The error page failed to render');
        res.status(500).type('text/plain').send('Unexpected Application Error! 500 Internal Server Error');
      });
  };
  app.use(onError);

  app.warmPages = async () => {
    const started = Date.now();
    const keys = routes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path);
    await Promise.all([...keys, '/404'].map((key) => pages.get(key)));
    logger.info({ pages: keys.length + 1, ms: Date.now() - started }, 'Pages rendered into memory');
  };
  return app;
}
