/*
 * How long one call may take and wait: the probe's process keeps to them, and the server ends a
 * probe that stays silent past them. Apart from ask.ts, so that the server, which asks no
 * assistant itself, does not load their client libraries to read two numbers.
 */

/** The longest wait the probe accepts from Retry-After; asked to wait longer, it gives the question up. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** The longest one call may take: a search, the pages read, the answer written. */
export const CALL_TIMEOUT_MS = 60_000;
