/**
 * The toast store: a module-level list that `toast()` writes and `<Toaster />` reads through
 * useSyncExternalStore. It lives outside React so that any code (a form's submit handler, a
 * fetch callback) can raise a toast without a provider or a hook.
 */

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** How long it stays, in ms, counted only while it is not paused; 4000 by default. */
  duration?: number;
}

export interface ToastRecord {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  duration: number;
}

/** A toast stays 4 seconds, and at most 3 are on screen at once. */
const TOAST_DURATION_MS = 4000;
const TOAST_LIMIT = 3;

let toasts: readonly ToastRecord[] = [];
let counter = 0;
const listeners = new Set<() => void>();
const NO_TOASTS: readonly ToastRecord[] = [];

function publish(next: readonly ToastRecord[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast and returns its id. The oldest leaves when a fourth arrives. */
export function toast({ title, description, variant = 'default', duration = TOAST_DURATION_MS }: ToastOptions): string {
  counter += 1;
  const id = `toast-${counter}`;
  const record: ToastRecord = { id, title, variant, duration, ...(description ? { description } : {}) };
  publish([...toasts, record].slice(-TOAST_LIMIT));
  return id;
}

/** Removes a toast; an unknown or already dismissed id is ignored. */
export function dismissToast(id: string): void {
  if (toasts.some((item) => item.id === id)) publish(toasts.filter((item) => item.id !== id));
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getToasts = (): readonly ToastRecord[] => toasts;

/** The server renders no toast (pages are cached and shared), so hydration starts from none too. */
export const getServerToasts = (): readonly ToastRecord[] => NO_TOASTS;
