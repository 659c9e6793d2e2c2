import { loadInFullOnce, pageShown } from '../../client/routing/page-load-failure';

/*
 * The guard against a loop of full loads, in the terms the browser gives it: the tab's address,
 * its session storage (which outlives each document) and location.replace(). The browser tests
 * (test/browser/navigation.test.ts) show the visitor's side: one full load, then the server's
 * page, and no more. A document made by a full load never starts a client-side navigation by
 * itself (its page's code failing, it keeps the server's HTML), so in a browser the guard is
 * met only by a document that is shown again after making its full load, which is up to the
 * browser's back/forward cache; here it is met directly.
 */

interface FakeTab {
  /** The addresses loaded in full, in order. */
  fullLoads: string[];
  /** Moves the tab to an address, as a client-side navigation does (same document, same storage). */
  goTo(url: string): void;
}

function openTab(url: string, storage: Map<string, string> | null = new Map()): FakeTab {
  const fullLoads: string[] = [];
  const location = {
    href: url,
    replace: (target: string) => fullLoads.push(target),
  };
  const sessionStorage = {
    getItem: (key: string) => {
      if (!storage) throw new Error('SecurityError: storage is disabled');
      return storage.get(key) ?? null;
    },
    setItem: (key: string, value: string) => {
      if (!storage) throw new Error('SecurityError: storage is disabled');
      storage.set(key, value);
    },
    removeItem: (key: string) => storage?.delete(key),
  };
  Object.assign(globalThis, { window: { location }, sessionStorage });
  return { fullLoads, goTo: (next) => (location.href = next) };
}

afterEach(() => {
  const global = globalThis as Record<string, unknown>;
  delete global.window;
  delete global.sessionStorage;
});

describe('a page whose code cannot be fetched', () => {
  it('is loaded in full once per address: a second failure there loads nothing', () => {
    const tab = openTab('https://www.citewise.example/blog');
    expect(loadInFullOnce()).toBe(true);
    expect(loadInFullOnce()).toBe(false);
    expect(loadInFullOnce()).toBe(false);
    expect(tab.fullLoads).toEqual(['https://www.citewise.example/blog']);
  });

  it('gets its full load again once a page at another address has been shown', () => {
    const tab = openTab('https://www.citewise.example/blog');
    expect(loadInFullOnce()).toBe(true);
    // The same page shown at its own address (the full load worked) keeps the record.
    pageShown();
    expect(loadInFullOnce()).toBe(false);
    tab.goTo('https://www.citewise.example/');
    pageShown();
    tab.goTo('https://www.citewise.example/blog');
    expect(loadInFullOnce()).toBe(true);
    expect(tab.fullLoads).toEqual(['https://www.citewise.example/blog', 'https://www.citewise.example/blog']);
  });

  it('is never loaded in full where there is no session storage to remember it by', () => {
    const tab = openTab('https://www.citewise.example/blog', null);
    expect(loadInFullOnce()).toBe(false);
    expect(tab.fullLoads).toEqual([]);
  });
});
