import { existsSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import Piscina from 'piscina';
import { SITE_CHECKER_PAGE_PATH } from '../../shared/site-check';
import { parseAddressList } from './address-policy';
import { reportWithoutFacts, type SiteCheckReport } from './run-check';

/** The longest a whole check may take, whatever the site sends: past it, its thread is ended. */
const CHECK_DEADLINE_MS = 30_000;
/**
 * How much earlier than the deadline the check's own timer ends its fetches, so that a check
 * slowed only by the network ends with its own reason rather than being cut off.
 */
const OWN_TIMER_MARGIN_MS = 1_000;
/**
 * What one check's thread may use: far more than reading 1 MB a file takes (a few MB), far less
 * than the process can spare for three at once.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };
/** How long a thread is kept after its last check, for the next one. */
const THREAD_IDLE_MS = 30_000;

/** What the prospect and the agency read when a check's thread had to be ended. */
export const TOO_LONG_TO_READ = "the site's pages took too long to read";
export const TOO_LARGE_TO_READ = "the site's pages took more memory to read than a check may use";

/** What a check's thread is given. */
export interface CheckThreadInput {
  url: string;
  userAgent: string;
  allow: readonly string[];
  agents: readonly string[];
  checkerAgent: string;
  /** When the check started, on the caller's clock (ISO 8601). */
  startedAt: string;
  /** The check's own timer, a little before the deadline. */
  timeoutMs: number;
  fetchTimeoutMs?: number;
}

/** The checker's robots.txt product token: the brand, then SiteCheck ("CitewiseSiteCheck"). */
function checkerAgent(brand: string): string {
  return `${brand.replace(/[^A-Za-z0-9]/g, '')}SiteCheck`;
}

/**
 * The one User-Agent every fetch sends: it names the site and links to the page that says what
 * the checker does and how to keep it out.
 */
export function checkerUserAgent(brand: string, siteUrl: string): string {
  return `Mozilla/5.0 (compatible; ${checkerAgent(brand)}/1.0; +${siteUrl}${SITE_CHECKER_PAGE_PATH})`;
}

/**
 * The thread's code, as the build writes it: dist/server/site-check-thread.js under the
 * project's root (the folder with package.json), whether this runs from dist/ or, in tests and
 * scripts, from the sources.
 */
function builtThreadFile(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('No package.json above the site check: cannot find its thread');
    dir = parent;
  }
  return path.join(dir, 'dist', 'server', 'site-check-thread.js');
}

export interface SiteCheckerOptions {
  brand: string;
  siteUrl: string;
  /** SITE_CHECK_ALLOW, as config.ts validated it. */
  allow: readonly string[];
  /** The robots.txt tokens of the AI agents to judge. */
  agents: readonly string[];
  clock: () => Date;
  /** Checks that may run at once (threads kept); one by default. */
  threads?: number;
  /** The whole check's deadline (tests shorten it). */
  deadlineMs?: number;
  fetchTimeoutMs?: number;
  /** The code each check runs in its thread (tests give one that misbehaves); the built one by default. */
  threadFile?: string;
}

interface CheckOptions {
  /** Told of each step as it starts ("fetching robots.txt"). */
  onProgress?: (step: string) => void;
  /** Ends the check at once (a normal stop): the promise rejects with the signal's reason, no report. */
  signal?: AbortSignal;
}

export interface SiteChecker {
  readonly userAgent: string;
  check(url: string, options?: CheckOptions): Promise<SiteCheckReport>;
  /** Ends the threads kept for later checks. */
  close(): Promise<void>;
}

/** What a check's thread is given: the check, and where to say each step as it starts. */
export interface CheckTask {
  input: CheckThreadInput;
  progress: MessagePort;
}

/**
 * Runs each check in a worker thread, apart from the event loop that serves pages: whatever the
 * site sends, reading it cannot hold up a page, the health check, the mail or a stop. Threads
 * come from a Piscina pool (kept 30 s after their last check, so a burst of checks does not pay
 * for starting one each time) with memory limits; a check's deadline ends its thread even in the
 * middle of synchronous work, and a check ended that way is a failed report with its reason. The
 * worker that runs queued checks and the CLI both check through here.
 */
export function createSiteChecker(options: SiteCheckerOptions): SiteChecker {
  const userAgent = checkerUserAgent(options.brand, options.siteUrl);
  // A bad allowlist fails here, in the caller, not later in a thread.
  parseAddressList(options.allow.join(','));
  const deadlineMs = options.deadlineMs ?? CHECK_DEADLINE_MS;
  const pool = new Piscina<CheckTask, SiteCheckReport>({
    filename: options.threadFile ?? builtThreadFile(),
    minThreads: 0,
    maxThreads: options.threads ?? 1,
    idleTimeout: THREAD_IDLE_MS,
    resourceLimits: THREAD_LIMITS,
    // The thread's code is built JavaScript: none of the process's own flags (a TypeScript loader, an inspector).
    execArgv: [],
  });

  return {
    userAgent,
    close: () => pool.destroy(),
    async check(url, { onProgress, signal } = {}) {
      const started = options.clock();
      const startedAt = performance.now();
      const failed = (reason: string) => reportWithoutFacts(url, 'failed', reason, started, Math.round(performance.now() - startedAt));
      const input: CheckThreadInput = {
        url,
        userAgent,
        allow: options.allow,
        agents: options.agents,
        checkerAgent: checkerAgent(options.brand),
        startedAt: started.toISOString(),
        timeoutMs: Math.max(deadlineMs - OWN_TIMER_MARGIN_MS, deadlineMs / 2),
        ...(options.fetchTimeoutMs ? { fetchTimeoutMs: options.fetchTimeoutMs } : {}),
      };
      const deadline = AbortSignal.timeout(deadlineMs);
      const progress = new MessageChannel();
      progress.port1.on('message', (step: string) => onProgress?.(step));
      try {
        return await pool.run({ input, progress: progress.port2 }, { transferList: [progress.port2], signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (deadline.aborted) return failed(TOO_LONG_TO_READ);
        if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') return failed(TOO_LARGE_TO_READ);
        return failed(`the check stopped: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        progress.port1.close();
      }
    },
  };
}
