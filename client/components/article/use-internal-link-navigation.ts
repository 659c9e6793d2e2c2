import { useCallback, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { routerClickPath } from '../../routing/router-click';

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
