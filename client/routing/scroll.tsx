import { Component, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { pageShown } from './page-load-failure';

/**
 * Where the page sits after a client-side navigation, as a full page load would place it:
 * - Back and Forward return to where the visitor was on that entry;
 * - an address with a #fragment shows its section, and focus moves there;
 * - any other change of address starts at the top.
 * The browser's own restoration is off while the app runs: it would act on popstate, before the
 * page it restores has rendered. Positions are kept per history entry (react-router's location
 * key) while the document lives; entries of another document are the browser's to restore.
 */

const positions = new Map<string, number>();
/** The history entry already placed; the first one is placed by the browser's own page load. */
let placedKey: string | undefined;

/** Scrolls to a section and moves focus there (made focusable if it is not already). */
function showSection(target: HTMLElement) {
  target.scrollIntoView();
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

/**
 * Reads the position of the entry being left in the commit that leaves it, before React changes
 * the page: afterwards the browser may already have clamped it to a shorter page, and the last
 * scroll event may not have reported it yet (scroll events come with the next frame, and Back can
 * come first). A snapshot before the update is React's own place for such a reading.
 */
class PositionRecorder extends Component<{ entry: string }> {
  override getSnapshotBeforeUpdate(previous: Readonly<{ entry: string }>): number | null {
    return previous.entry === this.props.entry ? null : window.scrollY;
  }

  override componentDidUpdate(previous: Readonly<{ entry: string }>, _state: unknown, leftAt: number | null) {
    if (leftAt !== null) positions.set(previous.entry, leftAt);
  }

  override componentDidMount() {
    history.scrollRestoration = 'manual';
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
  }

  override componentWillUnmount() {
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
  }

  override render() {
    return null;
  }
}

// Leaving the document (a reload, another site): the browser restores that entry itself.
function onPageHide() {
  history.scrollRestoration = 'auto';
}
function onPageShow() {
  history.scrollRestoration = 'manual';
}

/** Records the position of each history entry as the visitor leaves it. Mounted once, in the frame. */
export function ScrollMemory() {
  return <PositionRecorder entry={useLocation().key} />;
}

/**
 * Places the page once it is on screen. Rendered beside the routed page, inside its Suspense
 * boundary, so it runs when the page's content has rendered, not when the address changed.
 */
export function PagePlacement() {
  const { key, hash } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    pageShown();
    // The page as the browser loaded it (top, #fragment or its own restored position), and a
    // visitor who scrolled while the JavaScript loaded, stay where they are.
    if (placedKey === undefined || placedKey === key) {
      placedKey = key;
      return;
    }
    placedKey = key;
    const saved = navigationType === 'POP' ? positions.get(key) : undefined;
    if (saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) showSection(target);
    else window.scrollTo(0, 0);
  }, [key, hash, navigationType]);
  return null;
}
