import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { ServerStyleSheet, version as styledVersion } from 'styled-components';
import { loadFrame, loadRoute, ServerApp, ServerErrorApp, ServerStaticApp, type HeadCollector } from '../../client/entry.server';
import type { AppRoute } from '../../client/routes';
import type { AppConfig } from '../../shared/app-config';
import type { FormState } from '../../shared/forms/form-contract';
import type { AssetManifest } from './asset-manifest';
import { renderDocument, type RenderedDocument } from './document';
import { CollectStyles } from './page-styles';

/** Renders a React tree to a string with React 19's streaming renderer, waiting for all of it. */
function renderStreamed(tree: ReactNode): Promise<string> {
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

/** What renderToString leaves where a Suspense boundary waited for a part still loading. */
const LEFT_TO_THE_BROWSER = '<!--$!-->';

interface RenderedBody {
  bodyHtml: string;
  css: string;
  head: HeadCollector['head'];
}

/** One render of the tree, collecting its styles and its <PageHead>. */
async function renderBody(tree: (head: HeadCollector) => ReactNode, render: (tree: ReactNode) => string | Promise<string>): Promise<RenderedBody> {
  const sheet = new ServerStyleSheet();
  const collector: HeadCollector = {};
  try {
    const bodyHtml = await render(<CollectStyles sheet={sheet}>{tree(collector)}</CollectStyles>);
    return { bodyHtml, css: sheet.instance.toString(), head: collector.head };
  } finally {
    sheet.seal();
  }
}

/**
 * Once every part of a page is loaded (loadRoute and loadFrame load them before the first render),
 * React's synchronous renderer does the work at a fraction of the streaming renderer's cost: that
 * is what lets a form page be rendered for each visitor. A part still loading on demand that those
 * do not know of makes it throw (in the shell) or leave a Suspense boundary for the browser to
 * fill; then the streaming renderer renders the page again and waits for that part. A page that
 * throws fails in both, and the streaming renderer reports its error.
 */
async function renderPage(tree: (head: HeadCollector) => ReactNode): Promise<RenderedBody> {
  try {
    const rendered = await renderBody(tree, renderToString);
    if (!rendered.bodyHtml.includes(LEFT_TO_THE_BROWSER)) return rendered;
  } catch {
    // Rendered again below, by the renderer that waits.
  }
  return renderBody(tree, renderStreamed);
}

/** `routePath` null: a page that must not hydrate (no app script). */
async function renderWithStyles(
  tree: (head: HeadCollector) => ReactNode,
  context: RenderContext,
  routePath: string | null,
  formState?: FormState,
  structuredData = true,
): Promise<RenderedDocument> {
  const { bodyHtml, css, head } = await renderPage(tree);
  if (!head) throw new Error('The page rendered no <PageHead>');
  return renderDocument({
    head,
    bodyHtml,
    css,
    styledVersion,
    config: context.config,
    assets: routePath === null ? null : context.assets,
    ...(routePath === null ? {} : { routePath }),
    ...(formState ? { formState } : {}),
    structuredData,
  });
}

/** Renders one route of the table as a whole HTML document. Rejects when the page throws. */
export async function renderRoute(routes: AppRoute[], route: AppRoute, pathname: string, context: RenderContext, formState?: FormState): Promise<RenderedDocument> {
  await loadRoute(route);
  return renderWithStyles(
    (head) => <ServerApp routes={routes} location={pathname} config={context.config} formState={formState} head={head} />,
    context,
    route.path,
    formState,
  );
}

/**
 * The 500 page: header, footer and 'Unexpected Application Error!'. It carries no script, so a
 * broken page cannot fail a second time in the browser.
 */
export async function renderErrorPage(pathname: string, context: RenderContext, message?: string): Promise<RenderedDocument> {
  await loadFrame();
  return renderWithStyles(
    (head) => <ServerErrorApp location={pathname} config={context.config} head={head} message={message} />,
    context,
    null,
  );
}

/**
 * A page outside the route table, in a frame of its own, that carries no script at all (the
 * reports the agency delivers): `location` is the path its links are resolved against, never
 * anything private.
 */
export function renderStaticPage(tree: ReactNode, location: string, context: RenderContext): Promise<RenderedDocument> {
  return renderWithStyles(
    (head) => (
      <ServerStaticApp location={location} config={context.config} head={head}>
        {tree}
      </ServerStaticApp>
    ),
    context,
    null,
    undefined,
    false,
  );
}
