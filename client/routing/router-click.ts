import type { MouseEvent } from 'react';

/**
 * The path a click on a link should navigate to on the client, or null when the browser should
 * handle the click itself. Everything the browser should
 * handle itself is left alone: clicks already handled, modified or non-primary clicks (new tab,
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
