import { company } from '../shared/company';
import { caseStudies } from '../shared/generated/case-studies';
import { home } from '../shared/generated/home';
import { launchCheck, type ConstantOverride, type LaunchFinding } from '../shared/launch-check';
import { site } from '../shared/site';
import type { Config } from './config';

/**
 * The launch check over the content this build serves, with the site constants the environment
 * replaces (BOOKING_URL, MAIL_FROM, MAIL_TO) checked as the server will use them.
 */
export function placeholderContent(config: Pick<Config, 'bookingUrl' | 'mailFrom' | 'mailTo'>): LaunchFinding[] {
  const overrides: Partial<Record<'bookingUrl' | 'mailFrom' | 'mailTo', ConstantOverride>> = {};
  if (config.bookingUrl !== site.bookingUrl) overrides.bookingUrl = { variable: 'BOOKING_URL', value: config.bookingUrl };
  if (config.mailFrom !== site.mailFrom) overrides.mailFrom = { variable: 'MAIL_FROM', value: config.mailFrom };
  if (config.mailTo !== site.mailTo) overrides.mailTo = { variable: 'MAIL_TO', value: config.mailTo };
  return launchCheck({ site: { ...site, ...company }, home, caseStudies }, overrides);
}
