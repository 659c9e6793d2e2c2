import { SITE_CHECKER_PAGE_PATH } from '../../shared/site-check';
import { BackgroundProcessEnded, builtProcessFile, runBackgroundProcess } from '../background-process';
import { parseAddressList } from './address-policy';
import { reportWithoutFacts, type SiteCheckReport } from './check-report';
import type { BackgroundPriority } from '../config';

/** The longest a whole check may take, whatever the site sends: past it, its process is killed. */
const CHECK_DEADLINE_MS = 30_000;
/**
 * How much earlier than the deadline the check's own timer ends its fetches, so that a check
 * slowed only by the network ends with its own reason rather than being cut off.
 */
const OWN_TIMER_MARGIN_MS = 1_000;
/**
 * The heap one check's process may use: far more than reading 1 MB a file takes (a few MB), far
 * less than the machine can spare for three at once.
 */
const CHECK_HEAP_MB = 96;

/** What the prospect and the agency read when a check's process had to be ended. */
export const TOO_LONG_TO_READ = "the site's pages took too long to read";
export const TOO_LARGE_TO_READ = "the site's pages took more memory to read than a check may use";

/** What a check's process is sent. */
export interface CheckInput {
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

/** What a check's process says: each step as it starts, then its report. */
export type CheckMessage = { kind: 'progress'; step: string } | { kind: 'report'; report: SiteCheckReport };

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
  /** The code each check's process runs (tests give one that misbehaves); the built one by default. */
  checkFile?: string;  /** BACKGROUND_PRIORITY (idle by default). */
  priority?: BackgroundPriority;
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
 * Runs each check in a process of its own, at idle priority, apart from the process that serves
 * pages: whatever the site sends, reading it cannot hold up a page, the health
 * check, the mail or a stop, and it shares no heap, garbage collector, thread pool or lock with
 * them. The process has a heap limit, and a deadline that kills it even in the middle of
 * synchronous work; a check ended that way is a failed report with its reason. The worker that
 * runs queued checks and the CLI both check through here.
 */
export function createSiteChecker(options: SiteCheckerOptions): SiteChecker {
  const userAgent = checkerUserAgent(options.brand, options.siteUrl);
  // A bad allowlist fails here, in the caller, not later in a check's process.
  parseAddressList(options.allow.join(','));
  const deadlineMs = options.deadlineMs ?? CHECK_DEADLINE_MS;
  const checkFile = options.checkFile ?? builtProcessFile('site-check-process');

  /** A check whose process was ended says why, as the prospect and the agency read it. */
  const reasonFor = (error: BackgroundProcessEnded) =>
    error.end === 'deadline'
      ? TOO_LONG_TO_READ
      : error.end === 'out of memory'
        ? TOO_LARGE_TO_READ
        : error.end === 'not started'
          ? `the check could not run: ${error.message}`
          : 'the check stopped before it had a report';

  return {
    userAgent,
    check: async (url, { onProgress, signal } = {}) => {
      const started = options.clock();
      const startedAt = performance.now();
      const input: CheckInput = {
        url,
        userAgent,
        allow: options.allow,
        agents: options.agents,
        checkerAgent: checkerAgent(options.brand),
        startedAt: started.toISOString(),
        timeoutMs: Math.max(deadlineMs - OWN_TIMER_MARGIN_MS, deadlineMs / 2),
        ...(options.fetchTimeoutMs ? { fetchTimeoutMs: options.fetchTimeoutMs } : {}),
      };
      try {
        return await runBackgroundProcess<SiteCheckReport, CheckMessage, never>({
          file: checkFile,
          heapMb: CHECK_HEAP_MB,
          ...(options.priority ? { priority: options.priority } : {}),
          start: input,
          deadlineMs,
          ...(signal ? { signal } : {}),
          onMessage: (message, run) => {
            if (message.kind === 'progress') onProgress?.(message.step);
            else run.done(message.report);
          },
        });
      } catch (error) {
        if (!(error instanceof BackgroundProcessEnded)) throw error;
        return reportWithoutFacts(url, 'failed', reasonFor(error), started, Math.round(performance.now() - startedAt));
      }
    },
  };
}
