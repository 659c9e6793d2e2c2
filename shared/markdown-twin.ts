/**
 * A page's Markdown twin: the same content as Markdown, for AI assistants and crawlers that read
 * text rather than HTML. Made at build time (scripts/lib/markdown-twins.ts), served by the server.
 */
export interface MarkdownTwin {
  /** The HTML page's path. */
  path: string;
  title: string;
  description: string;
  published?: string;
  updated?: string;
  /** Markdown, with root-relative links to the site. */
  body: string;
}

/** Where a page's twin lives: /index.md for the home page, else the page's path with .md. */
export function twinPath(pagePath: string): string {
  return pagePath === '/' ? '/index.md' : `${pagePath}.md`;
}
