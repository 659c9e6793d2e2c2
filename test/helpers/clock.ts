/**
 * A clock the test moves by hand. The app, its mail worker and the test all read the same one, so
 * "a mail is due in 30 s" means 30 s of this clock, whatever the real date is.
 */
export interface TestClock {
  (): Date;
  /** Moves the clock forward. */
  advance(ms: number): void;
  set(time: Date | string): void;
}

/** Starts at an arbitrary fixed instant: nothing in the suite may depend on the real date. */
export const TEST_CLOCK_START = '2030-03-04T09:00:00.000Z';

export function testClock(start: Date | string = TEST_CLOCK_START): TestClock {
  let now = new Date(start).getTime();
  const clock = (() => new Date(now)) as TestClock;
  clock.advance = (ms) => {
    now += ms;
  };
  clock.set = (time) => {
    now = new Date(time).getTime();
  };
  return clock;
}
