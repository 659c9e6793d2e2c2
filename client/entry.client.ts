/**
 * The page's one script. The server's HTML is the whole page, so its first paint should not wait
 * for the app: this waits until the browser has painted, then starts the app
 * (client/start.client.tsx), whose chunks the modulepreload links have fetched meanwhile. Without
 * it, on a fast network the scripts arrive while the HTML is parsed and their start-up runs before
 * the first frame (a blank screen meanwhile, longest on slow phones).
 * A hidden tab paints no frame, so there the app starts at once.
 */
const start = () => void import('./start.client');
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
