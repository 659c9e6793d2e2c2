import { use, type ComponentType } from 'react';
import { loadOnce, type LoadOnce } from './load-once';

/**
 * Route-level code splitting without the data router (which would weigh heavily on the
 * JavaScript budget). Each route loads its page module on demand; the server and the hydration
 * entry load the current route before rendering, so the first render is synchronous and matches
 * the server HTML. On a client navigation the page suspends until its chunk arrives, and
 * react-router's transition keeps the previous page on screen meanwhile.
 */
export type PageComponent = ComponentType;

export interface LazyRoute {
  path: string;
  load: () => Promise<PageComponent>;
}

// Keyed by the route object, not its path: two route tables (tests) may share a path.
const pages = new WeakMap<LazyRoute, LoadOnce<PageComponent>>();

function pageOf(route: LazyRoute): LoadOnce<PageComponent> {
  let page = pages.get(route);
  if (!page) {
    page = loadOnce(route.load);
    pages.set(route, page);
  }
  return page;
}

export function loadPage(route: LazyRoute): Promise<PageComponent> {
  return pageOf(route).load();
}

export function RoutePage({ route }: { route: LazyRoute }) {
  const page = pageOf(route);
  const Page = page.current ?? use(page.load());
  return <Page />;
}
