import { ASSISTANTS, type AssistantId } from '../visibility-probe/assistant-catalogue';
import { RunStore, type RunProgress, type RunRow } from './run-store';

/** How often a run is looked at while a command follows it. */
const FOLLOW_EVERY_MS = 500;
/** How long a queued run may wait for the server, with no other run before it, before the command says the server is not running it. */
const SERVER_WAIT_MS = 15_000;

const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/** The other run a queued one waits for, as a person reads it. */
export function runName(run: Pick<RunRow, 'id' | 'audit_id' | 'client_id'>): string {
  return run.audit_id !== null ? `audit run #${run.id} (request #${run.audit_id})` : `client #${run.client_id ?? '?'}'s run #${run.id}`;
}

/**
 * How a run is shown while it goes, on stderr: bars redrawn in place on a terminal, a plain line
 * per assistant as it moves elsewhere.
 */
export function progressView(assistants: readonly AssistantId[]): (progress: RunProgress) => void {
  const terminal = process.stderr.isTTY === true;
  const labels = assistants.map((id) => ASSISTANTS[id].label);
  const width = Math.max(...labels.map((label) => label.length));
  let drawn = 0;
  let lastStep: string | null = null;
  const lastCounts = new Map<string, number>();
  return (progress) => {
    const counts = assistants.map((id) => progress.answered[id] ?? 0);
    const of = progress.questions;
    if (terminal) {
      const lines = [
        `${progress.step}...`,
        ...assistants.map((id, index) => {
          const done = counts[index] ?? 0;
          const share = of ? Math.min(1, done / of) : 0;
          const filled = Math.round(share * 30);
          return `${ASSISTANTS[id].label.padEnd(width)} [${'#'.repeat(filled)}${'-'.repeat(30 - filled)}] ${done}/${of ?? '?'}`;
        }),
      ];
      // Back to the first line drawn, then each line written over.
      process.stderr.write(`${drawn > 0 ? `\x1b[${drawn}A` : ''}${lines.map((line) => `\r\x1b[K${line}`).join('\n')}\n`);
      drawn = lines.length;
      return;
    }
    if (progress.step !== lastStep) {
      process.stderr.write(`${progress.step}...\n`);
      lastStep = progress.step;
    }
    assistants.forEach((id, index) => {
      const done = counts[index] ?? 0;
      if (of === null || lastCounts.get(id) === done) return;
      lastCounts.set(id, done);
      process.stderr.write(`${ASSISTANTS[id].label}: ${done} of ${of} questions answered\n`);
    });
  };
}

/** Why following a run ended before the run did: a line for the person, and the command's exit status. */
export class StoppedFollowing extends Error {
  constructor(
    message: string,
    readonly status = 1,
  ) {
    super(message);
  }
}

export interface FollowOptions {
  /** How the run is named in the lines ("audit run #5", "run #7"). */
  name: string;
  /** Why it is gone when its row is ("its request was erased"). */
  gone: string;
  /** Told of each change of its progress (a command that shows it). */
  onProgress?: (progress: RunProgress) => void;
  /** How to follow it again, after the command gave up waiting (" follow it with npm run audit -- --id 3"). */
  again?: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The commands' one way to follow a run the server runs, until it ends: returns it as it ended.
 * Says, on stderr, which other run it waits for (one runs at a time); stops following, with one
 * line (StoppedFollowing), when the run is gone, when it waits for the next UTC day, or when the
 * server has not started it within SERVER_WAIT_MS with no other run before it.
 */
export async function followRun(store: RunStore, id: number, options: FollowOptions): Promise<RunRow> {
  const queuedAt = Date.now();
  let waitingFor: number | null = null;
  let lastProgress: string | null = null;
  for (;;) {
    const run = store.get(id);
    if (!run) throw new StoppedFollowing(`${capitalised(options.name)} is gone: ${options.gone}`);
    if (run.status !== 'queued' && run.status !== 'running') return run;
    if (run.status === 'queued') {
      if (run.not_before !== null) {
        throw new StoppedFollowing(`${capitalised(options.name)} waits for the next UTC day (${utc(run.not_before)}): today's PROBE_DAILY_CALLS cannot hold it. It stays queued.`);
      }
      const before = store.runningBesides(id);
      if (before && before.id !== waitingFor) {
        waitingFor = before.id;
        process.stderr.write(`Waiting for ${runName(before)} to end: one runs at a time.\n`);
      }
      if (!before && Date.now() - queuedAt > SERVER_WAIT_MS) {
        throw new StoppedFollowing(
          `The server has not started ${options.name} in ${SERVER_WAIT_MS / 1000} s: is it running, with an assistant's key set? The run stays queued and starts when the server does${options.again ? `;${options.again}` : '.'}`,
        );
      }
    } else if (run.progress !== null && run.progress !== lastProgress) {
      lastProgress = run.progress;
      options.onProgress?.(JSON.parse(run.progress) as RunProgress);
    }
    await sleep(FOLLOW_EVERY_MS);
  }
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
