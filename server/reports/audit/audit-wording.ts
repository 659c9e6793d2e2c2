import { fillCopy, listOfNames } from '../../../shared/copy-template';
import { auditReport as copy } from '../../../shared/generated/pages/auditReport';
import { nameOrigin, signsOfStored } from '../../business/business-name';
import { ASSISTANTS, type AssistantId } from '../../visibility-probe/assistant-catalogue';
import type { AuditDocument, ReadinessFinding, SampleCount } from './audit-document';

/**
 * The audit's figures as the page writes them. A chart and the table beside it both take their
 * words from here, so the picture can never say something the table does not.
 */

/** The business as the report names it: its name, else its website, else "your business". */
export const businessName = (document: AuditDocument): string => document.business.name ?? document.business.site ?? copy.unnamed;

/**
 * What every answer was searched for: "“Okafor Plumbing” (from the title and the footer's copyright
 * line) and okaforplumbing.co.uk", or the site alone; null with no site.
 */
export function lookedFor(document: AuditDocument): string | null {
  const { name, site } = document.business;
  if (site === null) return null;
  if (name === null) return fillCopy(copy.visibility.lookedForSite, { site });
  const signs = signsOfStored(document.business);
  return fillCopy(copy.visibility.lookedFor, { name, site, from: signs.includes('given') ? copy.visibility.givenName : nameOrigin(signs) });
}

export const assistantLabel = (assistant: AssistantId): string => ASSISTANTS[assistant].label;

export const assistantList = (assistants: readonly AssistantId[]): string => listOfNames(assistants.map(assistantLabel));

/** "12 of 50 (between 7 and 19 of 50)": a count, with the range a sample of that size allows. */
export function countWithRange(sample: SampleCount): string {
  if (sample.of === 0 || sample.low === null || sample.high === null) return copy.visibility.noAnswers;
  return fillCopy(copy.visibility.countWithRange, { count: sample.count, of: sample.of, low: sample.low, high: sample.high });
}

/** A share as a whole percentage; a share too small to round to 1% is not written as none. */
export function percent(share: number): string {
  if (share > 0 && share < 0.005) return 'under 1%';
  return `${Math.round(share * 100)}%`;
}

/** Mean place in the answers' lists, one decimal ("2.4"). */
/** A place in the lists answers gave; none: never named, or named only outside a list (in a sentence, by its site). */
export const averagePosition = (position: number | null, named: number): string =>
  position !== null ? position.toFixed(1) : named === 0 ? copy.visibility.notNamed : copy.visibility.notListed;

export const score = (value: number | null): string => (value === null ? copy.summary.notMeasured : `${value}/100`);

/** "To fix: 0 of 5 points". */
export const readinessResult = (finding: ReadinessFinding): string =>
  `${copy.readiness.verdicts[finding.verdict]}: ${fillCopy(copy.readiness.pointsOf, { count: finding.points, of: finding.maxPoints })}`;

const UK = 'Europe/London';
const dayFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: UK });
const timeFormat = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short', timeZone: UK });
const dayAndTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: UK });

/** "27 November 2026", in the UK, where the agency and its clients are. */
export const ukDay = (iso: string): string => dayFormat.format(new Date(iso));

/** "The questions were asked between 14:02 and 14:19 on 27 November 2026 (UK time)." */
export function askedBetween(from: string, to: string): string {
  const sameDay = ukDay(from) === ukDay(to);
  return fillCopy(copy.visibility.askedBetween, {
    from: sameDay ? timeFormat.format(new Date(from)) : dayAndTimeFormat.format(new Date(from)),
    to: sameDay ? `${timeFormat.format(new Date(to))} on ${ukDay(to)}` : dayAndTimeFormat.format(new Date(to)),
  });
}
