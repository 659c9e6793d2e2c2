import { useEffect, useState } from 'react';
import { SITE_CHECK_PARAM, SITE_CHECK_STATUS_PATH, type SiteCheckView } from '../../shared/site-check';
import type { ProbeView } from '../../shared/visibility-probe';

/** Waits between two questions to the server while the site check runs: quick at first, then calmer. */
const POLL_DELAYS_MS = [1000, 1500, 2000, 3000];
/** The wait once only the visibility probe runs: it takes minutes, not seconds. */
const PROBE_POLL_DELAY_MS = 5000;
/** After this long with the site check still running, the page stops asking and tells the visitor to reload later. */
const GIVE_UP_AFTER_MS = 120_000;
/**
 * The same for the visibility probe, which starts once the site check has ended and puts its
 * questions to every assistant, a few at once, each allowed a minute.
 */
const PROBE_GIVE_UP_AFTER_MS = 600_000;

/** The token in the address, when it names exactly one check. */
export function checkTokenOf(search: string): string | null {
  const tokens = new URLSearchParams(search).getAll(SITE_CHECK_PARAM);
  return tokens.length === 1 && tokens[0] ? tokens[0] : null;
}

/** What the page shows of a token's check and its request's probe (null: none to show). */
interface CheckViews {
  siteCheck: SiteCheckView | null;
  probe: ProbeView | null;
}

export interface CheckStatus extends CheckViews {
  /** The page has stopped asking the server while something was still running. */
  slow: boolean;
}

const running = (views: CheckViews) => views.siteCheck?.status === 'pending' || views.probe?.status === 'pending';

/**
 * A token's site check and, on the thank-you page, its request's visibility probe, kept up to
 * date: the server's answer from the page itself, or, after a client-side navigation from the
 * form, a pending check until the first answer (which says whether there is a probe). While
 * either is running the server is asked again with the same token, one question for both, and
 * the asking stops once both have ended.
 */
export function useCheckStatus(token: string | null, initial: { siteCheck: SiteCheckView | null | undefined; probe?: ProbeView | null | undefined }): CheckStatus {
  const [views, setViews] = useState<CheckViews>(() =>
    initial.siteCheck !== undefined ? { siteCheck: initial.siteCheck, probe: initial.probe ?? null } : { siteCheck: token ? { status: 'pending', host: '', url: '' } : null, probe: null },
  );
  const [slow, setSlow] = useState(false);
  const pending = running(views);
  useEffect(() => {
    if (!token || !pending) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    // What the last answer said, for how long to wait: a failed question changes nothing.
    let latest = views;
    const ask = async (attempt: number) => {
      try {
        const response = await fetch(`${SITE_CHECK_STATUS_PATH}?${SITE_CHECK_PARAM}=${encodeURIComponent(token)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        if (stopped) return;
        if (response.status === 404) {
          setViews({ siteCheck: null, probe: null });
          return;
        }
        if (response.ok) {
          const answer = (await response.json()) as { siteCheck: SiteCheckView | null; probe?: ProbeView | null };
          if (stopped) return;
          latest = { siteCheck: answer.siteCheck, probe: answer.probe ?? null };
          setViews(latest);
          if (!running(latest)) return;
        }
      } catch {
        // Offline for a moment: ask again later.
      }
      if (stopped) return;
      const checkRunning = latest.siteCheck?.status === 'pending';
      if (Date.now() - started > (checkRunning ? GIVE_UP_AFTER_MS : PROBE_GIVE_UP_AFTER_MS)) {
        setSlow(true);
        return;
      }
      const delay = checkRunning ? POLL_DELAYS_MS[Math.min(attempt, POLL_DELAYS_MS.length - 1)] : PROBE_POLL_DELAY_MS;
      timer = setTimeout(() => void ask(attempt + 1), delay);
    };
    void ask(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // `views` is read once, as the asking starts: from then on the answers keep `latest`.
  }, [token, pending]);
  return { ...views, slow };
}
