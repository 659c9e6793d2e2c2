import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';

/**
 * The processes that read what strangers send (a prospect's website, an assistant's answer) apart
 * from the process that serves pages: each shares no heap, garbage collector, thread pool or lock
 * with it, runs at the lowest priority there is, and can be killed in the middle of synchronous
 * work. The site check and the visibility probe both start theirs here.
 */

/** The most of a background process's own error output kept, to tell why it ended. */
const ERROR_OUTPUT_KEPT = 4096;

let idlePriority: boolean | undefined;

/** Whether a process can be started at idle priority (Linux's SCHED_IDLE, through util-linux's chrt); asked once. */
function canRunAtIdlePriority(): boolean {
  idlePriority ??= process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true'], { stdio: 'ignore' }).status === 0;
  return idlePriority;
}

export interface BackgroundProcess {
  child: ChildProcess;
  /** Whether it ended past its heap limit (V8 aborts it, saying so on its error output). */
  endedOutOfMemory(exitSignal: NodeJS.Signals | null): boolean;
}

/**
 * Starts `file` with a heap of `heapMb`, at SCHED_IDLE, which runs only on CPU time nothing else
 * wants and yields at once to a page being served; where that cannot be had, at nice 19. It talks
 * to its parent over IPC only: its output is not read, and its error output is kept only to tell
 * an out-of-memory end, never logged (it could hold what a stranger sent). Node's own flags only:
 * none of this process's (a TypeScript loader, an inspector).
 */
export function startBackgroundProcess(file: string, heapMb: number): BackgroundProcess {
  const args = [`--max-old-space-size=${heapMb}`, file];
  const options: SpawnOptions = { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] };
  let child: ChildProcess;
  if (canRunAtIdlePriority()) {
    child = spawn('chrt', ['--idle', '0', process.execPath, ...args], options);
  } else {
    child = spawn(process.execPath, args, options);
    try {
      if (child.pid !== undefined) setPriority(child.pid, 19);
    } catch {
      // Not allowed here: it still runs, at normal priority.
    }
  }
  let errorOutput = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (errorOutput.length < ERROR_OUTPUT_KEPT) errorOutput += chunk.toString();
  });
  return {
    child,
    endedOutOfMemory: (exitSignal) => exitSignal === 'SIGABRT' || /heap out of memory|Reached heap limit/.test(errorOutput),
  };
}

/** Ends a background process at once, whatever it is doing, unless it has ended already. */
export function killBackgroundProcess(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
