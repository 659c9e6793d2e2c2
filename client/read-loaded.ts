import { use } from 'react';
import type { LoadOnce } from '../shared/load-once';

/**
 * Reads, during a render, something loaded once (shared/load-once.ts): the value at once when it
 * has arrived, else a suspension on its latest attempt, which never starts a fetch again after a
 * failure: the failure reaches the error boundary instead. Like React's use(), which it calls, it
 * may be called conditionally.
 */
export function readLoaded<T>(value: LoadOnce<T>): T {
  return value.current ?? use(value.attempt());
}
