import { use, type ComponentType } from 'react';
import { PageLoadError } from './routing/page-load-failure';

/**
 * Route-level code splitting without the data router (which would weigh heavily on the
 * JavaScript budget). Each route loads its page module on demand; the server and the hydration
 * entry load the current route before rendering, so the first render is synchronous and matches
 * the server HTML. On a client navigation the page suspends until its chunk arrives, and
 * react-router's transition keeps the previous page on screen meanwhile.
 *
 * A failed load stays failed for this document: rendering again must not fetch again (a render
 * that fetched afresh would suspend on each new attempt, and never show anything). The error
 * boundary turns the failure into a full load of the page (routing/page-load-failure.ts).
 */
export type PageComponent = ComponentType;

export interface LazyRoute {
  path: string;
  load: () => Promise<PageComponent>;
}

interface LoadedPage {
  current?: PageComponent;
  promise: Promise<PageComponent>;
}

// Keyed by the route object, not its path: two route tables (tests) may share a path.
const pages = new WeakMap<LazyRoute, LoadedPage>();

function pageOf(route: LazyRoute): LoadedPage {
  let page = pages.get(route);
  if (!page) {
    const loaded: LoadedPage = {
      promise: route.load().then(
        (component) => (loaded.current = component),
        (error: unknown) => {
          throw new PageLoadError(route.path, error);
        },
      ),
    };
    page = loaded;
    pages.set(route, page);
  }
  return page;
}

export function loadPage(route: LazyRoute): Promise<PageComponent> {
  return pageOf(route).promise;
}

export function RoutePage({ route }: { route: LazyRoute }) {
  const page = pageOf(route);
  const Page = page.current ?? use(page.promise);
  return <Page />;
}
