import pino, { type Logger } from 'pino';

export type { Logger };

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

/**
 * Structured JSON logs on stdout, one object a line, for whatever collects the container's output.
 * Written asynchronously: a line waits only while the previous write is in flight, so under load
 * lines leave in batches instead of one write() each (a synchronous write per request would hold
 * up every request on the fast path), and a quiet server still writes each line at once.
 * pino flushes what is still buffered when the process exits, process.exit() included.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'citewise-site' },
      timestamp: isoTime,
      // A lead's personal data and any credentials stay out of the logs.
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'smtpUrl'], remove: true },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
