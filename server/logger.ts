import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs on stdout, one object a line, for whatever collects the container's output. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'citewise-site' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A lead's personal data and any credentials stay out of the logs.
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'smtpUrl'], remove: true },
  });
}
