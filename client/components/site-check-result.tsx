import { useEffect, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import type { PagesContent } from '../../shared/content-schema';
import { SITE_CHECK_PARAM, SITE_CHECK_STATUS_PATH, SITE_CHECKER_PAGE_PATH, type SiteCheckView } from '../../shared/site-check';
import { Link } from '../routing/links';
import { color, radius, space, text } from '../theme/theme';
import { Panel } from './ui/content-blocks';
import { plainList } from './ui/layout-primitives';

type Copy = PagesContent['thankYou']['siteCheck'];

/** Waits between two questions to the server while the check runs: quick at first, then calmer. */
const POLL_DELAYS_MS = [1000, 1500, 2000, 3000];
/** After this long the page stops asking and tells the visitor to reload later. */
const GIVE_UP_AFTER_MS = 120_000;

/** The token in the address, when it names exactly one check. */
export function checkTokenOf(search: string): string | null {
  const tokens = new URLSearchParams(search).getAll(SITE_CHECK_PARAM);
  return tokens.length === 1 && tokens[0] ? tokens[0] : null;
}

/**
 * The check as the page shows it, kept up to date: the server's answer from the page itself, or,
 * after a client-side navigation from the form, a pending check until the first answer. While it
 * is pending, the server is asked again (with the same token) until it is ready.
 */
function useSiteCheck(token: string | null, initial: SiteCheckView | null | undefined): { view: SiteCheckView | null; slow: boolean } {
  const [view, setView] = useState<SiteCheckView | null>(() => (initial !== undefined ? initial : token ? { status: 'pending', host: '', url: '' } : null));
  const [slow, setSlow] = useState(false);
  const pending = view?.status === 'pending';
  useEffect(() => {
    if (!token || !pending) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const ask = async (attempt: number) => {
      try {
        const response = await fetch(`${SITE_CHECK_STATUS_PATH}?${SITE_CHECK_PARAM}=${encodeURIComponent(token)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        if (stopped) return;
        if (response.status === 404) {
          setView(null);
          return;
        }
        if (response.ok) {
          const answer = (await response.json()) as { siteCheck: SiteCheckView };
          if (stopped) return;
          setView(answer.siteCheck);
          if (answer.siteCheck.status !== 'pending') return;
        }
      } catch {
        // Offline for a moment: ask again later.
      }
      if (stopped) return;
      if (Date.now() - started > GIVE_UP_AFTER_MS) {
        setSlow(true);
        return;
      }
      timer = setTimeout(() => void ask(attempt + 1), POLL_DELAYS_MS[Math.min(attempt, POLL_DELAYS_MS.length - 1)]);
    };
    void ask(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [token, pending]);
  return { view, slow };
}

const ResultPanel = styled(Panel)`
  margin-bottom: ${space.lg};
`;

const Title = styled.h2`
  font-size: ${text.h3};
  margin-bottom: ${space.md};
  overflow-wrap: anywhere;
`;

const Status = styled.p`
  margin: 0 0 ${space.md};
  color: ${color.inkMuted};
`;

const Score = styled.p`
  display: flex;
  align-items: baseline;
  gap: ${space.sm};
  margin: 0 0 ${space.lg};
  strong { font-size: ${text.h2}; color: ${color.primary}; line-height: 1; }
`;

const Findings = styled.ul`
  ${plainList}
  display: grid;
  gap: ${space.md};
  li { display: grid; grid-template-columns: 5.5rem minmax(0, 1fr); gap: ${space.md}; align-items: start; }
  h4 { font-size: ${text.base}; margin: 0 0 ${space.xs}; }
  p { margin: 0; overflow-wrap: anywhere; }
  p + p { color: ${color.inkMuted}; font-size: ${text.sm}; margin-top: ${space.xs}; }
`;

const verdictColour = { pass: color.success, warn: color.amber, fail: color.destructive } as const;

const Verdict = styled.span<{ $verdict: keyof typeof verdictColour }>`
  display: inline-block;
  padding: 0.125rem ${space.sm};
  border: 1px solid currentColor;
  border-radius: ${radius.pill};
  color: ${(p) => verdictColour[p.$verdict]};
  font-size: ${text.xs};
  font-weight: 700;
  text-align: center;
`;

const About = styled.p`
  margin: ${space.lg} 0 0;
  font-size: ${text.sm};
  a { color: ${color.accent}; text-decoration: underline; }
`;

/**
 * "While we prepare your full audit: what AI crawlers see on yoursite.co.uk": the instant check of
 * the website the visitor's request named, on the thank-you page that follows it. Appears when
 * ready with JavaScript, after a reload without.
 */
export function SiteCheckResult({
  copy,
  token,
  initial,
  ended,
}: {
  copy: Copy;
  token: string | null;
  initial: SiteCheckView | null | undefined;
  /** What follows the result once the check has ended (the invitation to the full audit). */
  ended?: (view: SiteCheckView) => ReactNode;
}) {
  const { view, slow } = useSiteCheck(token, initial);
  if (!view) return null;
  const host = view.host || 'your website';
  return (
    <ResultPanel aria-labelledby="site-check-title">
      <Title id="site-check-title">
        {copy.title} {host}
      </Title>
      {/* Read out when it changes: the check's outcome arrives while the visitor is on the page. */}
      <div role="status">
        {view.status === 'pending' && <Status>{slow ? copy.slow : copy.pending}</Status>}
        {view.status === 'done' && (
          <Score>
            {copy.scoreLabel}: <strong>{view.score}/100</strong>
          </Score>
        )}
        {(view.status === 'refused' || view.status === 'failed' || view.status === 'skipped') && (
          <Status>
            {copy.notChecked}: {view.reason}. {copy.notCheckedNote}
          </Status>
        )}
      </div>
      {view.status === 'done' && (
        <>
          <h3>{copy.findingsTitle}</h3>
          <Findings>
            {view.findings.map((finding) => (
              <li key={finding.title}>
                <Verdict $verdict={finding.verdict}>{copy.verdicts[finding.verdict]}</Verdict>
                <div>
                  <h4>{finding.title}</h4>
                  <p>{finding.detail}</p>
                  <p>{finding.advice}</p>
                </div>
              </li>
            ))}
          </Findings>
        </>
      )}
      {view.status !== 'pending' && ended?.(view)}
      <About>
        <Link to={SITE_CHECKER_PAGE_PATH}>{copy.about}</Link>
      </About>
    </ResultPanel>
  );
}
