import type { ComponentType } from 'react';
import { loadOnce, oncePerKey } from '../shared/load-once';
import { PageLoadError } from './routing/page-load-failure';
import { readLoaded } from './read-loaded';

/*
 * Route-level code splitting without the data router (which would weigh heavily on the
 * JavaScript budget). Each route loads its page module on demand; the server and the hydration
 * entry load the current route before rendering, so the first render is synchronous and matches
 * the server HTML. On a client navigation the page suspends until its chunk arrives, and
 * react-router's transition keeps the previous page on screen meanwhile.
 *
 * A page's code is loaded once (shared/load-once.ts): a render that meets a failed load shows the
 * failure, which the error boundary turns into a full load of the page
 * (routing/page-load-failure.ts).
 */

export type PageComponent = ComponentType;

export interface LazyRoute {
  path: string;
  load: () => Promise<PageComponent>;
}

// Keyed by the route object, not its path: two route tables (tests) may share a path.
const pageOf = oncePerKey((route: LazyRoute) =>
  loadOnce(() =>
    route.load().catch((error: unknown) => {
      throw new PageLoadError(route.path, error);
    }),
  ),
);

export function loadPage(route: LazyRoute): Promise<PageComponent> {
  return pageOf(route).load();
}

export function RoutePage({ route }: { route: LazyRoute }) {
  const Page = readLoaded(pageOf(route));
  return <Page />;
}
