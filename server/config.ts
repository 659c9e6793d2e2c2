import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { site } from '../shared/site';

/**
 * The process's configuration: the environment variables of the README's Configuration table,
 * parsed once at start. A bad value stops the process with one line that names the variable
 * (epic-stack's env.server.ts does the same).
 */
export interface Config {
  port: number;
  host: string;
  /** Public origin without a trailing slash; canonical links, sitemap and e-mails use it. */
  siteUrl: string;
  databasePath: string;
  /** Unset: mail is written as .eml files under mailDir. */
  smtpUrl: string | undefined;
  mailDir: string;
  mailFrom: string;
  mailTo: string;
  mailRetryBaseMs: number;
  /** Passed to Express's `trust proxy`: false, a hop count, or addresses/CIDRs. */
  trustProxy: false | number | string[];
  bookingUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  isProduction: boolean;
}

export class ConfigError extends Error {}

const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

const email = z.string().trim().regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, 'must be an e-mail address');

const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): Config['trustProxy'] => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const valid = entries.every((entry) => {
      const [address, bits, extra] = entry.split('/');
      if (extra !== undefined || !address || isIP(address) === 0) return false;
      return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
    });
    if (!valid) {
      // 'true' would trust every hop, so any client could forge X-Forwarded-For and dodge the rate limit.
      ctx.addIssue({ code: 'custom', message: 'must be a hop count or comma-separated IP addresses/CIDRs (not "true")' });
      return z.NEVER;
    }
    return entries;
  });

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  SITE_URL: httpUrl.default('http://localhost:3000'),
  DATABASE_PATH: z.string().trim().min(1).default('data/site.db'),
  SMTP_URL: z
    .string()
    .trim()
    .refine((value) => /^smtps?:\/\/[^\s]+$/.test(value), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: email.default(site.mailFrom),
  MAIL_TO: email.default(site.mailTo),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).max(86_400_000).default(30_000),
  TRUST_PROXY: trustProxy.default(false),
  BOOKING_URL: httpUrl.default(site.bookingUrl),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
});

/** Parses the environment; throws ConfigError whose message is one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name}=${JSON.stringify(present[name] ?? '')} ${issue?.message ?? ''}`.trim());
  }
  const value = result.data;
  const databasePath = path.resolve(value.DATABASE_PATH);
  return {
    port: value.PORT,
    host: value.HOST,
    siteUrl: new URL(value.SITE_URL).origin,
    databasePath,
    smtpUrl: value.SMTP_URL,
    mailDir: path.join(path.dirname(databasePath), 'mail'),
    mailFrom: value.MAIL_FROM,
    mailTo: value.MAIL_TO,
    mailRetryBaseMs: value.MAIL_RETRY_BASE_MS,
    trustProxy: value.TRUST_PROXY,
    bookingUrl: value.BOOKING_URL,
    logLevel: value.LOG_LEVEL,
    isProduction: value.NODE_ENV !== 'development' && value.NODE_ENV !== 'test',
  };
}
