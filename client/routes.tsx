import { useState } from 'react';
import { articleLoaders, articleSlugs } from '../shared/generated/article-routes';
import { legalPageLoaders, legalPages } from '../shared/generated/legal';
import { routesPaths } from '../shared/site';
import type { StaticIsland } from './components/static-island';
import type { LazyRoute, PageComponent } from './lazy-page';
import { loadOnce, oncePerKey } from '../shared/load-once';
import { readLoaded } from './read-loaded';

/**
 * The route table: the one list of pages that the server renderer, the hydration entry, the
 * sitemap and the tests all read. Every path is fixed; none takes parameters.
 */
export interface AppRoute extends LazyRoute {
  /**
   * The source modules `load` imports for a first visit, named as the build's metafile names
   * them. The build reads its chunk lists from the metafile by these names, for the JavaScript
   * budgets and for the page's modulepreload links, and fails when one names no chunk or when
   * the route table imports a module that no route declares.
   */
  modules: string[];
  /** Pages that carry a per-visitor value (the CSRF token) are rendered per request. */
  perVisitor?: boolean;
  /** Kept out of the sitemap and marked noindex. */
  noindex?: boolean;
  /** false: an alias of another page, left out of the sitemap. */
  sitemap?: false;
  /** Answered with this status instead of 200. */
  status?: number;
  /**
   * Fetches, once the visitor has left the page, what rendering it again by navigation needs
   * beyond the server HTML it was first shown from (its static islands, an article's prose).
   * Back renders synchronously, so anything still to fetch would show an empty page meanwhile.
   * Settles once it is all fetched (a failure included: a later navigation fetches again).
   */
  prefetchForReturn?: () => Promise<void>;
}

/**
 * A page module, with the static islands it declares fetched alongside (none when their server
 * HTML is on screen to take over: see components/static-island.tsx).
 */
const page = (module: string, load: () => Promise<{ default: PageComponent; islands?: StaticIsland[] }>): Pick<AppRoute, 'modules' | 'load' | 'prefetchForReturn'> => ({
  modules: [module],
  load: async () => {
    const module = await load();
    await Promise.all((module.islands ?? []).map((island) => island.preload()));
    return module.default;
  },
  // A failure here is no one's concern yet: a later navigation fetches again, and handles it.
  prefetchForReturn: () =>
    load()
      .then((module) => Promise.all((module.islands ?? []).map((island) => island.prefetch())))
      .then(() => undefined)
      .catch(() => undefined),
});

export const NOT_FOUND_PATH = '*';

/** Whether the document on screen is this article's server HTML (a first visit, hydrating). */
const articleOnScreen = (slug: string) => typeof document !== 'undefined' && document.querySelector(`article[data-article="${slug}"]`) !== null;

/** The whole article, prose included: loaded once for the document's life. */
const fullArticle = oncePerKey((slug: string) => {
  const loaders = articleLoaders[slug];
  if (!loaders) throw new Error(`No article ${slug}`);
  return loadOnce(() => loaders.full().then((module) => module.article));
});

/**
 * An article page. A first visit hydrates over the server's HTML, so it loads the article
 * without its prose (ArticleProse takes the prose on screen over); a client-side navigation and
 * the server load the whole article. The component decides when it mounts, so a later visit to
 * the same article by navigation still gets the whole text.
 */
async function loadArticle(slug: string): Promise<PageComponent> {
  const loaders = articleLoaders[slug];
  if (!loaders) throw new Error(`No article ${slug}`);
  const full = fullArticle(slug);
  const [{ ArticlePage }, firstVisit] = await Promise.all([
    import('./pages/article-page'),
    articleOnScreen(slug) ? loaders.onScreen().then((module) => module.article) : full.load().then(() => undefined),
  ]);
  return function Article() {
    const [onScreen] = useState(() => (articleOnScreen(slug) ? firstVisit : undefined));
    if (onScreen) return <ArticlePage {...onScreen} />;
    return <ArticlePage {...readLoaded(full)} />;
  };
}

export const appRoutes: AppRoute[] = [
  { path: routesPaths.home, ...page('client/pages/home-page.tsx', () => import('./pages/home-page')) },
  // /services/llm-seo shows the home page too; its canonical URL points at /.
  { path: routesPaths.homeAlias, ...page('client/pages/home-page.tsx', () => import('./pages/home-page')), sitemap: false },
  { path: routesPaths.howItWorks, ...page('client/pages/how-it-works-page.tsx', () => import('./pages/how-it-works-page')) },
  { path: routesPaths.caseStudies, ...page('client/pages/case-studies-page.tsx', () => import('./pages/case-studies-page')) },
  { path: routesPaths.blog, ...page('client/pages/blog-page.tsx', () => import('./pages/blog-page')) },
  ...articleSlugs.map(
    (slug): AppRoute => ({
      path: `/blog/${slug}`,
      // A first visit hydrates over the prose on screen: the article without it (see loadArticle).
      modules: ['client/pages/article-page.tsx', `shared/generated/articles/${slug}.on-screen.ts`],
      load: () => loadArticle(slug),
      prefetchForReturn: () =>
        fullArticle(slug)
          .load()
          .then(() => undefined)
          .catch(() => undefined),
    }),
  ),
  { path: routesPaths.freeAudit, ...page('client/pages/free-audit-page.tsx', () => import('./pages/free-audit-page')), perVisitor: true },
  { path: routesPaths.thankYou, ...page('client/pages/thank-you-page.tsx', () => import('./pages/thank-you-page')), noindex: true },
  { path: routesPaths.aiReadinessCheck, ...page('client/pages/ai-readiness-check-page.tsx', () => import('./pages/ai-readiness-check-page')), perVisitor: true },
  {
    path: routesPaths.aiReadinessResult,
    ...page('client/pages/ai-readiness-check-page.tsx', () => import('./pages/ai-readiness-check-page')),
    perVisitor: true,
    noindex: true,
  },
  { path: routesPaths.contact, ...page('client/pages/contact-page.tsx', () => import('./pages/contact-page')), perVisitor: true },
  ...legalPages.map(
    (meta): AppRoute => ({
      path: `/${meta.slug}`,
      modules: ['client/pages/legal-page.tsx', `shared/generated/legal/${meta.slug}.ts`],
      load: async () => {
        const loadText = legalPageLoaders[meta.slug];
        if (!loadText) throw new Error(`No text for legal page ${meta.slug}`);
        const [{ LegalPageView }, { legalPage }] = await Promise.all([import('./pages/legal-page'), loadText()]);
        return function Legal() {
          return <LegalPageView page={legalPage} />;
        };
      },
    }),
  ),
  { path: NOT_FOUND_PATH, ...page('client/pages/not-found-page.tsx', () => import('./pages/not-found-page')), status: 404, noindex: true },
];

/** The route a path shows: exact match (no parameters exist), else the not-found route. */
export function matchAppRoute(routes: AppRoute[], pathname: string): AppRoute {
  const found = routes.find((route) => route.path === pathname) ?? routes.find((route) => route.path === NOT_FOUND_PATH);
  if (!found) throw new Error('The route table has no not-found route');
  return found;
}
