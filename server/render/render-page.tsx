import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { ServerStyleSheet, version as styledVersion } from 'styled-components';
import { App } from '../../client/app';
import { AppConfigProvider, type AppConfig } from '../../client/app-config';
import { FormStateProvider, type FormState } from '../../client/components/forms/form-state';
import { HeadCollectorProvider, type HeadCollector, type HeadData } from '../../client/head/page-head';
import { loadPage } from '../../client/lazy-page';
import { ErrorPage } from '../../client/pages/error-page';
import type { AppRoute } from '../../client/routes';
import type { AssetManifest } from './assets';
import { renderDocument, type RenderedDocument } from './document';

/** Renders a React tree to a string with React 19's streaming renderer, waiting for all of it. */
function renderToStringAllReady(tree: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failure: unknown = null;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        callback();
        if (failure) reject(failure);
        else resolve(Buffer.concat(chunks).toString('utf8'));
      },
    });
    const stream = renderToPipeableStream(tree, {
      // React outlines a large Suspense boundary and reveals it with an inline script, which the
      // CSP blocks. The page is sent only when complete, so nothing gains from outlining.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady() {
        stream.pipe(sink);
      },
      onShellError(error) {
        reject(error);
      },
      // An error inside a Suspense boundary does not stop the stream; it still fails the page.
      onError(error) {
        failure ??= error;
      },
    });
  });
}

export interface RenderContext {
  config: AppConfig;
  assets: AssetManifest;
}

/** `routePath` null: a page that must not hydrate (no scripts at all). */
function renderWithStyles(tree: ReactNode, context: RenderContext, routePath: string | null, formState?: FormState): Promise<RenderedDocument> {
  const sheet = new ServerStyleSheet();
  const collector: HeadCollector = {};
  return renderToStringAllReady(
    sheet.collectStyles(
      <HeadCollectorProvider value={collector}>
        <AppConfigProvider value={context.config}>
          <FormStateProvider value={formState ?? { csrfToken: '' }}>{tree}</FormStateProvider>
        </AppConfigProvider>
      </HeadCollectorProvider>,
    ),
  )
    .then((bodyHtml) => {
      const head: HeadData | undefined = collector.head;
      if (!head) throw new Error('The page rendered no <PageHead>');
      return renderDocument({
        head,
        bodyHtml,
        css: sheet.instance.toString(),
        styledVersion,
        config: context.config,
        assets: routePath === null ? null : context.assets,
        ...(routePath === null ? {} : { routePath }),
        ...(formState ? { formState } : {}),
      });
    })
    .finally(() => sheet.seal());
}

/**
 * Renders one route of the table as a whole HTML document. Rejects when the page throws. Form
 * pages pass their form state (with a placeholder token when the result is cached).
 */
export async function renderRoute(routes: AppRoute[], route: AppRoute, pathname: string, context: RenderContext, formState?: FormState): Promise<RenderedDocument> {
  await loadPage(route);
  return renderWithStyles(
    <StaticRouter location={pathname}>
      <App routes={routes} />
    </StaticRouter>,
    context,
    route.path,
    formState,
  );
}

/**
 * The 500 page: header, footer and SPEC's 'Unexpected Application Error!'. It carries no script,
 * so a broken page cannot fail a second time in the browser. The message is shown only outside
 * production, so no internals reach a visitor.
 */
export function renderErrorPage(pathname: string, context: RenderContext, message?: string): Promise<RenderedDocument> {
  return renderWithStyles(
    <StaticRouter location={pathname}>
      <App routes={[]}>
        <ErrorPage status={500} statusText="Internal Server Error" {...(message ? { message } : {})} />
      </App>
    </StaticRouter>,
    context,
    null,
  );
}
