import styled from 'styled-components';
import type { StatSource as Source } from '../../../shared/content-schema';
import { radius, text } from '../../theme/theme';
import { formatContentDate } from '../../../shared/content-date';
import { Tooltip } from '../ui/tooltip/tooltip';

const Trigger = styled.button`
  min-height: 24px;
  padding: 0 0.25rem;
  border: 0;
  border-radius: ${radius.sm};
  background: none;
  color: inherit;
  font: inherit;
  font-size: ${text.xs};
  text-decoration: underline dotted;
  text-underline-offset: 0.2em;
  cursor: help;
`;

/**
 * Where a figure on the page comes from, in a tooltip on a "Source" button beside it: publisher,
 * title, date and the publication's site. Nothing when the figure has no published source (the
 * launch check lists those): a source is never made up.
 */
export function StatSource({ source, figure }: { source: Source | undefined; figure: string }) {
  if (!source) return null;
  const site = new URL(source.url).hostname.replace(/^www\./, '');
  return (
    <Tooltip content={`${source.publisher}, “${source.title}”, ${formatContentDate(source.date)} (${site})`}>
      <Trigger type="button" aria-label={`Source of ${figure}`}>
        Source
      </Trigger>
    </Tooltip>
  );
}
