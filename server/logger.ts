import pino, { type Logger, type LoggerOptions } from 'pino';
import SonicBoom from 'sonic-boom';

export type { Logger };

/**
 * The most log output held in memory while stdout cannot take it (a full disk, a reader that
 * stopped or went away); further lines are dropped and counted until it catches up.
 */
export const LOG_BUFFER_BYTES = 4 * 1024 * 1024;
/** How often an output that failed is tried again while lines wait (each new line tries it too). */
const FAILED_OUTPUT_RETRY_MS = 1000;
/** How long the exit waits for a reader that stopped before the lines still held are given up. */
const EXIT_FLUSH_MS = 500;
/** The line written once the output works again after lines were dropped (with `lostLines`, `cause`). */
export const LINES_LOST_MESSAGE = 'Log lines were dropped while the log output could not be written';

/** The log line's time, ISO 8601; computed at most once a millisecond (under load the fast path logs many lines in one). */
let lastMs = 0;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

const options: LoggerOptions = {
  base: { service: 'citewise-site' },
  timestamp: isoTime,
  // A lead's personal data and any credentials stay out of the logs.
  redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'smtpUrl'], remove: true },
};

let stdout: SonicBoom | undefined;

/**
 * The process's one stdout destination, shared by every logger. Written asynchronously: a line
 * waits only while the previous write is in flight, so under load lines leave in batches instead
 * of one write() each (a synchronous write per request would hold up every request on the fast
 * path), and a quiet server still writes each line at once.
 *
 * An output that fails never holds up the site: a failed write is kept and tried again with the
 * next line (or within FAILED_OUTPUT_RETRY_MS), what waits is bounded by LOG_BUFFER_BYTES, and the
 * lines past it are dropped and counted; once the output has caught up, one line says how many.
 * What is still held at exit is written then, with EXIT_FLUSH_MS for a reader that stopped.
 * Why this is sonic-boom 5 built here rather than pino.destination(): docs/decisions/014.
 */
function stdoutDestination(): SonicBoom {
  if (stdout) return stdout;
  let giveUpAt = Number.POSITIVE_INFINITY;
  /** The last write error since the output last caught up (EAGAIN: the reader stopped). */
  let cause: string | undefined;
  const destination = new SonicBoom({
    // Reading process.stdout makes Node open a pipe or socket non-blocking (a file or a terminal
    // stays as it is): a reader that stopped then answers EAGAIN, retried below on a timer, instead
    // of holding a write in libuv's thread pool for good, which process.exit() would wait on.
    fd: process.stdout.fd,
    sync: false,
    maxLength: LOG_BUFFER_BYTES,
    periodicFlush: FAILED_OUTPUT_RETRY_MS,
    retryEAGAIN: (error) => {
      cause = errorCode(error);
      return Date.now() < giveUpAt;
    },
  });
  stdout = destination;

  let dropped = 0;
  destination.on('drop', () => {
    dropped += 1;
  });
  destination.on('error', (error: Error) => {
    cause = errorCode(error);
  });
  const report = pino({ ...options, level: 'warn' }, destination);
  // 'drain': everything held has been written, so the output works again.
  destination.on('drain', () => {
    const lostLines = dropped;
    const lastCause = cause;
    dropped = 0;
    cause = undefined;
    // No cause when no write failed: the output only fell too far behind.
    if (lostLines > 0) report.warn({ lostLines, ...(lastCause ? { cause: lastCause } : {}) }, LINES_LOST_MESSAGE);
  });

  process.on('exit', () => {
    giveUpAt = Date.now() + EXIT_FLUSH_MS;
    try {
      destination.flushSync();
    } catch {
      // The output failed, or its reader stayed stopped: the lines still held are lost.
    }
  });
  return destination;
}

function errorCode(error: Error): string {
  return 'code' in error && typeof error.code === 'string' ? error.code : error.message;
}

/** Structured JSON logs on stdout, one object a line, for whatever collects the container's output. */
export function createLogger(level: string): Logger {
  return pino({ ...options, level }, stdoutDestination());
}
