import { useCallback, useContext, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { useLocation, UNSAFE_NavigationContext } from 'react-router-dom';

// The site's links and client-side navigation, in one module: every page needs all of it, and
// one module is one file for the browser to fetch.

/**
 * Navigates on the client to a site path ('/blog', '/#faq'): a new history entry through
 * react-router's history, which the router then renders.
 *
 * Why not react-router's useNavigate: for paths relative to the current route it resolves them
 * against the route matches, and it carries the data router's navigation with it; every path
 * here is absolute and the site has no data router, so that code would only weigh on the
 * JavaScript budget (docs/decisions/008).
 */
export function useNavigate(): (to: string) => void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  return useCallback((to: string) => navigator.push(to), [navigator]);
}

/**
 * The path a click on a link should navigate to on the client, or null when the browser should
 * handle the click itself: clicks already handled, modified or non-primary clicks (new tab,
 * new window, download), links that open in another browsing context or download, and any
 * address that is not a same-site path ('//host/path' is protocol-relative, so another origin).
 */
export function routerClickPath(event: MouseEvent, anchor: HTMLAnchorElement): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const href = anchor.getAttribute('href');
  return href && href.startsWith('/') && !href.startsWith('//') ? href : null;
}

/**
 * Links inside build-made HTML are plain <a> elements, which would reload the whole document.
 * One click handler on their container (event delegation) hands same-site paths to the router
 * instead, and leaves everything the browser should handle itself alone (see routerClickPath).
 */
export function useInternalLinkNavigation() {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (!(event.target instanceof Element)) return;
      const anchor = event.target.closest('a');
      if (!anchor || !event.currentTarget.contains(anchor)) return;
      const path = routerClickPath(event, anchor);
      if (path === null) return;
      event.preventDefault();
      navigate(path);
    },
    [navigate],
  );
}

/**
 * The site's links: a real <a href> (crawlers, no-JavaScript visitors, open-in-new-tab) whose
 * plain clicks navigate on the client through react-router's history.
 *
 * Why not react-router's <Link>/<NavLink>: they carry framework-mode machinery this site never
 * uses (prefetch links, view transitions, relative-path resolution, route-module discovery) and
 * would eat into the page's JavaScript budget; every path here is absolute and
 * parameter-free (docs/decisions/008).
 */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A site path such as '/blog' or '/#faq'. */
  to: string;
}

export function Link({ to, onClick, ...anchor }: LinkProps) {
  const navigate = useNavigate();
  return (
    <a
      {...anchor}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (routerClickPath(event, event.currentTarget) === null) return;
        event.preventDefault();
        navigate(to);
      }}
    />
  );
}

/** A navigation link that marks the current page with aria-current="page" (exact path match). */
export function NavLink(props: LinkProps) {
  const { pathname } = useLocation();
  const current = pathname === props.to.split(/[?#]/)[0];
  return <Link aria-current={current ? 'page' : undefined} {...props} />;
}
