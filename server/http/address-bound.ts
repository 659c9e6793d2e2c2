import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';

/**
 * A bound on how often one client address may have something made for it alone. Each address has
 * a bucket of `burst` requests that refills at `perSecond`: a request that finds a token goes on
 * at once; one that finds none waits its turn, behind the address's earlier requests, costing no
 * CPU while it waits. However many connections one client holds, what is made for it then takes
 * a bounded share of the one process that also serves everyone else. A request still waiting
 * after `maxWaitMs` is refused then, not sooner: a refusal answered at once would only let the
 * client send the next request at once, and flood the process with refusals instead. Only a
 * request that finds `maxWaiting` others already waiting is refused at once.
 *
 * A request whose client goes away while it waits leaves the queue without taking a token. State
 * is kept only for addresses seen lately: a full bucket with no one waiting is forgotten.
 */
export interface AddressBoundOptions {
  burst: number;
  perSecond: number;
  maxWaitMs: number;
  /**
   * Requests of one address that may wait at once; one more is refused at once. Each waiting
   * request holds a socket and a little memory, so the queue is bounded by count, not only by time.
   */
  maxWaiting: number;
  /** Milliseconds, monotonic; tests pass a clock they move. */
  now?: () => number;
  /** Told when an address has a request refused, once until its queue has emptied again. */
  onRefusing?: (address: string) => void;
}

interface Waiter {
  since: number;
  settle: (turn: Turn) => void;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
  waiting: Waiter[];
  timer: NodeJS.Timeout | undefined;
  /** Whether a request of this queue was refused since it was last empty. */
  refusing: boolean;
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
   * Resolves when a request from `address` may go on ('now' or 'waited'), or when it has waited
   * too long ('refused'). Aborting `signal` takes the request out of the queue.
   */
  take(address: string, signal?: AbortSignal): Promise<Turn> {
    this.sweep();
    const bucket = this.bucket(address);
    if (bucket.waiting.length === 0 && bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return Promise.resolve('now');
    }
    if (bucket.waiting.length >= this.options.maxWaiting) {
      if (!bucket.refusing) this.options.onRefusing?.(address);
      bucket.refusing = true;
      return Promise.resolve('refused');
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        since: this.now(),
        settle: (turn) => {
          signal?.removeEventListener('abort', leave);
          resolve(turn);
        },
      };
      const leave = () => {
        bucket.waiting = bucket.waiting.filter((other) => other !== waiter);
        this.wake(address, bucket);
      };
      signal?.addEventListener('abort', leave, { once: true });
      bucket.waiting.push(waiter);
      this.wake(address, bucket);
    });
  }

  /** Seconds until a request that joined this address's queue now would go on. */
  secondsToWait(address: string): number {
    const bucket = this.bucket(address);
    return Math.max(1, Math.ceil((bucket.waiting.length + 1 - bucket.tokens) / this.options.perSecond));
  }

  /** How many addresses it keeps state for (for tests). */
  get size(): number {
    return this.buckets.size;
  }

  /** The address's bucket, its tokens refilled for the time gone by. */
  private bucket(address: string): Bucket {
    let bucket = this.buckets.get(address);
    if (!bucket) {
      bucket = { tokens: this.options.burst, at: this.now(), waiting: [], timer: undefined, refusing: false };
      this.buckets.set(address, bucket);
    }
    this.refill(bucket);
    return bucket;
  }

  /** The bucket's tokens at `now`, refilled for the time gone by since `bucket.at`. */
  private tokensAt(bucket: Bucket, now: number): number {
    return Math.min(this.options.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.options.perSecond);
  }

  private refill(bucket: Bucket): void {
    const now = this.now();
    bucket.tokens = this.tokensAt(bucket, now);
    bucket.at = now;
  }

  /**
   * Refuses the waiting requests that have waited too long (the first in the queue waited
   * longest), lets on as many as there are tokens, and sets a timer for the next of either.
   */
  private wake(address: string, bucket: Bucket): void {
    if (bucket.timer) clearTimeout(bucket.timer);
    bucket.timer = undefined;
    this.refill(bucket);
    const now = this.now();
    while (bucket.waiting[0] && now - bucket.waiting[0].since >= this.options.maxWaitMs) {
      if (!bucket.refusing) this.options.onRefusing?.(address);
      bucket.refusing = true;
      bucket.waiting.shift()?.settle('refused');
    }
    while (bucket.waiting.length > 0 && bucket.tokens >= 1) {
      bucket.tokens -= 1;
      bucket.waiting.shift()?.settle('waited');
    }
    const first = bucket.waiting[0];
    if (!first) {
      bucket.refusing = false;
      return;
    }
    const untilToken = ((1 - bucket.tokens) / this.options.perSecond) * 1000;
    const untilRefused = first.since + this.options.maxWaitMs - now;
    bucket.timer = setTimeout(() => this.wake(address, bucket), Math.max(0, Math.min(untilToken, untilRefused)));
  }

  /** Once a minute at most: forgets addresses whose bucket is full again and which have no one waiting. */
  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [address, bucket] of this.buckets) {
      if (bucket.waiting.length === 0 && this.tokensAt(bucket, now) >= this.options.burst) this.buckets.delete(address);
    }
  }
}

/**
 * Who a request is from, for the bounds on one client: its address as the rate limit sees it
 * (req.ip, behind TRUST_PROXY), an IPv6 address by its /56, which one client holds whole.
 */
export function clientAddress(req: Request): string {
  return ipKeyGenerator(req.ip ?? '');
}

/**
 * Express middleware over an AddressBound, keyed by the client address as the rate limit sees it
 * (req.ip, behind TRUST_PROXY; an IPv6 address by its /56, which one client holds whole). Refused:
 * 429 with Retry-After, as plain text, before anything is made.
 */
export function addressBound(bound: AddressBound): RequestHandler {
  return (req, res, next) => {
    const address = clientAddress(req);
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
