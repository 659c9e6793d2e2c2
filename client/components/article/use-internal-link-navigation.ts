import { useCallback, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Links inside build-made HTML are plain <a> elements, which would reload the whole document.
 * One click handler on their container (event delegation) hands same-site paths to the router
 * instead, and leaves everything the browser should handle itself alone: modified or non-primary
 * clicks (new tab, new window, download), links that open elsewhere, and other origins.
 */
export function useInternalLinkNavigation() {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (!(event.target instanceof Element)) return;
      const anchor = event.target.closest('a');
      if (!anchor || !event.currentTarget.contains(anchor)) return;
      const href = anchor.getAttribute('href');
      // '//host/path' is protocol-relative, so another origin.
      if (!href || !href.startsWith('/') || href.startsWith('//')) return;
      if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return;
      event.preventDefault();
      navigate(href);
    },
    [navigate],
  );
}
