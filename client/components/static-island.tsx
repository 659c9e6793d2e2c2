import { useState, type ComponentType } from 'react';
import { loadOnce } from '../../shared/load-once';
import { useInternalLinkNavigation } from '../routing/links';
import { readLoaded } from '../read-loaded';

/**
 * Static islands: parts of a page with no behaviour (text, figures, links) whose code and words
 * a first visit never downloads. What React Server Components do, done with what the site has.
 *
 * - On the server the island renders its content like any component.
 * - At hydration its HTML is already on screen: the island takes that HTML over as it stands
 *   (dangerouslySetInnerHTML with the very same markup), so React leaves it untouched, and the
 *   island's module is never fetched.
 * - On a client-side navigation to the page there is no server HTML to take over: the route's
 *   loader (client/routes.tsx) fetches the island's module along with the page, and it renders
 *   as a normal component.
 *
 * Links inside keep client-side navigation through one delegated click handler. Anything with
 * state or handlers (the FAQ accordion, forms, copy buttons) must stay outside an island: taken
 * over as HTML it would never come alive. The wrapper uses `display: contents` (global style), so
 * it changes no layout.
 */
export interface StaticIsland {
  /** Fetches the module unless the server HTML is there to take over (then nothing is needed). */
  preload: () => Promise<void>;
  /** Fetches the module whatever is on screen: for a return to the page, when that HTML is gone. */
  prefetch: () => Promise<void>;
  Island: ComponentType;
}

type IslandModule = { default: ComponentType };

/** The HTML of the element matching `selector` in the document on screen, if there is one (never on the server). */
export function htmlOnScreen(selector: string): string | null {
  return typeof document === 'undefined' ? null : (document.querySelector(selector)?.innerHTML ?? null);
}

export function staticIsland(id: string, load: () => Promise<IslandModule>): StaticIsland {
  const content = loadOnce(() => load().then((module) => module.default));
  const selector = `[data-island="${id}"]`;

  function Island() {
    // Read once, at the first render: later renders keep what was taken over.
    const [adopted] = useState(() => htmlOnScreen(selector));
    const onClick = useInternalLinkNavigation();
    if (adopted !== null) return <div data-island={id} onClick={onClick} dangerouslySetInnerHTML={{ __html: adopted }} />;
    const Content = readLoaded(content);
    return (
      <div data-island={id} onClick={onClick}>
        <Content />
      </div>
    );
  }

  return {
    preload: async () => {
      if (htmlOnScreen(selector) === null) await content.load();
    },
    prefetch: async () => {
      await content.load();
    },
    Island,
  };
}
