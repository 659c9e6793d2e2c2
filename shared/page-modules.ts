/**
 * The element that holds a page's module preloads until the page has been painted: a <template>
 * whose <link rel="modulepreload"> elements (the app's first) the server writes and the page's
 * inline entry script moves into the head. Only the entry imports this module: it is inlined into
 * every page, so it may share no chunk with the app.
 */
export const PAGE_MODULES_ELEMENT_ID = 'page-modules';
