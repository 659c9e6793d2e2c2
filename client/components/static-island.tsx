import { use, useState, type ComponentType } from 'react';
import { useInternalLinkNavigation } from '../routing/links';

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
  Island: ComponentType;
}

type IslandModule = { default: ComponentType };

export function staticIsland(id: string, load: () => Promise<IslandModule>): StaticIsland {
  let Content: ComponentType | undefined;
  let pending: Promise<void> | undefined;
  const fetchModule = () =>
    (pending ??= load().then(
      (module) => {
        Content = module.default;
      },
      (error: unknown) => {
        pending = undefined; // a later navigation may try again
        throw error;
      },
    ));
  /** The island's HTML from the document, when the page on screen has it (hydration). */
  const htmlOnScreen = (): string | null => (typeof document === 'undefined' ? null : (document.querySelector(`[data-island="${id}"]`)?.innerHTML ?? null));

  function Island() {
    // Read once, at the first render: later renders keep what was taken over.
    const [adopted] = useState(htmlOnScreen);
    const onClick = useInternalLinkNavigation();
    if (adopted !== null) return <div data-island={id} onClick={onClick} dangerouslySetInnerHTML={{ __html: adopted }} />;
    if (!Content) use(fetchModule());
    const Loaded = Content as ComponentType;
    return (
      <div data-island={id} onClick={onClick}>
        <Loaded />
      </div>
    );
  }

  return {
    preload: () => (htmlOnScreen() === null ? fetchModule() : Promise.resolve()),
    Island,
  };
}
