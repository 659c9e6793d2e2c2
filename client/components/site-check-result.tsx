import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { PagesContent } from '../../shared/content-schema';
import { fillCopy } from '../../shared/copy-template';
import { SITE_CHECKER_PAGE_PATH, type SiteCheckView } from '../../shared/site-check';
import { Link } from '../routing/links';
import { color, radius, space, text } from '../theme/theme';
import { Panel } from './ui/content-blocks';
import { plainList } from './ui/layout-primitives';

type Copy = PagesContent['thankYou']['siteCheck'];

/** The panel of a result on the page that follows a request: this check's, and the visibility probe's. */
export const ResultPanel = styled(Panel)`
  margin-bottom: ${space.lg};
`;

export const ResultTitle = styled.h2`
  font-size: ${text.h3};
  margin-bottom: ${space.md};
  overflow-wrap: anywhere;
`;

export const ResultStatus = styled.p`
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
 * the website the visitor's request named, on the thank-you page that follows it, as the page's
 * useCheckStatus keeps it. Appears when ready with JavaScript, after a reload without.
 */
export function SiteCheckResult({
  copy,
  view,
  slow,
  ended,
}: {
  copy: Copy;
  view: SiteCheckView | null;
  /** The page has stopped asking while the check still runs. */
  slow: boolean;
  /** What follows the result once the check has ended (the invitation to the full audit). */
  ended?: (view: SiteCheckView) => ReactNode;
}) {
  if (!view) return null;
  const host = view.host || 'your website';
  return (
    <ResultPanel aria-labelledby="site-check-title">
      <ResultTitle id="site-check-title">
        {copy.title} {host}
      </ResultTitle>
      {/* Read out when it changes: the check's outcome arrives while the visitor is on the page. */}
      <div role="status">
        {view.status === 'pending' && <ResultStatus>{slow ? copy.slow : copy.pending}</ResultStatus>}
        {view.status === 'done' && (
          <Score>
            {copy.scoreLabel}: <strong>{view.score}/100</strong>
          </Score>
        )}
        {(view.status === 'refused' || view.status === 'failed' || view.status === 'skipped') && (
          <ResultStatus>
            {copy.notChecked}: {view.reason}. {copy.notCheckedNote}
          </ResultStatus>
        )}
      </div>
      {view.status === 'done' && view.business && (
        <ResultStatus>{view.business.name === null ? copy.noName : fillCopy(copy.name, { name: view.business.name, from: view.business.from })}</ResultStatus>
      )}
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
