/**
 * Renders each page once, on first request (the process warms them all before it listens), and
 * keeps the promise, so that concurrent first requests share one render.
 */
export class PageCache<Page> {
  private readonly pages = new Map<string, Promise<Page>>();

  constructor(private readonly render: (key: string) => Promise<Page>) {}

  get(key: string): Promise<Page> {
    let page = this.pages.get(key);
    if (!page) {
      page = this.render(key);
      // A failed render is not cached: the next request tries again.
      page.catch(() => this.pages.delete(key));
      this.pages.set(key, page);
    }
    return page;
  }
}
