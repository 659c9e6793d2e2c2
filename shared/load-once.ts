/**
 * Loaded once, remembered: the one rule for everything the site fetches, renders or computes on
 * demand and keeps (a page's code, a static island, the toast cards, an article's prose, a page
 * rendered into the server's memory, a parsed header).
 *
 * - A value is made once and kept for the life of the process or the document.
 * - A failure is not kept as an answer: the next deliberate attempt (`load()`: the next request,
 *   navigation or toast) makes the value again, and may succeed.
 * - Until then, a render that reads the value (`attempt()`) is given the failure, and never starts
 *   a fetch of its own: React renders a suspended component again when its promise settles, so a
 *   render that fetched afresh would fetch in a loop instead of reaching its error boundary.
 */
export interface LoadOnce<T> {
  /** The value, once it has arrived. */
  readonly current: T | undefined;
  /** The attempt in flight or done; a new one if the last failed. */
  load(): Promise<T>;
  /** The latest attempt, failed or not; a first one if there has been none. For renders. */
  attempt(): Promise<T>;
}

export function loadOnce<T>(make: () => Promise<T>): LoadOnce<T> {
  let current: T | undefined;
  let latest: Promise<T> | undefined;
  let failed = false;
  const start = () => {
    failed = false;
    const attempt: Promise<T> = make().then(
      (value) => (current = value),
      (error: unknown) => {
        if (latest === attempt) failed = true;
        throw error;
      },
    );
    latest = attempt;
    return attempt;
  };
  return {
    get current() {
      return current;
    },
    load: () => (latest && !failed ? latest : start()),
    attempt: () => latest ?? start(),
  };
}

/**
 * `make(key)`, made once per key and kept, by the same rule: a key whose making throws keeps
 * nothing. Keys that come from outside the code (a request's header, a style's text) are bounded
 * by `limit`: past it, everything kept is forgotten at once and made again as it is asked for.
 * `make` never returns undefined.
 */
export function oncePerKey<K, V extends NonNullable<unknown>>(make: (key: K) => V, limit = Number.POSITIVE_INFINITY): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    const known = kept.get(key);
    if (known !== undefined) return known;
    if (kept.size >= limit) kept.clear();
    const value = make(key);
    kept.set(key, value);
    return value;
  };
}
