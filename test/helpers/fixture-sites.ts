import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback-server';

/**
 * Websites for the site check to read: real HTTP servers on 127.0.0.1, each on a free port,
 * reached through SITE_CHECK_ALLOW=127.0.0.1. Each path answers what the test gives it; any
 * other path answers 404. Every request is recorded, headers and all.
 */
export type FixtureAnswer = { status?: number; headers?: Record<string, string>; body?: string | Buffer } | ((req: IncomingMessage, res: ServerResponse) => void);

export interface FixtureSite {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** The requests it received, in order. */
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  /** Connections it accepted. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startFixtureSite(paths: Record<string, FixtureAnswer>): Promise<FixtureSite> {
  const requests: FixtureSite['requests'] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const answer = paths[path];
    if (typeof answer === 'function') return answer(req, res);
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Not found</title><p>Not found');
      return;
    }
    res.writeHead(answer.status ?? 200, answer.headers ?? { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(answer.body ?? '');
  });
  // Counted on top of the listener's own connection handler.
  server.on('connection', () => (connections += 1));
  const { port, close } = await listenOnLoopback(server);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    close,
  };
}

/**
 * A fixture site whose answers name its own origin (links, canonical, Sitemap: lines), known only
 * once it listens: `paths` gets a function that returns it.
 */
export async function startSiteAt(paths: (origin: () => string) => Record<string, FixtureAnswer>): Promise<FixtureSite> {
  let origin = '';
  const site = await startFixtureSite(paths(() => origin));
  origin = site.origin;
  return site;
}

const text = (body: string, type = 'text/plain; charset=utf-8') => ({ headers: { 'Content-Type': type }, body });
export const html = (body: string) => text(body, 'text/html; charset=utf-8');

/** A page that does everything right: text in the HTML, the head filled in, JSON-LD saying who the business is. */
export function wellMadePage(origin: string): string {
  const words = Array.from({ length: 60 }, (_, index) => `Qualified electricians in Guildford, job ${index}.`).join(' ');
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Okafor Electrical | Electricians in Guildford</title>
<meta name="description" content="NICEIC-approved electricians in Guildford and Surrey: rewires, EV chargers, safety certificates.">
<link rel="canonical" href="${origin}/">
<link rel="alternate" type="text/markdown" href="/index.md">
<meta property="og:title" content="Okafor Electrical">
<meta property="og:description" content="Electricians in Guildford">
<meta property="og:image" content="${origin}/og.png">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Electrician","name":"Okafor Electrical","url":"${origin}/"},{"@type":"WebSite","url":"${origin}/"}]}</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Do you cover Woking?","acceptedAnswer":{"@type":"Answer","text":"Yes."}}]}</script>
</head>
<body><header><nav><a href="/">Home</a></nav></header><main><h1>Electricians in Guildford</h1><p>${words}</p></main>
<script>window.analytics = "not text";</script></body>
</html>`;
}

export const WELL_MADE_LLMS_TXT = `# Okafor Electrical

> Electricians in Guildford and Surrey.

## Services

- [Rewires](https://okafor.example/rewires.md): full and partial rewires
`;

export function sitemapOf(origin: string, paths: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join('\n')}
</urlset>
`;
}

/** Every path of a well-made site, for the origin it will be served at. */
export function wellMadeSite(origin: () => string): Record<string, FixtureAnswer> {
  return {
    '/': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(wellMadePage(origin()));
    },
    '/robots.txt': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`User-agent: *\nAllow: /\n\nSitemap: ${origin()}/sitemap.xml\n`);
    },
    '/llms.txt': text(WELL_MADE_LLMS_TXT),
    '/sitemap.xml': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/xml' });
      res.end(sitemapOf(origin(), ['/', '/rewires', '/ev-chargers']));
    },
  };
}

/** A single-page app's shell: the HTML holds no text; a script would fill it in. */
export const EMPTY_SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading</title></head>
<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript><script src="/app.js"></script></body></html>`;
