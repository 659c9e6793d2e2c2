import { use, type ComponentType } from 'react';

/**
 * Route-level code splitting without the data router (which would cost about 17 KB of the
 * JavaScript budget). Each route loads its page module on demand; the server and the hydration
 * entry load the current route before rendering, so the first render is synchronous and matches
 * the server HTML. On a client navigation the page suspends until its chunk arrives, and
 * react-router's transition keeps the previous page on screen meanwhile.
 */
export type PageComponent = ComponentType;

type Entry =
  | { status: 'pending'; promise: Promise<PageComponent> }
  | { status: 'fulfilled'; promise: Promise<PageComponent>; component: PageComponent }
  | { status: 'rejected'; promise: Promise<PageComponent>; error: unknown };

// Keyed by the route object, not its path: two route tables (tests) may share a path.
const entries = new WeakMap<LazyRoute, Entry>();

export interface LazyRoute {
  path: string;
  load: () => Promise<PageComponent>;
}

export function loadPage(route: LazyRoute): Promise<PageComponent> {
  const existing = entries.get(route);
  if (existing && existing.status !== 'rejected') return existing.promise;
  const promise = route.load();
  const entry: Entry = { status: 'pending', promise };
  entries.set(route, entry);
  promise.then(
    (component) => entries.set(route, { status: 'fulfilled', promise, component }),
    (error: unknown) => entries.set(route, { status: 'rejected', promise, error }),
  );
  return promise;
}

export function RoutePage({ route }: { route: LazyRoute }) {
  loadPage(route);
  const entry = entries.get(route);
  if (entry?.status === 'fulfilled') return <entry.component />;
  if (entry?.status === 'rejected') throw entry.error;
  if (!entry) throw new Error(`No page entry for ${route.path}`);
  const Page = use(entry.promise);
  return <Page />;
}
