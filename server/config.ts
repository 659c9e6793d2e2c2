import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { MAX_ABOUT_TEMPLATES } from '../shared/content-schema';
import { MIN_FILL_MS } from '../shared/forms/form-contract';
import { probePrompts } from '../shared/generated/probe-prompts';
import { site } from '../shared/site';
import { parseAddressList } from './site-check/address-policy';
import { ApiKey } from './visibility-probe/api-key';
import { ASSISTANT_IDS, ASSISTANTS, type AssistantId } from './visibility-probe/assistant-catalogue';

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
  /** Days a held (suspected spam) submission is kept before it is deleted. */
  quarantineDays: number;
  /** Whether the AI ledger counts crawler fetches and assistant referrals. */
  aiLedger: boolean;
  /** Ops' own list of AI agents and assistants; unset: the one shipped with the site. */
  aiSourcesFile: string | undefined;
  /** Hours between the server's own backups of the database; 0: none. */
  backupIntervalHours: number;
  /** How many of those backups are kept (the newest). */
  backupKeep: number;
  /** Where backups are written, by the server and by `npm run backup`. */
  backupDir: string;
  /** Start on an https SITE_URL even though content is still a placeholder or illustrative. */
  allowPlaceholderContent: boolean;
  /**
   * Addresses and CIDRs the site check may reach despite its rules (private, loopback, any
   * port): for staging and tests only. Empty: none.
   */
  siteCheckAllow: string[];
  /** The AI visibility probe: off while no assistant's key is set. */
  probe: ProbeConfig;
  /**
   * The answer judge (docs/answer-judge.md): JUDGE_PROVIDER's assistant, the first configured by
   * default, with JUDGE_MODEL, its small model by default; null while no assistant's key is set,
   * and with JUDGE_PROVIDER=none (no answer is judged, and no call is spent on it).
   */
  judge: ProbeAssistantSetting | null;
  /** The free audit's full run (`npm run audit`): it asks the probe's assistants, within the same PROBE_DAILY_CALLS. */
  audit: AuditConfig;
  /** Monthly monitoring of clients (`npm run clients`): the same questions each run, on a schedule, within the same PROBE_DAILY_CALLS. */
  monitor: MonitorConfig;
  /** The public AI-readiness check: checks one client address may start in an hour, and all visitors together. */
  publicChecksPerAddress: number;
  publicChecksPerHour: number;
  /**
   * How soon after a form is shown a post may come before it is held as a bot's: a person takes
   * seconds. Lower only for tests (a public site refuses it).
   */
  formMinFillMs: number;
  /**
   * The priority the processes that read strangers' sites and assistants' answers run at: idle,
   * so that they only ever get CPU time the pages do not want; normal only for tests, where a
   * busy machine would otherwise starve them (a public site refuses it).
   */
  backgroundPriority: BackgroundPriority;
  /** PAGE_CACHE_DIR: where compressed pages are kept between starts; null: compressed at each start. */
  pageCacheDir: string | null;
  isProduction: boolean;
}

export type BackgroundPriority = 'idle' | 'normal';

/** One assistant the probe may ask: there is one only when its key is set. */
export interface ProbeAssistantSetting {
  id: AssistantId;
  apiKey: ApiKey;
  /** The API base as the client library takes it (the provider's own by default). */
  baseUrl: string;
  model: string;
}

interface ProbeConfig {
  /** In report order; empty: the probe is not configured. */
  assistants: ProbeAssistantSetting[];
  /** Questions put to each assistant for one lead. */
  promptsPerAssistant: number;
  /** Calls to all assistants together in one UTC day. */
  dailyCalls: number;
}

interface AuditConfig {
  /** Questions put to each assistant in a full audit run. */
  promptsPerAssistant: number;
  /**
   * Direct questions about the business (how to reach it, what it offers, what people say) put to
   * each assistant in every audit and monitoring run, after the others; they never count towards
   * whether it is named.
   */
  factPrompts: number;
  /** A run queued on its own after each lead's instant probe has ended (a person decides otherwise). */
  auto: boolean;
  /** A finished run's report mailed to the prospect on its own (otherwise only `npm run audit -- --send` does). */
  autoSend: boolean;
}

interface MonitorConfig {
  /** Questions fixed for each assistant when a client is added (or its questions change). */
  promptsPerAssistant: number;
  /** Days between two scheduled runs of an active client. */
  intervalDays: number;
  /** A client with a contact address is mailed a short note with its page's link after each run. */
  send: boolean;
}

export class ConfigError extends Error {}

/**
 * Runs `read` for a process (the server, an ops command): a ConfigError stops it with its one
 * line on stderr and status 1, never a stack trace.
 */
export function exitOnConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return process.exit(1);
  }
}

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

/** A whole number written in decimal digits only: " ", "1e3" and "0x0C81" are not a port. */
const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, 'must be a whole number in decimal digits')
    .transform(Number)
    .refine((value) => value >= min && value <= max, `must be from ${min} to ${max}`);

/**
 * A path the process can keep a database (or its backups) in: not inside a kernel file system,
 * where a file is a device or a view of the process (opening one can block for ever or read the
 * terminal).
 */
const storagePath = z
  .string()
  .trim()
  .min(1)
  .refine((value) => !/[\0\r\n]/.test(value), 'must be a file path')
  .refine((value) => !/^\/(proc|sys|dev)(\/|$)/.test(path.resolve(value)), 'must not be under /proc, /sys or /dev');

/** smtp(s)://[user[:password]@]host[:port][?options]; its password is never echoed (see redactUrl). */
const smtpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' && !/\s/.test(value);
    } catch {
      return false;
    }
  }, 'must be an smtp:// or smtps:// URL with a host');

const email = z.string().trim().regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, 'must be an e-mail address');

const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): Config['trustProxy'] => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    let valid = entries.every((entry) => entry !== '');
    try {
      parseAddressList(value);
    } catch {
      valid = false;
    }
    if (!valid) {
      // 'true' would trust every hop, so any client could forge X-Forwarded-For and dodge the rate limit.
      ctx.addIssue({ code: 'custom', message: 'must be a hop count or comma-separated IP addresses/CIDRs (not "true")' });
      return z.NEVER;
    }
    return entries;
  });

/** SITE_CHECK_ALLOW: comma-separated addresses or CIDRs, read as TRUST_PROXY's are. */
const siteCheckAllow = z
  .string()
  .trim()
  .transform((value, ctx) => {
    try {
      parseAddressList(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `must be comma-separated IP addresses or CIDRs: ${error instanceof Error ? error.message : String(error)}` });
      return z.NEVER;
    }
    return value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  });

/**
 * An API key as a provider issues it. Its value is never shown in an error (see shownValue); a
 * space or a line break inside is a copy-and-paste slip that the provider would only refuse later.
 */
const apiKey = z
  .string()
  .trim()
  .regex(/^[\x21-\x7e]{8,512}$/, 'must be the key as the provider gives it: 8 to 512 printable characters, no spaces');

/** A model id as the provider names it ("gpt-5-mini", "models/gemini-flash-latest"). */
const modelId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][\w.:/-]{0,127}$/, 'must be a model id: letters, digits and . _ : / - only');

const schema = z.object({
  // 0 asks the system for a free port (tests use it).
  PORT: integer(0, 65535).default(3000),
  HOST: z
    .string()
    .trim()
    .refine((value) => isIP(value) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$/.test(value), 'must be an IP address or a host name')
    .default('127.0.0.1'),
  SITE_URL: httpUrl.default('http://localhost:3000'),
  DATABASE_PATH: storagePath.default('data/site.db'),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: email.default(site.mailFrom),
  MAIL_TO: email.default(site.mailTo),
  MAIL_RETRY_BASE_MS: integer(1, 86_400_000).default(30_000),
  TRUST_PROXY: trustProxy.default(false),
  BOOKING_URL: httpUrl.default(site.bookingUrl),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  QUARANTINE_DAYS: integer(1, 3650).default(30),
  AI_LEDGER: z.enum(['on', 'off']).default('on'),
  AI_SOURCES_FILE: z.string().trim().min(1).optional(),
  BACKUP_INTERVAL_HOURS: integer(0, 8760).default(24),
  BACKUP_KEEP: integer(1, 10_000).default(14),
  BACKUP_DIR: storagePath.optional(),
  ALLOW_PLACEHOLDER_CONTENT: z.enum(['0', '1']).default('0'),
  SITE_CHECK_ALLOW: siteCheckAllow.default([]),
  PROBE_PROMPTS: integer(1, 50).default(10),
  PROBE_DAILY_CALLS: integer(1, 100_000).default(300),
  AUDIT_PROMPTS: integer(1, 100).default(50),
  AUDIT_AUTO: z.enum(['0', '1']).default('0'),
  AUDIT_AUTO_SEND: z.enum(['0', '1']).default('0'),
  AUDIT_FACT_PROMPTS: integer(0, MAX_ABOUT_TEMPLATES).default(3),
  MONITOR_PROMPTS: integer(1, 100).default(50),
  MONITOR_INTERVAL_DAYS: integer(1, 365).default(30),
  MONITOR_SEND: z.enum(['0', '1']).default('0'),
  // Each assistant is asked only when its key is set.
  OPENAI_API_KEY: apiKey.optional(),
  OPENAI_BASE_URL: httpUrl.default(ASSISTANTS.chatgpt.defaultBaseUrl),
  OPENAI_MODEL: modelId.default(ASSISTANTS.chatgpt.defaultModel),
  ANTHROPIC_API_KEY: apiKey.optional(),
  ANTHROPIC_BASE_URL: httpUrl.default(ASSISTANTS.claude.defaultBaseUrl),
  ANTHROPIC_MODEL: modelId.default(ASSISTANTS.claude.defaultModel),
  GEMINI_API_KEY: apiKey.optional(),
  GEMINI_BASE_URL: httpUrl.default(ASSISTANTS.gemini.defaultBaseUrl),
  GEMINI_MODEL: modelId.default(ASSISTANTS.gemini.defaultModel),
  PERPLEXITY_API_KEY: apiKey.optional(),
  PERPLEXITY_BASE_URL: httpUrl.default(ASSISTANTS.perplexity.defaultBaseUrl),
  PERPLEXITY_MODEL: modelId.default(ASSISTANTS.perplexity.defaultModel),
  JUDGE_PROVIDER: z.enum(['none', ...ASSISTANT_IDS] as ['none', ...AssistantId[]]).optional(),
  JUDGE_MODEL: modelId.optional(),
  PUBLIC_CHECKS_PER_ADDRESS: integer(1, 10_000).default(5),
  PUBLIC_CHECKS_PER_HOUR: integer(1, 1_000_000).default(60),
  FORM_MIN_FILL_MS: integer(0, MIN_FILL_MS).default(MIN_FILL_MS),
  BACKGROUND_PRIORITY: z.enum(['idle', 'normal']).default('idle'),
  PAGE_CACHE_DIR: storagePath.optional(),
  NODE_ENV: z.string().optional(),
});

/** Variables whose value may hold a password: shown with it masked. */
const SECRET_URLS = new Set(['SMTP_URL', ...ASSISTANT_IDS.map((id) => `${ASSISTANTS[id].envPrefix}_BASE_URL`)]);

/** Variables whose value is a secret through and through: never shown at all. */
const SECRET_VALUES = new Set(ASSISTANT_IDS.map((id) => `${ASSISTANTS[id].envPrefix}_API_KEY`));

/**
 * A URL as it can be shown in a log or an error: everything before its last @ (user and password:
 * some providers take a token as the user name, and a password may hold spaces or @) as ***.
 */
function redactUrl(value: string): string {
  const at = value.lastIndexOf('@');
  if (at === -1) return value;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  return `${scheme}***${value.slice(at)}`;
}

/** A variable as an error message shows it: its value quoted, on one line, never a password or a key. */
function shownVariable(name: string, value: string): string {
  if (SECRET_VALUES.has(name)) return `${name} (value not shown)`;
  return `${name}=${JSON.stringify(SECRET_URLS.has(name) ? redactUrl(value) : value)}`;
}

/** The assistants whose key is set, each with its base URL and model. */
function probeAssistants(value: z.output<typeof schema>): ProbeAssistantSetting[] {
  return ASSISTANT_IDS.flatMap((id) => {
    const prefix = ASSISTANTS[id].envPrefix;
    const key = value[`${prefix}_API_KEY`];
    return key === undefined ? [] : [{ id, apiKey: new ApiKey(key), baseUrl: value[`${prefix}_BASE_URL`], model: value[`${prefix}_MODEL`] }];
  });
}

/**
 * The assistant that judges answers: JUDGE_PROVIDER's, which must have its key set, else the first
 * configured; with JUDGE_MODEL, else that assistant's small model. Its key and API base are the
 * assistant's own.
 */
function judgeSetting(value: z.output<typeof schema>): ProbeAssistantSetting | null {
  const assistants = probeAssistants(value);
  const wanted = value.JUDGE_PROVIDER;
  if (wanted === 'none') return null;
  const assistant = wanted === undefined ? assistants[0] : assistants.find((setting) => setting.id === wanted);
  if (wanted !== undefined && assistant === undefined) throw new ConfigError(`Invalid configuration: JUDGE_PROVIDER=${JSON.stringify(wanted)} needs ${ASSISTANTS[wanted].envPrefix}_API_KEY, which is not set`);
  return assistant === undefined ? null : { ...assistant, model: value.JUDGE_MODEL ?? ASSISTANTS[assistant.id].judgeModel };
}

/** Parses the environment; throws ConfigError whose message is one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${shownVariable(name, present[name] ?? '')} ${issue?.message ?? ''}`.trim());
  }
  const value = result.data;
  const databasePath = path.resolve(value.DATABASE_PATH);
  // What tests may lower, a public site may not: a bot's post would pass for a person's, and a
  // stranger's page would compete with the pages for the CPU.
  if (new URL(value.SITE_URL).protocol === 'https:') {
    if (value.FORM_MIN_FILL_MS < MIN_FILL_MS) throw new ConfigError(`Invalid configuration: FORM_MIN_FILL_MS=${JSON.stringify(present.FORM_MIN_FILL_MS)} is for tests: a public (https) SITE_URL keeps ${MIN_FILL_MS} ms`);
    if (value.BACKGROUND_PRIORITY !== 'idle') throw new ConfigError(`Invalid configuration: BACKGROUND_PRIORITY=${JSON.stringify(present.BACKGROUND_PRIORITY)} is for tests: a public (https) SITE_URL keeps "idle"`);
  }
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
    quarantineDays: value.QUARANTINE_DAYS,
    aiLedger: value.AI_LEDGER === 'on',
    aiSourcesFile: value.AI_SOURCES_FILE ? path.resolve(value.AI_SOURCES_FILE) : undefined,
    backupIntervalHours: value.BACKUP_INTERVAL_HOURS,
    backupKeep: value.BACKUP_KEEP,
    backupDir: value.BACKUP_DIR ? path.resolve(value.BACKUP_DIR) : path.join(path.dirname(databasePath), 'backups'),
    allowPlaceholderContent: value.ALLOW_PLACEHOLDER_CONTENT === '1',
    siteCheckAllow: value.SITE_CHECK_ALLOW,
    probe: { assistants: probeAssistants(value), promptsPerAssistant: value.PROBE_PROMPTS, dailyCalls: value.PROBE_DAILY_CALLS },
    judge: judgeSetting(value),
    audit: {
      promptsPerAssistant: value.AUDIT_PROMPTS,
      // No more than there are questions to ask: content/probe-prompts.yaml's aboutTemplates.
      factPrompts: Math.min(value.AUDIT_FACT_PROMPTS, probePrompts.aboutTemplates.length),
      auto: value.AUDIT_AUTO === '1',
      autoSend: value.AUDIT_AUTO_SEND === '1',
    },
    monitor: { promptsPerAssistant: value.MONITOR_PROMPTS, intervalDays: value.MONITOR_INTERVAL_DAYS, send: value.MONITOR_SEND === '1' },
    publicChecksPerAddress: value.PUBLIC_CHECKS_PER_ADDRESS,
    publicChecksPerHour: value.PUBLIC_CHECKS_PER_HOUR,
    formMinFillMs: value.FORM_MIN_FILL_MS,
    pageCacheDir: value.PAGE_CACHE_DIR ? path.resolve(value.PAGE_CACHE_DIR) : null,
    backgroundPriority: value.BACKGROUND_PRIORITY,
    isProduction: value.NODE_ENV !== 'development' && value.NODE_ENV !== 'test',
  };
}
