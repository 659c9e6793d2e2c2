import { PAGE_MODULES_ELEMENT_ID } from '../shared/page-modules';

/**
 * The page's one script, inlined into its HTML. The server's HTML is the whole page, so nothing
 * the app needs is fetched before the browser has shown it: a request started earlier shares the
 * phone's connection and CPU with the page itself. Once the first contentful paint is reported,
 * this moves the page's module preloads into the head, all at once and each with its integrity
 * (the app, then the page's own chunks: the browser fetches them in parallel instead of finding
 * them import by import), and starts the app (client/start.client.tsx), the first of them. Inline,
 * it costs no request of its own before the preloads start.
 * A hidden tab paints nothing, so there the app starts at once; a browser that does not report
 * paints starts it once it has rendered a frame.
 */
let started = false;
function start() {
  const modules = document.getElementById(PAGE_MODULES_ELEMENT_ID);
  if (started || !(modules instanceof HTMLTemplateElement)) return;
  started = true;
  const app = modules.content.querySelector('link')?.getAttribute('href');
  document.head.append(modules.content);
  if (app) void import(app);
}

if (document.visibilityState !== 'visible') start();
else if (!PerformanceObserver.supportedEntryTypes.includes('paint')) requestAnimationFrame(() => setTimeout(start, 0));
else {
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  document.addEventListener('visibilitychange', start, { once: true });
}
