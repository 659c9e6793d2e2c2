// autocannon ships no type declarations: the part of its API the bench uses, as its README gives it.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections: number;
    /** Seconds. */
    duration: number;
    /** Requests a second each connection sends at most. */
    connectionRate?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    headers?: Record<string, string>;
  }

  interface Result {
    non2xx: number;
    errors: number;
    timeouts: number;
  }

  /** Runs at once; emits 'response' (client, statusCode, resBytes, responseTime in ms) for each answer, and resolves with the result. */
  interface Instance extends EventEmitter, PromiseLike<Result> {}

  export default function autocannon(options: Options): Instance;
}
