import { PAGE_MODULES_ELEMENT_ID } from '../shared/page-modules';

/**
 * The page's one script, inlined into its HTML. The server's HTML is the whole page, so nothing
 * the app needs is fetched before the browser has shown it: a request started earlier shares the
 * phone's connection and CPU with the page itself. Once the first contentful paint is reported,
 * this moves the page's module preloads into the head, all at once and each with its integrity
 * (the browser fetches them in parallel instead of finding them import by import), and evaluates
 * them in their order, one file a task, so that no single task holds the page for long: the
 * libraries, then the app (client/start.client.tsx), which starts, then the page's own chunks.
 * Inline, it costs no request of its own before the preloads start.
 * A hidden tab paints nothing, so there the app starts at once; a browser that does not report
 * paints starts it once it has rendered a frame.
 */
let started = false;
async function start() {
  const modules = document.getElementById(PAGE_MODULES_ELEMENT_ID);
  if (started || !(modules instanceof HTMLTemplateElement)) return;
  started = true;
  const files = [...modules.content.querySelectorAll('link')].map((link) => link.getAttribute('href') ?? '');
  document.head.append(modules.content);
  for (const file of files) {
    await import(file);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

// A file that cannot be fetched leaves the server's page as it is: its links and forms work without JavaScript.
const startOnce = () => void start().catch((error: unknown) => console.error('The page could not start', error));
if (document.visibilityState !== 'visible') startOnce();
else if (!PerformanceObserver.supportedEntryTypes.includes('paint')) requestAnimationFrame(() => setTimeout(startOnce, 0));
else {
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    startOnce();
  }).observe({ type: 'paint', buffered: true });
  document.addEventListener('visibilitychange', startOnce, { once: true });
}
