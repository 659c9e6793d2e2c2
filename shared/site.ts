import { siteContent } from './generated/site';

/**
 * Site constants (content/site.yaml), for both sides. Runtime overrides (SITE_URL, BOOKING_URL,
 * MAIL_FROM, MAIL_TO) come from server/config.ts and reach the client through the app config.
 */
export const site = siteContent;

export const routesPaths = {
  home: '/',
  homeAlias: '/services/llm-seo',
  howItWorks: '/how-it-works',
  caseStudies: '/case-studies',
  blog: '/blog',
  freeAudit: '/free-audit',
  thankYou: '/thank-you',
  contact: '/contact',
  privacyPolicy: '/privacy-policy',
  termsConditions: '/terms-conditions',
  refundPolicy: '/refund-policy',
} as const;
