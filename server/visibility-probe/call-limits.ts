/*
 * How long one call may take and wait, and how much of its answer is kept: the probe's process
 * keeps to them, and the server ends a probe that stays silent past them. Apart from ask.ts and
 * run-probe.ts, so that the server and the readers of kept answers, which ask no assistant
 * themselves, do not load their client libraries to read a few numbers.
 */

/** The longest wait the probe accepts from Retry-After; asked to wait longer, it gives the question up. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** The longest one call may take: a search, the pages read, the answer written. */
export const CALL_TIMEOUT_MS = 60_000;

/** The most of an answer's text that is kept, read and shown; an answer asked for at most MAX_OUTPUT_TOKENS is shorter. */
export const MAX_ANSWER_CHARACTERS = 8_000;
