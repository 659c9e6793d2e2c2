import type { AnchorHTMLAttributes } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { routerClickPath } from './router-click';

/**
 * The site's links: a real <a href> (crawlers, no-JavaScript visitors, open-in-new-tab) whose
 * plain clicks navigate on the client through react-router's history.
 *
 * Why not react-router's <Link>/<NavLink>: they carry framework-mode machinery this site never
 * uses (prefetch links, view transitions, relative-path resolution, route-module discovery) and
 * cost about 6 KB gzip of the page's JavaScript budget; every path here is absolute and
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
        void navigate(to);
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
