/** Where a report is read: its private address is this path, then its link's token. */
export const AUDIT_REPORT_PATH = '/audit';

/** A report's private address as its link gives it out: on SITE_URL, never the request's Host. */
export const auditReportUrl = (siteUrl: string, token: string): string => `${siteUrl}${AUDIT_REPORT_PATH}/${token}`;
