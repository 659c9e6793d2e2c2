/**
 * Something fetched on demand (a page, an island, the toast cards), fetched once: readable
 * synchronously once it is here, so a render need not suspend again, and fetched afresh after a
 * failure, so a later attempt (the next navigation, the next toast) can succeed.
 */
export interface LoadOnce<T> {
  /** The value, once it has arrived. */
  readonly current: T | undefined;
  /** The one fetch in flight or done; a new one after a failure. */
  load(): Promise<T>;
}

export function loadOnce<T>(fetchValue: () => Promise<T>): LoadOnce<T> {
  let current: T | undefined;
  let pending: Promise<T> | undefined;
  return {
    get current() {
      return current;
    },
    load() {
      pending ??= fetchValue().then(
        (value) => (current = value),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
  };
}
