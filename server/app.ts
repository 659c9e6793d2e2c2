import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { AppConfig } from '../client/app-config';
import type { FormName, FormState } from '../client/components/forms/form-state';
import { appRoutes, matchAppRoute, NOT_FOUND_PATH, type AppRoute } from '../client/routes';
import { routesPaths } from '../shared/site';
import type { Config } from './config';
import { isDatabaseReadable, type Db } from './db/database';
import { cookieSigningSecret, csrfProtection } from './http/csrf';
import { fillTimer, MIN_FILL_MS } from './http/fill-time';
import { formRateLimit } from './http/rate-limit';
import { redirects } from './http/redirects';
import { fastPages, requestId, type FastPages } from './http/fast-pages';
import { hashedAssets } from './http/hashed-assets';
import { publicFiles } from './http/public-files';
import { buildCsp, securityHeaders, staticSecurityHeaders } from './http/security-headers';
import { formRoutes } from './leads/form-routes';
import { LeadStore } from './leads/lead-store';
import type { Logger } from './logger';
import { readAssetManifest } from './render/assets';
import type { RenderedDocument } from './render/document';
import { GzipTemplate } from './render/gzip-template';
import { isNotModified, negotiateEncoding, PageCache, toCachedPage, type CachedPage, type Encoding } from './render/page-cache';
import { renderErrorPage, renderRoute, type RenderContext } from './render/render-page';
import { seoFiles } from './seo/seo-router';

/** What the app needs of the mail outbox: a nudge after a lead is stored. */
export interface MailOutbox {
  kick(): void;
}

export interface AppDependencies {
  config: Config;
  db: Db;
  logger: Logger;
  /** Sends stored mail; the process passes the outbox worker. */
  mailer: MailOutbox;
  /** The clock pages and records read, shared with the mail worker; tests pass one they move. */
  clock: () => Date;
  /** The route table; tests may pass one with a route that throws. */
  routes?: AppRoute[];
  /** Where the build put the client bundle (dist/client). */
  clientDir?: string;
  /** Form POSTs allowed per client address per window (tests lower it). */
  formRateLimit?: { limit: number; windowMs: number };
  /** The least time between showing a form and its post that counts as a person (tests lower it). */
  minFillMs?: number;
}

export interface SiteApp extends Express {
  /** Renders every page into the cache; the process calls it before it listens. */
  warmPages(): Promise<void>;
  /** The node:http fast path for shared pages, which server/http-server.ts puts before Express. */
  fastPages: FastPages;
}
/** Form pages are rendered once with these in place of the tokens, then filled per response. */
const TOKEN_PLACEHOLDER = 'csrf-token-placeholder-8d1f3c';
const FORM_STARTED_PLACEHOLDER = 'form-started-placeholder-5e2a7b';

/** Compresses a page made for one response; brotli quality 5 is a few milliseconds for most of its gain. */
function compressOnce(identity: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'br') return brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
  return encoding === 'gzip' ? gzipSync(identity) : identity;
}

/** Builds the Express app from its dependencies. It does not listen: server/index.ts does. */
export function createApp(deps: AppDependencies): SiteApp {
  const { config, db, logger } = deps;
  const { clock } = deps;
  const routes = deps.routes ?? appRoutes;
  const clientDir = deps.clientDir ?? path.resolve(__dirname, '..', 'client');
  const https = config.siteUrl.startsWith('https:');
  const context: RenderContext = {
    config: { siteUrl: config.siteUrl, bookingUrl: config.bookingUrl, year: clock().getUTCFullYear() } satisfies AppConfig,
    assets: readAssetManifest(clientDir),
  };
  const secret = cookieSigningSecret(db);
  const csrf = csrfProtection(secret, https);
  const fillTime = fillTimer(secret, clock);
  const store = new LeadStore(db);

  const fast = fastPages(staticSecurityHeaders(https), logger);
  const pages = new PageCache(async (key) => {
    const route = matchAppRoute(routes, key);
    const formState: FormState | undefined = route.perVisitor ? { csrfToken: TOKEN_PLACEHOLDER, formStarted: FORM_STARTED_PLACEHOLDER } : undefined;
    const document = await renderRoute(routes, route, key, context, formState);
    const page = toCachedPage(route.status ?? 200, document, https);
    // Shared pages may skip Express; form pages and the 404 (which logs its path) may not.
    if (!route.perVisitor && route.path === key) fast.add(key, page);
    return page;
  });

  const app = express() as unknown as SiteApp;
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = requestId(req.headers['x-request-id']);
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
  app.use('/assets', hashedAssets(path.join(clientDir, 'assets')));
  app.use(publicFiles(path.join(clientDir, 'public')));

  app.use(redirects());
  app.use(seoFiles(config));

  /** Sends a page that no cache may keep: it carries this visitor's token. */
  const sendPrivate = (req: Request, res: Response, status: number, csp: string, encoding: Encoding, body: Buffer) => {
    res.status(status);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Vary', 'Accept-Encoding, Cookie');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  /** A page rendered for one request (a form given back with its errors, the thanks on /contact). */
  const sendDocument = (req: Request, res: Response, status: number, document: RenderedDocument) => {
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    const csp = buildCsp({ scriptHashes: document.scriptHashes, styleHashes: document.styleHashes }, https);
    sendPrivate(req, res, status, csp, encoding, compressOnce(Buffer.from(document.html, 'utf8'), encoding));
  };

  /**
   * A form page as rendered once, with this visitor's token and fill-time note put in. Gzip comes
   * from the page's precompressed template (microseconds instead of compressing 30 KB each time,
   * which kept these pages' 99th percentile near its 50 ms limit under load).
   */
  const formTemplates = new WeakMap<CachedPage, { text: string; gzip: GzipTemplate }>();
  const sendFormTemplate = (req: Request, res: Response, page: CachedPage, token: string, formStarted: string) => {
    let template = formTemplates.get(page);
    if (template === undefined) {
      const text = page.identity.toString('utf8');
      template = { text, gzip: new GzipTemplate(text, [TOKEN_PLACEHOLDER, FORM_STARTED_PLACEHOLDER]) };
      formTemplates.set(page, template);
    }
    const encoding = negotiateEncoding(req.headers['accept-encoding'], 'gzip');
    const body =
      encoding === 'gzip'
        ? template.gzip.gzip([token, formStarted])
        : compressOnce(Buffer.from(template.text.replaceAll(TOKEN_PLACEHOLDER, token).replaceAll(FORM_STARTED_PLACEHOLDER, formStarted), 'utf8'), encoding);
    sendPrivate(req, res, page.status, page.csp, encoding, body);
  };

  const formPaths: Record<FormName, string> = { audit: routesPaths.freeAudit, contact: routesPaths.contact };
  const sendFormPage = async (req: Request, res: Response, form: FormName, state: FormState, status: number) => {
    const route = matchAppRoute(routes, formPaths[form]);
    sendDocument(req, res, status, await renderRoute(routes, route, route.path, context, state));
  };

  // The token a client-side navigation to a form page asks for (the page it came from had none).
  app.get('/csrf-token', csrf.cookies, csrf.protect, (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json({ token: req.csrfToken(), formStarted: fillTime.issue() });
  });

  app.use(
    formRoutes({
      config,
      store,
      logger,
      clock,
      csrf,
      fillTime,
      minFillMs: deps.minFillMs ?? MIN_FILL_MS,
      rateLimit: formRateLimit(logger, deps.formRateLimit),
      onStored: () => deps.mailer.kick(),
      sendFormPage,
    }),
  );

  // The same headers the fast path sends (page.headers); helmet has set the security ones.
  const sendPage = (req: Request, res: Response, page: CachedPage) => {
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    if (page.status === 200 && isNotModified(page, req.headers['if-none-match'])) {
      res.writeHead(304, page.notModifiedHeaders[encoding]).end();
      return;
    }
    res.writeHead(page.status, page.headers[encoding]);
    res.end(req.method === 'HEAD' ? undefined : page[encoding]);
  };

  app.get(/.*/, csrf.cookies, async (req, res, next) => {
    try {
      const route = matchAppRoute(routes, req.path);
      if (route.path === NOT_FOUND_PATH) {
        req.log.warn({ path: req.path }, 'Page not found');
        // Every unknown path shows the same page, so it is rendered once.
        sendPage(req, res, await pages.get('/404'));
        return;
      }
      if (!route.perVisitor) {
        sendPage(req, res, await pages.get(route.path));
        return;
      }
      await new Promise<void>((resolve, reject) => csrf.protect(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
      const token = req.csrfToken();
      if (route.path === routesPaths.contact && req.query.sent === '1') {
        sendDocument(req, res, 200, await renderRoute(routes, route, route.path, context, { csrfToken: token, formStarted: fillTime.issue(), form: 'contact', sent: true }));
        return;
      }
      sendFormTemplate(req, res, await pages.get(route.path), token, fillTime.issue());
    } catch (error) {
      next(error);
    }
  });

  // Whatever no handler answered (another method on a page, an unknown path with POST): our own
  // answer, so that it keeps the full CSP instead of Express's default page and policy.
  const formPathSet = new Set(Object.values(formPaths));
  app.use((req, res) => {
    const known = matchAppRoute(routes, req.path).path !== NOT_FOUND_PATH;
    if (known) {
      res.setHeader('Allow', formPathSet.has(req.path) ? 'GET, HEAD, POST' : 'GET, HEAD');
      res.status(405).type('text/plain').send('Method not allowed');
      return;
    }
    res.status(404).type('text/plain').send('Not found');
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
      .then((document) => sendDocument(req, res, 500, document))
      .catch((renderError: unknown) => {
        req.log.error({ err: renderError }, 'The error page failed to render');
        res.status(500).type('text/plain').send('Unexpected Application Error! 500 Internal Server Error');
      });
  };
  app.use(onError);

  app.fastPages = fast;
  app.warmPages = async () => {
    const started = Date.now();
    const keys = routes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path);
    await Promise.all([...keys, '/404'].map((key) => pages.get(key)));
    logger.info({ pages: keys.length + 1, ms: Date.now() - started }, 'Pages rendered into memory');
  };
  return app;
}
