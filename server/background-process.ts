import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import type { BackgroundPriority } from './config';

/**
 * The processes that read what strangers send (a prospect's website, an assistant's answer) apart
 * from the process that serves pages: each shares no heap, garbage collector, thread pool or lock
 * with it, runs at the lowest priority there is, and can be killed in the middle of synchronous
 * work. The site check and the visibility probe both run theirs here.
 */

/** The most of a background process's own error output kept, to tell why it ended. */
const ERROR_OUTPUT_KEPT = 4096;

/**
 * All a background process sees of the server's environment. It reads what a stranger sends, so
 * it gets nothing secret: no API key, no SMTP_URL and its password, no DATABASE_PATH. What it
 * needs to work comes in its first IPC message (a probe's keys among it). No PATH either: it
 * starts no program. Node reads the locale, the time zone and the extra CA certificates (a proxy
 * in front of an API) from these.
 */
const PASSED_ON = ['NODE_ENV', 'TZ', 'LANG', 'LC_ALL', 'NODE_EXTRA_CA_CERTS'];

function backgroundEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(PASSED_ON.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
}

let chrt: string | null | undefined;

/**
 * util-linux's chrt, where it can start a process at idle priority (Linux's SCHED_IDLE): found on
 * this process's PATH once, so that the background process needs none. Null where it cannot.
 */
function idlePriorityCommand(): string | null {
  if (chrt !== undefined) return chrt;
  const found = process.platform === 'linux' ? (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'chrt')).find((file) => existsSync(file)) : undefined;
  chrt = found && spawnSync(found, ['--idle', '0', 'true'], { stdio: 'ignore' }).status === 0 ? found : null;
  return chrt;
}

/**
 * Starts `file` with a heap of `heapMb`, at SCHED_IDLE, which runs only on CPU time nothing else
 * wants and yields at once to a page being served; where that cannot be had, at nice 19 (tests
 * may ask for normal priority: BACKGROUND_PRIORITY). It talks
 * to its parent over IPC only: its output is not read, and its error output is kept only to tell
 * an out-of-memory end, never logged (it could hold what a stranger sent). Node's own flags only:
 * none of this process's (a TypeScript loader, an inspector).
 */
function startBackgroundProcess(file: string, heapMb: number, priority: BackgroundPriority): { child: ChildProcess; errorOutput: () => string } {
  const args = [`--max-old-space-size=${heapMb}`, file];
  const options: SpawnOptions = { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: backgroundEnvironment() };
  if (priority === 'normal') return withErrorOutput(spawn(process.execPath, args, options));
  const idle = idlePriorityCommand();
  const child = idle ? spawn(idle, ['--idle', '0', process.execPath, ...args], options) : spawn(process.execPath, args, options);
  if (!idle) {
    try {
      if (child.pid !== undefined) setPriority(child.pid, 19);
    } catch {
      // Not allowed here: it still runs, at normal priority.
    }
  }
  return withErrorOutput(child);
}

/** The child, with the start of its error output kept: what tells an out-of-memory end. */
function withErrorOutput(child: ChildProcess): { child: ChildProcess; errorOutput: () => string } {
  let errorOutput = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (errorOutput.length < ERROR_OUTPUT_KEPT) errorOutput += chunk.toString();
  });
  return { child, errorOutput: () => errorOutput };
}

/** How a background process was ended before it settled its run. */
export type ProcessEnd = 'deadline' | 'silent' | 'out of memory' | 'exited' | 'not started';

/** A run ended by its process's end, not by its answer: `end` says which (the caller words it for the agency). */
export class BackgroundProcessEnded extends Error {
  constructor(
    readonly end: ProcessEnd,
    message: string,
  ) {
    super(message);
  }
}

/** What a run may do with a message its process sent. */
interface RunControl<T, Reply> {
  /** The run's result: the process is ended, and the run resolves with it. */
  done(value: T): void;
  /** The process reported a failure: it is ended, and the run rejects with `reason`. */
  fail(reason: string): void;
  /** An answer to the process (while it still listens). */
  reply(message: Reply): void;
}

export interface BackgroundRun<T, Message, Reply> {
  /** The process's code (dist/server/{name}.js: builtProcessFile). */
  file: string;
  heapMb: number;
  /** BACKGROUND_PRIORITY: idle but in tests. */
  priority?: BackgroundPriority;
  /** Its first message: the work, and whatever it needs to do it (never in its arguments or environment). */
  start: unknown;
  /** Ends it this long after it started, whatever it is doing. */
  deadlineMs?: number;
  /** Ends it when it says nothing for this long. */
  silenceMs?: number;
  /** Ends it at once (a stop): the run rejects with the signal's reason. */
  signal?: AbortSignal;
  onMessage(message: Message, run: RunControl<T, Reply>): void;
}

/**
 * One run of a background process: started, sent its work, heard until it settles the run, and
 * then ended, whatever it is doing. The run settles once: with what the process reported; or, ended
 * by its deadline, its silence, its heap limit, its own exit or a failure to start, with a
 * BackgroundProcessEnded; or, stopped, with the signal's reason. Its end is read on 'close', after
 * its last message has been heard (Node orders no 'exit' after the last IPC message).
 */
export function runBackgroundProcess<T, Message, Reply>(run: BackgroundRun<T, Message, Reply>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const { signal } = run;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const { child, errorOutput } = startBackgroundProcess(run.file, run.heapMb, run.priority ?? 'idle');
    let settled = false;
    let silence: NodeJS.Timeout | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(silence);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      outcome();
    };
    const ended = (end: ProcessEnd, message: string) => settle(() => reject(new BackgroundProcessEnded(end, message)));
    const listen = () => {
      if (run.silenceMs === undefined) return;
      clearTimeout(silence);
      silence = setTimeout(() => ended('silent', `silent for ${run.silenceMs} ms`), run.silenceMs);
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    const deadline = run.deadlineMs === undefined ? undefined : setTimeout(() => ended('deadline', `still running after ${run.deadlineMs} ms`), run.deadlineMs);
    listen();
    signal?.addEventListener('abort', onAbort, { once: true });
    const control: RunControl<T, Reply> = {
      done: (value) => settle(() => resolve(value)),
      fail: (reason) => settle(() => reject(new Error(reason))),
      reply: (message) => {
        if (!settled && child.connected) child.send(message as object);
      },
    };
    child.on('message', (message: Message) => {
      if (settled) return;
      listen();
      run.onMessage(message, control);
    });
    child.on('error', (error) => ended('not started', error.message));
    child.on('close', (_code, exitSignal) => {
      // V8 aborts a process past its heap limit, saying so on its error output.
      const outOfMemory = exitSignal === 'SIGABRT' || /heap out of memory|Reached heap limit/.test(errorOutput());
      ended(outOfMemory ? 'out of memory' : 'exited', 'ended before it settled its run');
    });
    try {
      child.send(run.start as object);
    } catch (error) {
      // Not started (no such program, no channel): 'error' says so too, and the run settles once.
      ended('not started', error instanceof Error ? error.message : String(error));
    }
  });
}

/**
 * A background process's code, as the build writes it: dist/server/{name}.js under the project's
 * root (the folder with package.json), whether this runs from dist/ or, in tests and scripts,
 * from the sources.
 */
export function builtProcessFile(name: string): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${__dirname}: cannot find ${name}.js`);
    dir = parent;
  }
  return path.join(dir, 'dist', 'server', `${name}.js`);
}
