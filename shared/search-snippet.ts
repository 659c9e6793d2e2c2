/**
 * What a search engine's results page shows of a page: its <title>, cut after about 60
 * characters, and its meta description, cut after about 160 and too thin to stand on its own
 * under 70. The content build holds every title and description in content/ to these bounds, and
 * test/integration/pages.test.ts every route as the server sends it.
 */
export const TITLE_MAX_LENGTH = 60;
export const DESCRIPTION_LENGTH = { min: 70, max: 160 } as const;

/** The <title> of a page whose content names only its own title: that title, then the brand. */
export const brandedTitle = (title: string, brand: string) => `${title} | ${brand}`;

/** An article's <title>: its results-page title when it has one (its headline is too long), else its headline. */
export const articleTitle = (article: { title: string; seoTitle?: string | undefined }, brand: string) => brandedTitle(article.seoTitle ?? article.title, brand);
