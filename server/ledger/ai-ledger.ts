import type { IncomingMessage } from 'node:http';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import type { AiClassifier } from './ai-sources';

/** How often the counts in memory are written to the database (and at shutdown). */
export const LEDGER_FLUSH_MS = 60_000;

/** The path a count is kept under when it is none of the site's own: scanners invent paths. */
export const OTHER_PATH = '(other)';

export interface AiLedgerOptions {
  db: Db;
  clock: () => Date;
  logger: Logger;
  classifier: AiClassifier;
  /** The site's pages (where a visit from an assistant counts) and its other files by path. */
  pages: ReadonlySet<string>;
  files: ReadonlySet<string>;
}

/**
 * A ledger of what AI does on the site, per UTC day and path: fetches by AI crawlers and
 * assistants' user agents (by family, agent and kind), and visits to pages that an AI assistant
 * sent (by its Referer or utm_source). Nothing about a person is kept: no cookie, no address, no
 * user agent beyond its family, only counts. Counted in memory and written in one transaction at
 * most once a minute and at shutdown, so a request costs a map lookup.
 */
export class AiLedger {
  private counts = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private readonly upsert;

  constructor(private readonly options: AiLedgerOptions) {
    this.upsert = options.db.prepare(
      `INSERT INTO ai_ledger (day, path, source, family, agent, kind, count) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, path, source, family, agent, kind) DO UPDATE SET count = count + excluded.count`,
    );
  }

  /** Counts a GET or HEAD of `path` that the site answered. */
  observe(req: IncomingMessage, path: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const { classifier, pages, files } = this.options;
    const agent = classifier.agent(req.headers['user-agent']);
    const known = pages.has(path) || files.has(path) ? path : OTHER_PATH;
    if (agent) {
      this.count(known, 'crawler', agent.family, agent.agent, agent.kind);
      return;
    }
    if (!pages.has(path)) return;
    const referer = req.headers.referer;
    const url = req.url ?? '';
    const utm = url.includes('utm_source=') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('utm_source') : null;
    if (!referer && !utm) return;
    const assistant = classifier.assistant(referer, utm);
    if (assistant) this.count(path, 'referral', assistant, '', '');
  }

  private count(path: string, source: 'crawler' | 'referral', family: string, agent: string, kind: string): void {
    const day = this.options.clock().toISOString().slice(0, 10);
    const key = JSON.stringify([day, path, source, family, agent, kind]);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Writes what has been counted since the last write. */
  flush(): void {
    if (this.counts.size === 0 || !this.options.db.open) return;
    const pending = this.counts;
    this.counts = new Map();
    try {
      this.options.db
        .transaction(() => {
          for (const [key, count] of pending) this.upsert.run(...(JSON.parse(key) as string[]), count);
        })
        .immediate();
    } catch (error) {
      // Kept for the next write: a busy database must not lose the counts.
      for (const [key, count] of pending) this.counts.set(key, (this.counts.get(key) ?? 0) + count);
      this.options.logger.warn({ err: error }, 'AI ledger could not be written; kept for the next try');
    }
  }

  start(): void {
    this.timer = setInterval(() => this.flush(), LEDGER_FLUSH_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}
