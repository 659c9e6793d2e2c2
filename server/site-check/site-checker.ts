import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { SITE_CHECKER_PAGE_PATH } from '../../shared/site-check';
import { parseAddressList } from './address-policy';
import { reportWithoutFacts, type SiteCheckReport } from './run-check';

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
/** The most of a check process's own error output kept, to tell why it ended. */
const ERROR_OUTPUT_KEPT = 4096;

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

let idlePriority: boolean | undefined;

/** Whether a process can be started at idle priority (Linux's SCHED_IDLE, through util-linux's chrt); asked once. */
function canRunAtIdlePriority(): boolean {
  idlePriority ??= process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true'], { stdio: 'ignore' }).status === 0;
  return idlePriority;
}

/**
 * A check's process, at the lowest priority there is: SCHED_IDLE, which runs only on CPU time
 * nothing else wants and yields at once to a page being served; where that cannot be had, nice 19.
 * Node's own flags only: none of this process's (a TypeScript loader, an inspector).
 */
function startCheckProcess(checkFile: string): ChildProcess {
  const args = [`--max-old-space-size=${CHECK_HEAP_MB}`, checkFile];
  const options: SpawnOptions = { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] };
  if (canRunAtIdlePriority()) return spawn('chrt', ['--idle', '0', process.execPath, ...args], options);
  const child = spawn(process.execPath, args, options);
  try {
    if (child.pid !== undefined) setPriority(child.pid, 19);
  } catch {
    // Not allowed here: the check still runs, at normal priority.
  }
  return child;
}

/**
 * The check process's code, as the build writes it: dist/server/site-check-process.js under the
 * project's root (the folder with package.json), whether this runs from dist/ or, in tests and
 * scripts, from the sources.
 */
function builtCheckFile(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('No package.json above the site check: cannot find its process');
    dir = parent;
  }
  return path.join(dir, 'dist', 'server', 'site-check-process.js');
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
  checkFile?: string;
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
  const checkFile = options.checkFile ?? builtCheckFile();

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
        const child = startCheckProcess(checkFile);
        let errorOutput = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          if (errorOutput.length < ERROR_OUTPUT_KEPT) errorOutput += chunk.toString();
        });
        let settled = false;
        const end = () => {
          settled = true;
          clearTimeout(deadline);
          signal?.removeEventListener('abort', onAbort);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
        child.on('message', (message: CheckMessage) => {
          if (message.kind === 'progress') onProgress?.(message.step);
          else finish(message.report);
        });
        child.on('error', (error) => finish(failed(`the check could not run: ${error.message}`)));
        child.on('exit', (_code, exitSignal) => {
          // V8 aborts a process past its heap limit, saying so on its error output.
          const outOfMemory = exitSignal === 'SIGABRT' || /heap out of memory|Reached heap limit/.test(errorOutput);
          finish(failed(outOfMemory ? TOO_LARGE_TO_READ : 'the check stopped before it had a report'));
        });
        child.send(input);
      }),
  };
}
