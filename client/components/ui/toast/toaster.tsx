import { Suspense, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import styled from 'styled-components';
import { loadOnce } from '../../../../shared/load-once';
import { readLoaded } from '../../../read-loaded';
import { mediaDown, radius } from '../../../theme/theme';
import { getServerToasts, getToasts, subscribeToToasts, type ToastRecord } from './toast-store';

type ToastListComponent = typeof import('./toast-list').default;
const toastList = loadOnce(() => import('./toast-list').then((module) => module.default));

/** Fetches the toast cards ahead of need (see preloadToastList in toast-region.tsx). */
export function preloadToastCards(): Promise<ToastListComponent> {
  return toastList.load();
}

/** The cards: synchronous once their module is here, suspending only for the very first toast. */
function ToastListSlot(props: Parameters<ToastListComponent>[0]) {
  const List = readLoaded(toastList);
  return <List {...props} />;
}

/** Toasts are 356 px wide (the gap and the swipe are in toast-list.tsx). */
export const TOAST_WIDTH_PX = 356;
/** Distance from the viewport's corner: sonner's offsets (the width, gap and swipe are sonner's too). */
export const TOAST_OFFSET_PX = 32;
export const TOAST_OFFSET_SMALL_PX = 16;

const Region = styled.section`
  position: fixed;
  z-index: 100;
  right: ${TOAST_OFFSET_PX}px;
  bottom: calc(${TOAST_OFFSET_PX}px + env(safe-area-inset-bottom, 0px));
  width: ${TOAST_WIDTH_PX}px;
  /* The region covers no page content: only the toasts themselves take the pointer. */
  pointer-events: none;
  ${mediaDown('sm')} {
    left: ${TOAST_OFFSET_SMALL_PX}px;
    right: ${TOAST_OFFSET_SMALL_PX}px;
    bottom: calc(${TOAST_OFFSET_SMALL_PX}px + env(safe-area-inset-bottom, 0px));
    width: auto;
  }
  &:focus-visible { outline-offset: 4px; border-radius: ${radius.md}; }
`;

/** The id of a toast's text in the live region, which its close button points to. */
export function announcementId(record: ToastRecord) {
  return `${record.id}-announcement`;
}

export function Announcement({ record }: { record: ToastRecord }) {
  return (
    <div id={announcementId(record)}>
      <p>{record.title}</p>
      {record.description && <p>{record.description}</p>}
    </div>
  );
}


const isAltT = (event: KeyboardEvent) => event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyT';

/**
 * Where toasts appear: bottom right, newest nearest the corner, at most three. The region and
 * its two live regions are in the server HTML, so a screen reader already watches them when the
 * first toast arrives (a live region added together with its text is often not announced).
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts, getServerToasts);
  const regionRef = useRef<HTMLElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focusInside, setFocusInside] = useState(false);
  /** Where focus was before Alt+T, to give it back when the last toast goes. */
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const region = regionRef.current;
      if (!isAltT(event) || !region || !region.querySelector('li')) return;
      event.preventDefault();
      if (document.activeElement instanceof HTMLElement && !region.contains(document.activeElement)) {
        returnFocus.current = document.activeElement;
      }
      region.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // A toast that leaves while it holds focus takes focus with it (no blur event follows in every
  // browser): focus goes to the region, or back where it was once no toast is left. Without
  // this the timers would stay paused, and a keyboard user would be dropped at the top.
  useLayoutEffect(() => {
    const region = regionRef.current;
    if (!region || !focusInside) return;
    const lost = !region.contains(document.activeElement);
    if (toasts.length > 0) {
      if (lost) region.focus();
      return;
    }
    const previous = returnFocus.current;
    returnFocus.current = null;
    if (previous?.isConnected) previous.focus();
    else if (lost) setFocusInside(false);
  }, [toasts, focusInside]);

  // The list unmounts with its last toast, before the pointer can leave it.
  if (hovered && toasts.length === 0) setHovered(false);

  const paused = hovered || focusInside;
  const polite = toasts.filter((item) => item.variant !== 'destructive');
  const assertive = toasts.filter((item) => item.variant === 'destructive');

  return (
    <Region
      ref={regionRef}
      aria-label="Notifications alt+T"
      tabIndex={-1}
      onFocus={() => setFocusInside(true)}
      onBlur={(event) => {
        if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) setFocusInside(false);
      }}
    >
      {toasts.length > 0 && (
        <Suspense fallback={null}>
          <ToastListSlot toasts={toasts} paused={paused} onHoverChange={setHovered} />
        </Suspense>
      )}
      <div className="visually-hidden" aria-live="polite" aria-atomic="false" aria-relevant="additions text">
        {polite.map((record) => (
          <Announcement key={record.id} record={record} />
        ))}
      </div>
      {/* An error must not wait behind whatever the screen reader is saying. */}
      <div className="visually-hidden" aria-live="assertive" aria-atomic="false" aria-relevant="additions text">
        {assertive.map((record) => (
          <Announcement key={record.id} record={record} />
        ))}
      </div>
    </Region>
  );
}
