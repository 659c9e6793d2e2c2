import { randomUUID } from 'node:crypto';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request id of a request: the caller's, when it sent a sane one, else a new one. */
export function requestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
