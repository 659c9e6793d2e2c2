import { setPriority } from 'node:os';
import { parseAddressList } from './address-policy';
import { createFetcher } from './fetcher';
import { runSiteCheck, type SiteCheckReport } from './run-check';
import type { CheckTask } from './site-checker';

/**
 * One site check, in a worker thread of the site checker's pool (site-checker.ts runs it, and
 * ends the thread at the check's deadline whatever it is doing). Everything that touches the
 * stranger's site runs here: the fetches, and the reading of what they bring.
 */

// The lowest scheduling priority, for this thread only (Linux keeps a nice value per thread):
// when the machine is busy, the thread that serves pages goes first.
try {
  setPriority(19);
} catch {
  // Not allowed here: the checks still run, at normal priority.
}

export default async function check({ input, progress }: CheckTask): Promise<SiteCheckReport> {
  try {
    const fetcher = createFetcher({
      userAgent: input.userAgent,
      allowlist: parseAddressList(input.allow.join(',')),
      ...(input.fetchTimeoutMs ? { fetchTimeoutMs: input.fetchTimeoutMs } : {}),
    });
    return await runSiteCheck(input.url, {
      fetcher,
      agents: input.agents,
      checkerAgent: input.checkerAgent,
      clock: () => new Date(input.startedAt),
      timeoutMs: input.timeoutMs,
      onProgress: (step) => progress.postMessage(step),
    });
  } finally {
    progress.close();
  }
}
