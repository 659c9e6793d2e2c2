import { APICallError } from 'ai';
import type { AssistantClient, RawAnswer } from './assistants';
import { MAX_RETRY_WAIT_MS } from './call-limits';
import { MAX_RESPONSE_BYTES, ResponseTooLarge } from './capped-fetch';

/** Retries of one question after a 429 or a 5xx, at most: with the first try, 4 calls. */
const MAX_RETRIES = 3;

/** Waits between tries when the answer says nothing of when to come back: 1 s, 2 s, 4 s. */
const FIRST_BACKOFF_MS = 1_000;

export interface CallPolicy {
  /** Asked before every call, retries included; false: no more calls today. */
  allowCall: () => boolean | Promise<boolean>;
  /**
   * Asked once a call is allowed, just before it is made: false leaves the question unasked (its
   * assistant refused the key while the budget was being asked).
   */
  stillWanted?: () => boolean;
  clock: () => Date;
  sleep: (ms: number) => Promise<void>;
  timeoutMs: number;
}

/** How one call ended; `answer` is what the call gave (an assistant's answer, a judge's verdict). */
export type Outcome<T = RawAnswer> =
  | { kind: 'answer'; answer: T }
  /** The question got no answer; `reason` is said in a person's words and holds nothing the provider sent. */
  | { kind: 'failed'; reason: string }
  /** 401 or 403: the key is wrong, revoked or out of credit. */
  | { kind: 'key rejected' }
  | { kind: 'limit reached' }
  | { kind: 'not asked' };

/** What went wrong with one call: its status, whether to try again, the reason to report. */
interface Failure {
  retry: boolean;
  keyRejected: boolean;
  reason: string;
  headers: Record<string, string> | undefined;
}

/**
 * Whether an error is, or was caused by, one of the given kind. Any object with a cause is
 * followed, not only this realm's Errors: fetch's errors are made in Node's own.
 */
function causedBy(error: unknown, kind: (cause: object) => boolean): boolean {
  for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    if (kind(cause)) return true;
  }
  return false;
}

/**
 * The connection could not be made, or closed before an answer came (an API closes a kept-alive
 * connection just as the next question goes out on it): a socket's error somewhere in the cause
 * chain. Told by its code, not its class: fetch's errors come from Node's own realm.
 */
const SOCKET_ERROR = /^(E[A-Z]+|EAI_AGAIN|UND_ERR_(SOCKET|CLOSED|CONNECT_TIMEOUT))$/;
const isSocketError = (cause: object) => SOCKET_ERROR.test(String((cause as { code?: unknown }).code));

function classify(error: unknown, timedOut: boolean, timeoutMs: number): Failure {
  const failure = (reason: string, retry = false, headers?: Record<string, string>): Failure => ({ retry, keyRejected: false, reason, headers });
  if (timedOut) return failure(`no answer within ${timeoutMs / 1000} s`);
  if (causedBy(error, (cause) => cause instanceof ResponseTooLarge)) return failure(`an answer larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB, not read`);
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    const status = error.statusCode;
    // Gemini refuses a key that is not valid with a 400 whose reason is API_KEY_INVALID, not a 401.
    if (status === 401 || status === 403 || (status === 400 && error.responseBody?.includes('API_KEY_INVALID'))) {
      return { retry: false, keyRejected: true, reason: 'key rejected', headers: undefined };
    }
    if (status === 429) return failure('rate limited (429)', true, error.responseHeaders);
    if (status >= 500) return failure(`server error (${status})`, true, error.responseHeaders);
    if (status >= 200 && status < 300) return failure('an answer the client library could not read');
    return failure(`the question was refused (${status})`);
  }
  // No answer at all: the client library counts this as worth another try, and so does the probe.
  if (causedBy(error, isSocketError)) return failure('could not connect', true);
  return failure('an answer the client library could not read');
}

/**
 * How long to wait before trying again: what the answer asked (OpenAI's retry-after-ms, or
 * Retry-After in seconds or as a date), else 1 s doubled at each retry.
 */
function waitBeforeRetry(headers: Record<string, string> | undefined, retry: number, now: Date): number {
  const afterMs = Number(headers?.['retry-after-ms']);
  if (Number.isFinite(afterMs) && afterMs >= 0) return afterMs;
  const after = headers?.['retry-after']?.trim();
  if (after && /^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  if (after && !Number.isNaN(Date.parse(after))) return Math.max(0, Date.parse(after) - now.getTime());
  return FIRST_BACKOFF_MS * 2 ** retry;
}

/** One call, ended after `timeoutMs`. */
async function callOnce<T>(call: (signal: AbortSignal) => Promise<T>, timeoutMs: number): Promise<{ answer: T } | { error: unknown; timedOut: boolean }> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    return { answer: await call(deadline.signal) };
  } catch (error) {
    return { error, timedOut: deadline.signal.aborted };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Makes one call to an assistant's API (a question, a judgement): a 429, a 5xx or a connection
 * that failed before any answer is tried again, at most MAX_RETRIES times, after the wait the
 * answer asks for; a timeout, another refusal or an unreadable answer is not. The call budget is
 * asked before every call. `call` is given the signal that ends it at the timeout.
 */
export async function callWithRetries<T>(call: (signal: AbortSignal) => Promise<T>, policy: CallPolicy): Promise<Outcome<T>> {
  for (let retry = 0; ; retry += 1) {
    if (!(await policy.allowCall())) return { kind: 'limit reached' };
    if (policy.stillWanted?.() === false) return { kind: 'not asked' };
    const tried = await callOnce(call, policy.timeoutMs);
    if ('answer' in tried) return { kind: 'answer', answer: tried.answer };
    const failure = classify(tried.error, tried.timedOut, policy.timeoutMs);
    if (failure.keyRejected) return { kind: 'key rejected' };
    if (!failure.retry) return { kind: 'failed', reason: failure.reason };
    if (retry === MAX_RETRIES) return { kind: 'failed', reason: `${failure.reason}, still after ${MAX_RETRIES} retries` };
    const wait = waitBeforeRetry(failure.headers, retry, policy.clock());
    if (wait > MAX_RETRY_WAIT_MS) return { kind: 'failed', reason: `${failure.reason}, asked to wait ${Math.ceil(wait / 1000)} s` };
    await policy.sleep(wait);
  }
}

/** Asks one assistant one question, as callWithRetries makes any call. */
export function askWithRetries(client: AssistantClient, question: string, policy: CallPolicy): Promise<Outcome> {
  return callWithRetries((signal) => client.ask(question, signal), policy);
}
