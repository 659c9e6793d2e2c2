/** The most bytes of one answer the probe reads; an assistant's answer with its search results is far smaller. */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

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
