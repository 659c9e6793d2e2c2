import type { ReactNode } from 'react';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { matchAppRoute, NOT_FOUND_PATH, type AppRoute } from '../../client/routes';
import { NO_FORM_TOKENS, type FormState } from '../../shared/forms/form-contract';
import { loggedUrl } from '../http/request-log';
import { buildCsp } from '../http/security-headers';
import type { Logger } from '../logger';
import type { RenderedDocument } from './document';
import { fastPath, type FastPath, type FastPathObserver } from './fast-path';
import { twinPath } from '../../shared/markdown-twin';
import { twinRepresentations } from './markdown-twins';
import { negotiateEncoding, prefersMarkdown } from './negotiation';
import { renderErrorPage, renderRoute, renderStaticPage, type RenderContext } from './render';
import { compressOnce, precompress, type Representation, type ResponseMeta } from './representation';
import { send } from './send';
import { loadOnce, oncePerKey } from '../../shared/load-once';

export interface SitePagesOptions {
  routes: AppRoute[];
  context: RenderContext;
  /** The security headers every response carries (server/http/security-headers.ts). */
  security: Record<string, string>;
  https: boolean;
  logger: Logger;
  /** Outside production the error page shows the error's message. */
  showErrors: boolean;
  /** Told of each request the fast path answers (the AI ledger). */
  observe?: FastPathObserver | undefined;
  /** Query parameters that make a page one visitor's own, never the shared copy (see fastPath). */
  privateParams?: readonly string[];
}

export interface SitePages {
  /** The shared pages, for server/http-server.ts to answer before Express. */
  fastPath: FastPath;
  /** Renders every shared page into memory; the process calls it before it listens. */
  warm(): Promise<void>;
  /** GET of a page's Markdown twin (/blog/x.md), or of a page by a client that prefers text/markdown. */
  twinHandler: RequestHandler;
  /** GET of a path no earlier handler took: its page, or the not-found page. */
  pageHandler: RequestHandler;
  /**
   * Renders a form page for one visitor (as first shown with the visitor's token, given back with
   * its values and errors, or saying it was sent) and sends it.
   */
  sendPerVisitor(req: Request, res: Response, path: string, state: FormState, status: number): Promise<void>;
  /** Renders a page outside the route table that carries no script (server/reports/): see renderStaticPage. */
  renderStatic(tree: ReactNode, location: string): Promise<RenderedDocument>;
  /** Sends such a page to one visitor as sendPerVisitor does (never cached), with `headers` over the site's own. */
  sendDocument(req: Request, res: Response, document: RenderedDocument, headers: Record<string, string>): void;
  /** Any other method on a path: 405 with Allow on a page, else 404, with the full CSP. */
  methodHandler: RequestHandler;
  /** The last error handler: the 500 page (or a short text for a client error). */
  errorHandler: ErrorRequestHandler;
}

const HTML = 'text/html; charset=utf-8';

/**
 * The site's pages: each shared page rendered once into a precompressed representation, served
 * by the fast path or, for requests the fast path leaves (the 404, a page not warmed yet), by
 * Express through the same send(); pages for one visitor rendered and compressed per response.
 */
export function sitePages({ routes, context, security, https, logger, showErrors, observe, privateParams }: SitePagesOptions): SitePages {
  const fast = fastPath(logger, observe, privateParams);
  const twins = twinRepresentations(context.config.siteUrl, security);
  const twinAt = new Map([...twins].map(([path, twin]) => [twinPath(path), twin.own]));
  for (const [path, own] of twinAt) fast.add(path, own);
  const headersFor = (document: RenderedDocument, vary: string) => ({
    ...security,
    'Content-Security-Policy': buildCsp({ scriptHashes: document.scriptHashes, styleHashes: document.styleHashes }, https),
    Vary: vary,
  });

  // Each page is rendered once, when the process warms them before it listens, and kept; a
  // render that fails is tried again by the next request for it (shared/load-once.ts).
  const pageAt = oncePerKey((key: string) => loadOnce(() => renderPage(key)));
  async function renderPage(key: string): Promise<Representation> {
    const route = matchAppRoute(routes, key);
    const document = await renderRoute(routes, route, key, context);
    // A page with a Markdown twin answers with it to a client that asks for text/markdown.
    const twin = twins.get(key);
    const vary = twin ? 'Accept, Accept-Encoding' : 'Accept-Encoding';
    const meta: ResponseMeta = { status: route.status ?? 200, contentType: HTML, cacheControl: 'public, no-cache', headers: headersFor(document, vary) };
    const page = precompress(Buffer.from(document.html, 'utf8'), meta);
    // The not-found page logs the path it was asked for, so it stays with Express.
    if (route.path === key) fast.add(key, page, twin?.negotiated);
    return page;
  }

  /** A document made for this response alone: no cache may keep it. */
  const sendOnce = (req: Request, res: Response, status: number, document: RenderedDocument, headers: Record<string, string> = {}) => {
    const vary = twins.has(req.path) ? 'Accept, Accept-Encoding, Cookie' : 'Accept-Encoding, Cookie';
    const meta: ResponseMeta = { status, contentType: HTML, cacheControl: 'private, no-store', headers: { ...headersFor(document, vary), ...headers } };
    send(req, res, compressOnce(Buffer.from(document.html, 'utf8'), meta, negotiateEncoding(req.headers['accept-encoding'])));
  };

  const isPage = (path: string) => matchAppRoute(routes, path).path !== NOT_FOUND_PATH;

  return {
    fastPath: fast,

    async warm() {
      const started = Date.now();
      logger.info('Rendering the pages into memory');
      const pages = routes.filter((route) => route.path !== NOT_FOUND_PATH);
      const shared = pages.filter((route) => !route.perVisitor).map((route) => route.path);
      const forms = pages.filter((route) => route.perVisitor).map((route) => route.path);
      // A form page is rendered for each visitor, and once here too: one that cannot render stops
      // the start instead of failing its first visitor, and its code is loaded before anyone asks.
      const renderForm = (path: string) => renderRoute(routes, matchAppRoute(routes, path), path, context, NO_FORM_TOKENS);
      await Promise.all([...[...shared, '/404'].map((key) => pageAt(key).load()), ...forms.map(renderForm)]);
      logger.info({ pages: shared.length + 1, forms: forms.length, ms: Date.now() - started }, 'Pages rendered into memory');
    },

    twinHandler: (req, res, next) => {
      const own = twinAt.get(req.path);
      const negotiated = own ? undefined : twins.get(req.path)?.negotiated;
      if (own) send(req, res, own);
      else if (negotiated && prefersMarkdown(req.headers.accept)) send(req, res, negotiated);
      else next();
    },

    pageHandler: async (req, res, next) => {
      try {
        const route = matchAppRoute(routes, req.path);
        if (route.path === NOT_FOUND_PATH) {
          req.log.warn({ path: loggedUrl(req.path) }, 'Page not found');
          // Every unknown path shows the same page, so it is rendered once.
          send(req, res, await pageAt('/404').load());
          return;
        }
        if (route.perVisitor) throw new Error(`${route.path} is rendered per visitor: its own route must answer it`);
        send(req, res, await pageAt(route.path).load());
      } catch (error) {
        next(error);
      }
    },

    async sendPerVisitor(req, res, path, state, status) {
      sendOnce(req, res, status, await renderRoute(routes, matchAppRoute(routes, path), path, context, state));
    },

    renderStatic: (tree, location) => renderStaticPage(tree, location, context),

    sendDocument(req, res, document, headers) {
      sendOnce(req, res, 200, document, headers);
    },

    methodHandler: (req, res) => {
      if (!isPage(req.path)) {
        res.status(404).type('text/plain').send('Not found');
        return;
      }
      res.setHeader('Allow', matchAppRoute(routes, req.path).perVisitor ? 'GET, HEAD, POST' : 'GET, HEAD');
      res.status(405).type('text/plain').send('Method not allowed');
    },

    errorHandler: (error: unknown, req, res, next) => {
      if (res.headersSent) return next(error);
      const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
      if (status < 500) {
        res.status(status).type('text/plain').send(status === 404 ? 'Not found' : 'Bad request');
        return;
      }
      req.log.error({ err: error }, 'Unhandled error');
      const message = showErrors ? (error instanceof Error ? error.message : String(error)) : undefined;
      renderErrorPage(req.path, context, message)
        .then((document) => sendOnce(req, res, 500, document))
        .catch((renderError: unknown) => {
          req.log.error({ err: renderError }, 'The error page failed to render');
          res.status(500).type('text/plain').send('Unexpected Application Error! 500 Internal Server Error');
        });
    },
  };
}
