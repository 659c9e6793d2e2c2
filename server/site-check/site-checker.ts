import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
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

/** What a check's thread says: each step as it starts, then its report. */
export type CheckThreadMessage = { kind: 'progress'; step: string } | { kind: 'report'; report: SiteCheckReport };

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
}

/**
 * Runs each check in a worker thread of its own, apart from the event loop that serves pages:
 * whatever the site sends, reading it cannot hold up a page, the health check, the mail or a
 * stop. The thread has memory limits, and a deadline that ends it even in the middle of
 * synchronous work; a check ended that way is a failed report with its reason. The worker that
 * runs queued checks and the CLI both check through here.
 */
export function createSiteChecker(options: SiteCheckerOptions): SiteChecker {
  const userAgent = checkerUserAgent(options.brand, options.siteUrl);
  // A bad allowlist fails here, in the caller, not later in a thread.
  parseAddressList(options.allow.join(','));
  const deadlineMs = options.deadlineMs ?? CHECK_DEADLINE_MS;
  const threadFile = options.threadFile ?? builtThreadFile();

  return {
    userAgent,
    check: (url, { onProgress, signal } = {}) =>
      new Promise<SiteCheckReport>((resolve, reject) => {
        const started = options.clock();
        const startedAt = performance.now();
        const failed = (reason: string) => reportWithoutFacts(url, 'failed', reason, started, Math.round(performance.now() - startedAt));
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
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
        const thread = new Worker(threadFile, { workerData: input, resourceLimits: THREAD_LIMITS });
        let settled = false;
        const end = () => {
          settled = true;
          clearTimeout(deadline);
          signal?.removeEventListener('abort', onAbort);
          void thread.terminate();
        };
        const finish = (report: SiteCheckReport) => {
          if (settled) return;
          end();
          resolve(report);
        };
        const onAbort = () => {
          if (settled) return;
          end();
          reject(signal?.reason);
        };
        const deadline = setTimeout(() => finish(failed(TOO_LONG_TO_READ)), deadlineMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        thread.on('message', (message: CheckThreadMessage) => {
          if (message.kind === 'progress') onProgress?.(message.step);
          else finish(message.report);
        });
        thread.on('error', (error: NodeJS.ErrnoException) => {
          finish(failed(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? TOO_LARGE_TO_READ : `the check stopped: ${error.message}`));
        });
        thread.on('exit', () => finish(failed('the check stopped before it had a report')));
      }),
  };
}
