import { useCallback, type MouseEvent } from 'react';
import { NavLink as RouterNavLink, useNavigate, type NavLinkProps } from 'react-router-dom';

// The site's links and client-side navigation, in one module: react-router's own components and
// hooks, and the one thing it has no API for, links inside build-made HTML.

/** The site's links: a real <a href> whose plain clicks navigate on the client. */
export { Link } from 'react-router-dom';

/**
 * A navigation link that marks the current page with aria-current="page". Exact paths only
 * (`end`): the home link is not current on every page, nor the blog link on each article.
 */
export function NavLink(props: Omit<NavLinkProps, 'end'>) {
  return <RouterNavLink end {...props} />;
}

/**
 * The path a click on a link should navigate to on the client, or null when the browser should
 * handle the click itself: clicks already handled, modified or non-primary clicks (new tab,
 * new window, download), links that open in another browsing context or download, and any
 * address that is not a same-site path ('//host/path' is protocol-relative, so another origin).
 */
function routerClickPath(event: MouseEvent, anchor: HTMLAnchorElement): string | null {
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
      void navigate(path);
    },
    [navigate],
  );
}
