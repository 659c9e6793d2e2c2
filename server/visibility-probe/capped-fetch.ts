/**
 * The most bytes of one answer the probe reads. The largest real answers are Claude's, which carry
 * each search result's page content encrypted (a few kilobytes a result, some 30 results at
 * most for the 3 searches a question may make): a few hundred kilobytes, several times under this.
 * Four answers at this size, parsed by the client libraries at once, fit a probe's heap.
 */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** An answer that went on past MAX_RESPONSE_BYTES: reading stopped there. */
export class ResponseTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes / 1024 / 1024} MB`);
    this.name = 'ResponseTooLarge';
  }
}

/**
 * The fetch every assistant's client library is given: the platform's, but it stops reading a
 * response body past `maxBytes`, so that an endpoint that sends without end cannot fill the
 * memory of the process that serves the site.
 */
export function cappedFetch(maxBytes = MAX_RESPONSE_BYTES): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    let read = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          read += chunk.byteLength;
          if (read > maxBytes) controller.error(new ResponseTooLarge(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
