const HOUR_MS = 60 * 60 * 1000;

/**
 * How many site checks one client address (or everyone together, under one key) may start in any
 * hour. A check fetches a stranger's site on someone's word, so the site must not become a way
 * to send it traffic in bulk. Counted in memory: nothing about the client is stored, and a
 * restart forgets it (the worst case is one more hour's budget).
 */
export class CheckBudget {
  private readonly starts = new Map<string, number[]>();
  private sweptAt = 0;

  constructor(
    readonly perHour: number,
    private readonly clock: () => Date,
  ) {}

  /** Whether `key` may start one more check now (nothing is counted). */
  hasRoom(key: string): boolean {
    return this.recent(key, this.clock().getTime()).length < this.perHour;
  }

  /** Counts one start for `key` and returns true, or returns false when its last hour is full. */
  take(key: string): boolean {
    const now = this.clock().getTime();
    this.sweep(now);
    const recent = this.recent(key, now);
    if (recent.length >= this.perHour) return false;
    recent.push(now);
    this.starts.set(key, recent);
    return true;
  }

  /** Whole seconds until `key` may start a check again (1 at least). */
  secondsUntilRoom(key: string): number {
    const now = this.clock().getTime();
    const recent = this.recent(key, now);
    const oldest = recent.length >= this.perHour ? recent[recent.length - this.perHour] : undefined;
    return oldest === undefined ? 1 : Math.max(1, Math.ceil((oldest + HOUR_MS - now) / 1000));
  }

  /** The starts of `key` within the hour before `now`, oldest first. */
  private recent(key: string, now: number): number[] {
    return (this.starts.get(key) ?? []).filter((at) => at > now - HOUR_MS);
  }

  /** Once a minute at most: forgets the keys with no start in the last hour. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, starts] of this.starts) {
      if (!starts.some((at) => at > now - HOUR_MS)) this.starts.delete(key);
    }
  }
}
