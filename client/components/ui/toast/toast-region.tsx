import { useEffect, useState, useSyncExternalStore } from 'react';
import { loadOnce } from '../../../../shared/load-once';
import { readLoaded } from '../../../read-loaded';
import { htmlOnScreen } from '../../static-island';
import { getServerToasts, getToasts, subscribeToToasts } from './toast-store';

/*
 * Where toasts appear, on every page. Only the form pages raise toasts, so a first visit to any
 * other page does not download the toaster: at hydration the region's server HTML (with its
 * empty live regions, which screen readers already watch) is taken over as it stands, like a
 * static island. It comes alive when a page prepares for toasts (the forms, on mount) or a toast
 * is raised.
 */

const ID = 'toasts';
const toaster = loadOnce(() => import('./toaster'));
let live = false;
const listeners = new Set<() => void>();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Fetches the toaster and the toast cards ahead of need and brings the region alive. Form pages
 * call it on mount: their error toast must show even when the network has just gone away, and
 * then the chunks could no longer be fetched.
 */
export async function preloadToastList(): Promise<void> {
  const { preloadToastCards } = await toaster.load();
  await preloadToastCards();
  if (live) return;
  live = true;
  for (const listener of listeners) listener();
}

/** Loads the toaster without bringing the region alive: for a render that must not wait (the server's). */
export async function loadToastRegion(): Promise<void> {
  await toaster.load();
}

export function ToastRegion() {
  // Read once, at the first render: the server HTML, if this render is the hydration.
  const [adopted] = useState(() => htmlOnScreen(`[data-island="${ID}"]`));
  const isLive = useSyncExternalStore(subscribe, () => live, () => false);
  const raised = useSyncExternalStore(subscribeToToasts, getToasts, getServerToasts).length > 0;
  useEffect(() => {
    if (raised) preloadToastList().catch(() => undefined);
  }, [raised]);
  if (adopted !== null && !isLive) return <div data-island={ID} dangerouslySetInnerHTML={{ __html: adopted }} />;
  const { Toaster } = readLoaded(toaster);
  return (
    <div data-island={ID}>
      <Toaster />
    </div>
  );
}
