/**
 * The fixed paths of the site's pages. Apart from shared/site.ts so that build steps can use them
 * before content has been generated.
 */
export const routesPaths = {
  home: '/',
  homeAlias: '/services/llm-seo',
  howItWorks: '/how-it-works',
  caseStudies: '/case-studies',
  blog: '/blog',
  freeAudit: '/free-audit',
  aiReadinessCheck: '/ai-readiness-check',
  aiReadinessResult: '/ai-readiness-check/result',
  thankYou: '/thank-you',
  contact: '/contact',
  privacyPolicy: '/privacy-policy',
  termsConditions: '/terms-conditions',
  refundPolicy: '/refund-policy',
} as const;
