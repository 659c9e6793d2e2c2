import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { ErrorBoundary } from './components/error-boundary';
import { SiteHeader } from './components/layout/site-header';
import { staticIsland } from './components/static-island';
import { loadToastRegion, ToastRegion } from './components/ui/toast';
import { RoutePage } from './lazy-page';
import { matchAppRoute, type AppRoute } from './routes';
import { PagePlacement, ScrollMemory } from './routing/scroll';
import { GlobalStyle } from './theme/global-style';
import { color } from './theme/theme';

const SkipLink = styled.a`
  position: absolute;
  left: 1rem;
  top: -10rem;
  z-index: 100;
  padding: 0.75rem 1rem;
  border-radius: 0.5rem;
  background: ${color.ink};
  color: #fff;
  &:focus { top: 1rem; color: #fff; }
`;

const Main = styled.main`
  min-height: 60vh;
  &:focus { outline: none; }
`;

// The footer is the same on every page and has no behaviour beyond its links: a static island,
// so the browser never downloads it (the app shell stays mounted across navigations).
const footer = staticIsland('site-footer', () => import('./components/layout/site-footer'));

/**
 * Loads what the frame itself loads on demand (the footer's island, the toaster), for a render
 * that must not wait: the server's. Rendered before they arrive, the frame suspends outside any
 * Suspense boundary and the render fails.
 */
export async function loadFrame(): Promise<void> {
  await Promise.all([footer.prefetch(), loadToastRegion()]);
}

/**
 * Marks the document once hydration has committed, so browser tests and synthetic monitoring
 * can tell when the page is interactive (hydration runs as a transition, in slices). Rendered
 * inside the page's Suspense boundary, which hydrates after the frame around it: a mark outside
 * would be set while the page itself was still server HTML.
 */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

/** Once the visitor has left a page, fetches what a return to it by Back needs (see AppRoute). */
function usePrefetchForReturn(routes: AppRoute[], pathname: string) {
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    const left = shown.current;
    // Marked on the document when done, as hydration is: what a return to `left` needs is here.
    void matchAppRoute(routes, left)
      .prefetchForReturn?.()
      .then(() => (document.documentElement.dataset.returnReady = left));
    shown.current = pathname;
  }, [routes, pathname]);
}

/** The site's frame: header, the routed page, footer. Both entries render this. */
export function App({ routes, children }: { routes: AppRoute[]; children?: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  usePrefetchForReturn(routes, pathname);
  // The same exact-path lookup the server uses for the status code, so both always agree on the
  // page (react-router's matcher would also accept /Blog, which the server answers 404).
  const route = children ? null : matchAppRoute(routes, pathname);
  return (
    <>
      <GlobalStyle />
      <SkipLink href="#main">Skip to content</SkipLink>
      <SiteHeader />
      <Main id="main" tabIndex={-1}>
        {children ? (
          <>
            {children}
            <HydratedMark />
          </>
        ) : (
          <ErrorBoundary location={pathname + search + hash}>
            <Suspense fallback={null}>
              {route && <RoutePage route={route} />}
              <PagePlacement />
              <HydratedMark />
            </Suspense>
          </ErrorBoundary>
        )}
      </Main>
      <footer.Island />
      <ToastRegion />
      <ScrollMemory />
    </>
  );
}
