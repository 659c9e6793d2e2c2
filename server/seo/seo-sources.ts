import { appRoutes, NOT_FOUND_PATH, type AppRoute } from '../../client/routes';
import type { ArticleSummary, LegalPage, SiteContent } from '../../shared/content-schema';
import { articles } from '../../shared/generated/articles';
import { markdownTwins } from '../../shared/generated/markdown-twins';
import type { MarkdownTwin } from '../../shared/markdown-twin';
import { caseStudies } from '../../shared/generated/case-studies';
import { home } from '../../shared/generated/home';
import { legalPages } from '../../shared/generated/legal';
import { blog } from '../../shared/generated/pages/blog';
import { aiReadinessCheck } from '../../shared/generated/pages/aiReadinessCheck';
import { freeAudit } from '../../shared/generated/pages/freeAudit';
import { processSteps } from '../../shared/generated/process-steps';
import { routesPaths, site } from '../../shared/site';
import { company } from '../../shared/company';

/**
 * Used as the last-modified date of pages without a date of their own when content holds no
 * date at all (an empty content/ in a test); never the clock, so every build writes the same files.
 */
const SITE_CONTENT_DATE = '2025-01-07';

/** A page of the site linked from llms.txt: name, path and a one-line description. */
export interface SeoLink {
  name: string;
  path: string;
  description: string;
}

/** Everything the SEO files are made from: the route table, content and the public origin. */
export interface SeoSources {
  /** Public origin without a trailing slash, from SITE_URL (never the Host header). */
  siteUrl: string;
  routes: readonly Pick<AppRoute, 'path' | 'noindex' | 'sitemap'>[];
  /** In blog order. */
  articles: readonly Pick<ArticleSummary, 'path' | 'title' | 'excerpt' | 'category' | 'published' | 'updated'>[];
  legalPages: readonly Omit<LegalPage, 'html'>[];
  site: Pick<SiteContent, 'brand' | 'legalName' | 'companyNumber' | 'registeredIn' | 'location' | 'email' | 'phone' | 'businessHours' | 'responseTime'>;
  /** The main pages llms.txt lists under Services. */
  services: readonly SeoLink[];
  blog: { title: string; description: string };
  /** The articles' Markdown twins, in blog order. */
  twins: readonly MarkdownTwin[];
}

/** The site's real sources: the route table and the content the build generated. */
export function siteSeoSources(siteUrl: string): SeoSources {
  return {
    siteUrl,
    routes: appRoutes,
    articles,
    legalPages,
    site: { ...site, ...company },
    services: [
      { name: `${site.brand}: LLM-SEO agency`, path: routesPaths.home, description: home.seo.description },
      { name: 'How it works', path: routesPaths.howItWorks, description: processSteps.seo.description },
      { name: freeAudit.title, path: routesPaths.freeAudit, description: freeAudit.seo.description },
      { name: aiReadinessCheck.title, path: routesPaths.aiReadinessCheck, description: aiReadinessCheck.seo.description },
      { name: 'Case studies', path: routesPaths.caseStudies, description: caseStudies.seo.description },
    ],
    blog: { title: `${blog.title} | ${site.brand}`, description: blog.seo.description },
    twins: articles.flatMap((article) => markdownTwins.find((twin) => twin.path === article.path) ?? []),
  };
}

/** Routes a search engine should list: not the not-found page, not noindex, not an alias. */
export function indexablePaths(routes: SeoSources['routes']): string[] {
  return routes
    .filter((route) => route.path !== NOT_FOUND_PATH && !route.noindex && route.sitemap !== false)
    .map((route) => route.path);
}

export function absoluteUrl(siteUrl: string, path: string): string {
  return `${siteUrl}${path}`;
}

/** The latest of some YYYY-MM-DD dates (they sort as strings), or the fallback when there are none. */
export function newestDate(dates: readonly string[], fallback = SITE_CONTENT_DATE): string {
  return dates.reduce((newest, date) => (date > newest ? date : newest), '') || fallback;
}

/** RFC 822 date-time (as RSS 2.0 wants) of midnight UTC on a YYYY-MM-DD day. */
export function rfc822Date(isoDay: string): string {
  return new Date(`${isoDay}T00:00:00Z`).toUTCString();
}
