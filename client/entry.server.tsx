import type { ReactNode } from 'react';
import { StaticRouter } from 'react-router-dom';
import type { AppConfig } from '../shared/app-config';
import { NO_FORM_TOKENS, type FormState } from '../shared/forms/form-contract';
import { App, loadFrame } from './app';
import { AppConfigProvider } from './app-config';
import { FormStateProvider } from './components/forms/form-state';
import { HeadCollectorProvider, type HeadCollector } from './head/page-head';
import { ErrorPage } from './pages/error-page';
import { loadPage } from './lazy-page';
import type { AppRoute } from './routes';

/**
 * What the server renders, the twin of entry.client's hydration root: the app at one location,
 * with the run-time config, the visitor's form state and a collector for the page's <head>.
 */
export interface ServerRenderProps {
  location: string;
  config: AppConfig;
  formState?: FormState | undefined;
  head: HeadCollector;
}

function Providers({ config, formState, head, children }: Omit<ServerRenderProps, 'location'> & { children: ReactNode }) {
  return (
    <HeadCollectorProvider value={head}>
      <AppConfigProvider value={config}>
        <FormStateProvider value={formState ?? NO_FORM_TOKENS}>{children}</FormStateProvider>
      </AppConfigProvider>
    </HeadCollectorProvider>
  );
}

/** A page of the route table (its module must be loaded first: see lazy-page.tsx). */
export function ServerApp({ routes, location, ...props }: ServerRenderProps & { routes: AppRoute[] }) {
  return (
    <Providers {...props}>
      <StaticRouter location={location}>
        <App routes={routes} />
      </StaticRouter>
    </Providers>
  );
}

/** The 500 page in the site's frame; the message is shown only outside production. */
export function ServerErrorApp({ location, message, ...props }: ServerRenderProps & { message?: string | undefined }) {
  return (
    <Providers {...props}>
      <StaticRouter location={location}>
        <App routes={[]}>
          <ErrorPage kind="server" {...(message ? { message } : {})} />
        </App>
      </StaticRouter>
    </Providers>
  );
}

/**
 * A page outside the route table that never hydrates (the reports the agency delivers): the tree
 * draws its own frame, with the site's providers around it so that its links and head work as on
 * every page.
 */
export function ServerStaticApp({ location, children, ...props }: ServerRenderProps & { children: ReactNode }) {
  return (
    <Providers {...props}>
      <StaticRouter location={location}>{children}</StaticRouter>
    </Providers>
  );
}

/** Loads what a page of the route table renders on demand, its frame's and its own, so that its render need not wait. */
export async function loadRoute(route: AppRoute): Promise<void> {
  await Promise.all([loadFrame(), loadPage(route)]);
}

export { loadFrame };
export type { HeadCollector } from './head/page-head';
