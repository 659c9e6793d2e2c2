/**
 * The day's calls (PROBE_DAILY_CALLS, a UTC day, shared by the leads' probes, `npm run probe` and
 * every run) as a run is weighed against them: by the worker before a run starts, and by the
 * commands before they queue one. One rule, written once: a run starts only when what it still
 * needs fits in what is left today; a run that needs more than a whole day holds is refused when
 * it is asked for, never postponed for ever.
 */

export interface DayBudget {
  used: number;
  left: number;
  /** Whether `calls` fit in what is left today (exactly what is left fits). */
  holds(calls: number): boolean;
  /** Whether `calls` would fit in a whole day. */
  everHolds(calls: number): boolean;
  /** "Today (UTC) 40 of PROBE_DAILY_CALLS=300 are used, 260 left." */
  line: string;
}

export function dayBudget(used: number, dailyCalls: number): DayBudget {
  const left = Math.max(0, dailyCalls - used);
  return {
    used,
    left,
    holds: (calls) => calls <= left,
    everHolds: (calls) => calls <= dailyCalls,
    line: `Today (UTC) ${used} of PROBE_DAILY_CALLS=${dailyCalls} are used, ${left} left.`,
  };
}

/** Why a run is refused when it is asked for, in one line; null when a day can hold it. */
export function neverFits(calls: number, dailyCalls: number, fewer: string): string | null {
  if (calls <= dailyCalls) return null;
  return `Not queued: it needs ${calls} calls, more than a whole day allows (PROBE_DAILY_CALLS=${dailyCalls}), so it could never run. ${fewer}, or set a higher PROBE_DAILY_CALLS.`;
}

/** The first instant of the UTC day after `now`: when the day's calls start again. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
