import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import type { AgentMatch, AiClassifier } from './ai-sources';

/** How often the counts in memory are written to the database (and at shutdown). */
const LEDGER_FLUSH_MS = 60_000;

/** The path a count is kept under when it is none of the site's own: scanners invent paths. */
const OTHER_PATH = '(other)';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a count is of: one AI agent's fetches, or visits one assistant sent. */
interface Tally {
  source: 'crawler' | 'referral';
  family: string;
  agent: string;
  kind: string;
}

type Counts = Map<string, Map<Tally, Map<string, number>>>;

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
  /** Counts by day, then by what was counted, then by path. */
  private counts: Counts = new Map();
  private day = '';
  private dayStart = Number.NaN;
  private readonly crawlerTallies = new Map<AgentMatch, Tally>();
  private readonly referralTallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;
  private readonly upsert;

  constructor(private readonly options: AiLedgerOptions) {
    this.upsert = options.db.prepare(
      `INSERT INTO ai_ledger (day, path, source, family, agent, kind, count) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, path, source, family, agent, kind) DO UPDATE SET count = count + excluded.count`,
    );
  }

  /**
   * Counts each request Express answers but the hashed assets, which no crawler fetches to read
   * the site (the fast path tells the ledger of the pages it answers itself).
   */
  readonly middleware: RequestHandler = (req, _res, next) => {
    if (!req.path.startsWith('/assets/')) this.observe(req, req.path);
    next();
  };

  /** Counts a GET or HEAD of `path` that the site answered. */
  observe(req: IncomingMessage, path: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const { classifier, pages, files } = this.options;
    const agent = classifier.agent(req.headers['user-agent']);
    const known = pages.has(path) || files.has(path) ? path : OTHER_PATH;
    if (agent) {
      this.count(known, this.crawlerTally(agent));
      return;
    }
    if (!pages.has(path)) return;
    const referer = req.headers.referer;
    const url = req.url ?? '';
    const utm = url.includes('utm_source=') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('utm_source') : null;
    if (!referer && !utm) return;
    const assistant = classifier.assistant(referer, utm);
    if (assistant) this.count(path, this.referralTally(assistant));
  }

  private count(path: string, tally: Tally): void {
    const now = this.options.clock().getTime();
    // The day's name is made once a day, and the counts are keyed by the same objects each
    // time, so counting a request costs a few map lookups, not a string built per request.
    if (!(now >= this.dayStart && now < this.dayStart + DAY_MS)) {
      this.dayStart = now - (now % DAY_MS);
      this.day = new Date(this.dayStart).toISOString().slice(0, 10);
    }
    let tallies = this.counts.get(this.day);
    if (!tallies) this.counts.set(this.day, (tallies = new Map()));
    let paths = tallies.get(tally);
    if (!paths) tallies.set(tally, (paths = new Map()));
    paths.set(path, (paths.get(path) ?? 0) + 1);
  }

  private crawlerTally(match: AgentMatch): Tally {
    let tally = this.crawlerTallies.get(match);
    if (!tally) this.crawlerTallies.set(match, (tally = { source: 'crawler', family: match.family, agent: match.agent, kind: match.kind }));
    return tally;
  }

  private referralTally(assistant: string): Tally {
    let tally = this.referralTallies.get(assistant);
    if (!tally) this.referralTallies.set(assistant, (tally = { source: 'referral', family: assistant, agent: '', kind: '' }));
    return tally;
  }

  /** Writes what has been counted since the last write. */
  flush(): void {
    if (this.counts.size === 0 || !this.options.db.open) return;
    const pending = this.counts;
    this.counts = new Map();
    try {
      this.options.db
        .transaction(() => {
          for (const [day, tallies] of pending)
            for (const [tally, paths] of tallies)
              for (const [path, count] of paths) this.upsert.run(day, path, tally.source, tally.family, tally.agent, tally.kind, count);
        })
        .immediate();
    } catch (error) {
      // Kept for the next write: a busy database must not lose the counts.
      for (const [day, tallies] of pending) {
        let kept = this.counts.get(day);
        if (!kept) this.counts.set(day, (kept = new Map()));
        for (const [tally, paths] of tallies) {
          let keptPaths = kept.get(tally);
          if (!keptPaths) kept.set(tally, (keptPaths = new Map()));
          for (const [path, count] of paths) keptPaths.set(path, (keptPaths.get(path) ?? 0) + count);
        }
      }
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
