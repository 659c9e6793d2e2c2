/**
 * When a page's code cannot be fetched on a client-side navigation (a tab left open across a
 * deploy whose files have gone, a dropped connection), the visitor still gets the page: the
 * browser loads the address in full, and the server answers it with the page's HTML and the
 * current build's files. One full load per navigation at most, so a deploy that is broken on the
 * server cannot send the browser round in a loop: a second failure for the same address shows
 * the error page instead.
 */

/** The page module of a route could not be fetched (as opposed to a page that crashed). */
export class PageLoadError extends Error {
  constructor(path: string, cause: unknown) {
    super(`The code of the page ${path} could not be loaded`, { cause });
    this.name = 'PageLoadError';
  }
}

// The address last loaded in full for this reason, kept for the tab's session: it outlives the
// document that made the full load, which is the point.
const FULL_LOAD_KEY = 'citewise:full-load-for';

/**
 * Loads the current address in full, unless this address already had its full load; true when
 * the load has started. Without session storage there is no guard against a loop, so no load.
 */
export function loadInFullOnce(): boolean {
  const url = window.location.href;
  try {
    if (sessionStorage.getItem(FULL_LOAD_KEY) === url) return false;
    sessionStorage.setItem(FULL_LOAD_KEY, url);
  } catch {
    return false;
  }
  // replace(): the navigation already added this address to the history.
  window.location.replace(url);
  return true;
}

/** A page is on screen at this address: a later failure elsewhere may load in full again. */
export function pageShown(): void {
  try {
    const loaded = sessionStorage.getItem(FULL_LOAD_KEY);
    if (loaded !== null && loaded !== window.location.href) sessionStorage.removeItem(FULL_LOAD_KEY);
  } catch {
    // No storage: nothing was recorded.
  }
}
