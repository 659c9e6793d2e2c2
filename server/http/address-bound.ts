import type { RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';

/**
 * A bound on how often one client address may have something made for it alone. Each address has
 * a bucket of `burst` requests that refills at `perSecond`: a request that finds a token goes on
 * at once; one that finds none waits its turn, costing no CPU while it waits, so that however many
 * connections one client holds, what is made for it takes a bounded share of the one process that
 * also serves everyone else. More than `maxWaiting` requests of one address waiting: 429 at once.
 *
 * A request whose client goes away while it waits leaves the queue without taking a token. State
 * is kept only for addresses seen lately: a full bucket with no one waiting is forgotten.
 */
export interface AddressBoundOptions {
  burst: number;
  perSecond: number;
  maxWaiting: number;
  /** Milliseconds, monotonic; tests pass a clock they move. */
  now?: () => number;
  /** Told when an address's queue fills (once until it has room again): its next requests are refused. */
  onFull?: (address: string) => void;
}

interface Waiter {
  go: () => void;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
  waiting: Waiter[];
  timer: NodeJS.Timeout | undefined;
}

export type Turn = 'now' | 'waited' | 'refused';

export class AddressBound {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private sweptAt: number;

  constructor(private readonly options: AddressBoundOptions) {
    this.now = options.now ?? (() => performance.now());
    this.sweptAt = this.now();
  }

  /**
   * Resolves when a request from `address` may go on: 'now' or 'waited', or 'refused' when too
   * many of its requests wait already. Aborting `signal` takes the request out of the queue.
   */
  take(address: string, signal?: AbortSignal): Promise<Turn> {
    this.sweep();
    const bucket = this.refilled(address);
    if (bucket.waiting.length === 0 && bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return Promise.resolve('now');
    }
    if (bucket.waiting.length >= this.options.maxWaiting) return Promise.resolve('refused');
    return new Promise((resolve) => {
      const waiter: Waiter = {
        go: () => {
          signal?.removeEventListener('abort', leave);
          resolve('waited');
        },
      };
      const leave = () => {
        bucket.waiting = bucket.waiting.filter((other) => other !== waiter);
        if (bucket.waiting.length === 0 && bucket.timer) {
          clearTimeout(bucket.timer);
          bucket.timer = undefined;
        }
      };
      signal?.addEventListener('abort', leave, { once: true });
      bucket.waiting.push(waiter);
      if (bucket.waiting.length === this.options.maxWaiting) this.options.onFull?.(address);
      this.schedule(bucket);
    });
  }

  /** Seconds until a request that would wait now at the back of this address's queue goes on. */
  secondsToWait(address: string): number {
    const bucket = this.refilled(address);
    return Math.max(1, Math.ceil((bucket.waiting.length + 1 - bucket.tokens) / this.options.perSecond));
  }

  private refilled(address: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(address) ?? { tokens: this.options.burst, at: now, waiting: [], timer: undefined };
    bucket.tokens = Math.min(this.options.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.options.perSecond);
    bucket.at = now;
    this.buckets.set(address, bucket);
    return bucket;
  }

  /** Lets the waiting requests that have a token go on, and wakes again for the next one. */
  private schedule(bucket: Bucket): void {
    if (bucket.timer || bucket.waiting.length === 0) return;
    const delay = Math.max(0, ((1 - bucket.tokens) / this.options.perSecond) * 1000);
    bucket.timer = setTimeout(() => {
      bucket.timer = undefined;
      const now = this.now();
      bucket.tokens = Math.min(this.options.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.options.perSecond);
      bucket.at = now;
      while (bucket.waiting.length > 0 && bucket.tokens >= 1) {
        bucket.tokens -= 1;
        bucket.waiting.shift()?.go();
      }
      this.schedule(bucket);
    }, delay);
  }

  /** Once a minute at most: forgets addresses whose bucket is full again and which have no one waiting. */
  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [address, bucket] of this.buckets) {
      const tokens = bucket.tokens + ((now - bucket.at) / 1000) * this.options.perSecond;
      if (bucket.waiting.length === 0 && tokens >= this.options.burst) this.buckets.delete(address);
    }
  }

  /** How many addresses it keeps state for (for tests). */
  get size(): number {
    return this.buckets.size;
  }
}

/**
 * Express middleware over an AddressBound, keyed by the client address as the rate limit sees it
 * (req.ip, behind TRUST_PROXY; an IPv6 address by its /56, which one client holds whole). Refused:
 * 429 with Retry-After, as plain text, before anything is made.
 */
export function addressBound(bound: AddressBound): RequestHandler {
  return (req, res, next) => {
    const address = ipKeyGenerator(req.ip ?? '');
    const gone = new AbortController();
    const onClose = () => gone.abort();
    res.once('close', onClose);
    bound.take(address, gone.signal).then((turn) => {
      res.off('close', onClose);
      if (gone.signal.aborted) return;
      if (turn !== 'refused') {
        next();
        return;
      }
      res.setHeader('Retry-After', String(bound.secondsToWait(address)));
      res.setHeader('Cache-Control', 'no-store');
      res.status(429).type('text/plain').send('Too many requests from your address at once. Please wait a minute and try again.');
    }, next);
  };
}
