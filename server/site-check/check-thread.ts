import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { parseAddressList } from './address-policy';
import { createFetcher } from './fetcher';
import { runSiteCheck } from './run-check';
import type { CheckThreadInput, CheckThreadMessage } from './site-checker';

/**
 * One site check, in a worker thread of its own (site-checker.ts starts it, and ends it at its
 * deadline whatever it is doing). Everything that touches the stranger's site runs here: the
 * fetches, and the reading of what they bring.
 */
const input = workerData as CheckThreadInput;
const port = parentPort;
if (!port) throw new Error('check-thread runs as a worker thread only');
const send = (message: CheckThreadMessage) => port.postMessage(message);

// The lowest scheduling priority, for this thread only (Linux keeps a nice value per thread):
// when the machine is busy, the thread that serves pages goes first.
try {
  setPriority(19);
} catch {
  // Not allowed here: the check still runs, at normal priority.
}

const fetcher = createFetcher({
  userAgent: input.userAgent,
  allowlist: parseAddressList(input.allow.join(',')),
  ...(input.fetchTimeoutMs ? { fetchTimeoutMs: input.fetchTimeoutMs } : {}),
});

void runSiteCheck(input.url, {
  fetcher,
  agents: input.agents,
  checkerAgent: input.checkerAgent,
  clock: () => new Date(input.startedAt),
  timeoutMs: input.timeoutMs,
  onProgress: (step) => send({ kind: 'progress', step }),
}).then((report) => send({ kind: 'report', report }));
