/** Each article's social card (made by the build, served by the server, named in the page head). */
export const SOCIAL_IMAGE_SIZE = { width: 1200, height: 630 } as const;

export const socialImageFile = (slug: string) => `${slug}.png`;

/** Where the server answers with an article's card: stable, so shares keep working across builds. */
export const socialImagePath = (slug: string) => `/social/${socialImageFile(slug)}`;
