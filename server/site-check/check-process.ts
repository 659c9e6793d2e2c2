import { parseAddressList } from './address-policy';
import { createFetcher } from './fetcher';
import { runSiteCheck } from './run-check';
import type { CheckInput, CheckMessage } from './site-checker';

/**
 * One site check, in a process of its own: site-checker.ts starts it at the lowest scheduling
 * priority, sends it the check, and kills it at the check's deadline whatever it is doing.
 * Everything that touches the stranger's site runs here: the fetches, and the reading of what
 * they bring. It shares no heap, no garbage collector, no thread pool and no lock with the
 * process that serves pages.
 */
const send = (message: CheckMessage, then: () => void = () => undefined) => process.send?.(message, undefined, undefined, then);

// The server gone (killed, or crashed): nothing is waiting for this check.
process.once('disconnect', () => process.exit(0));

process.once('message', (input: CheckInput) => {
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
  }).then((report) => send({ kind: 'report', report }, () => process.exit(0)));
});
