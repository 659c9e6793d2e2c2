import { siteContent } from './generated/site';

/**
 * Site constants (content/site.yaml), for both sides. Runtime overrides (SITE_URL, BOOKING_URL,
 * MAIL_FROM, MAIL_TO) come from server/config.ts and reach the client through the app config.
 */
export const site = siteContent;

export { routesPaths } from './route-paths';
