const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * How many costly things one client address (or everyone together, under one key) may start in
 * any window of time: site checks in an hour (a check fetches a stranger's site on someone's
 * word, so the site must not become a way to send it traffic in bulk), visibility probes in a day
 * (each spends paid calls to the assistants out of the day's). Counted in memory: nothing about
 * the client is stored, and a restart forgets it (the worst case is one more window's budget).
 */
export class StartBudget {
  private readonly starts = new Map<string, number[]>();
  private sweptAt = 0;

  constructor(
    /** Starts one key may make in any window. */
    readonly limit: number,
    private readonly clock: () => Date,
    readonly windowMs: number = HOUR_MS,
  ) {}

  /** Whether `key` may start one more now (nothing is counted). */
  hasRoom(key: string): boolean {
    return this.recent(key, this.clock().getTime()).length < this.limit;
  }

  /** Counts one start for `key` and returns true, or returns false when its window is full. */
  take(key: string): boolean {
    const now = this.clock().getTime();
    this.sweep(now);
    const recent = this.recent(key, now);
    if (recent.length >= this.limit) return false;
    recent.push(now);
    this.starts.set(key, recent);
    return true;
  }

  /** Forgets the latest start of `key`: what it was taken for was never stored, so it cost nothing. */
  giveBack(key: string): void {
    this.starts.get(key)?.pop();
  }

  /** Whole seconds until `key` may start again (1 at least): when its oldest start in the window leaves it. */
  secondsUntilRoom(key: string): number {
    const now = this.clock().getTime();
    const recent = this.recent(key, now);
    const oldest = recent.length >= this.limit ? recent[recent.length - this.limit] : undefined;
    return oldest === undefined ? 1 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  /** The starts of `key` within the window before `now`, oldest first. */
  private recent(key: string, now: number): number[] {
    return (this.starts.get(key) ?? []).filter((at) => at > now - this.windowMs);
  }

  /** Once a minute at most: forgets the keys with no start in the window. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, starts] of this.starts) {
      if (!starts.some((at) => at > now - this.windowMs)) this.starts.delete(key);
    }
  }
}
