import { escapeRegExp } from '../../shared/escape-reg-exp';

/**
 * The private addresses of the reports the agency delivers: a path, then a link's token (32
 * random bytes, base64url). A link opens its report alone, so its full address is a secret: it is
 * given out in mails and by the commands, never kept (the database keeps only each token's hash,
 * a sent mail's copy loses it, the request log leaves the token out).
 */

/** An audit run's report. */
export const AUDIT_REPORT_PATH = '/audit';
/** A monitored client's page (the trend of its runs). */
export const MONITOR_REPORT_PATH = '/monitor';

/** The paths whose last part is a secret. */
export const PRIVATE_REPORT_PATHS = [AUDIT_REPORT_PATH, MONITOR_REPORT_PATH] as const;

/** A report's private address as its link gives it out: on SITE_URL, never the request's Host. */
export const auditReportUrl = (siteUrl: string, token: string): string => `${siteUrl}${AUDIT_REPORT_PATH}/${token}`;

/** A client's page's private address. */
export const clientPageUrl = (siteUrl: string, token: string): string => `${siteUrl}${MONITOR_REPORT_PATH}/${token}`;

/** What a sent mail keeps where a private link was: the mail is kept, the secret is not. */
export const SENT_LINK_MARKER = '[private link sent, not kept]';

/** `text` with every private report link on `siteUrl` replaced by SENT_LINK_MARKER. */
export function withoutPrivateLinks(text: string, siteUrl: string): string {
  const links = new RegExp(`${escapeRegExp(siteUrl)}(?:${PRIVATE_REPORT_PATHS.map(escapeRegExp).join('|')})/[A-Za-z0-9_-]+`, 'g');
  return text.replace(links, SENT_LINK_MARKER);
}
