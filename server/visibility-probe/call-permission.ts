import type { CallAnswer } from './prober';

/**
 * The background process's side of counting calls: before each call it asks the server (which
 * counts it against the day's limit in the database) and waits for the answer to that request.
 * `answer` takes the server's replies, as the process's message handler receives them.
 */
export function callPermission(ask: (request: number) => void): { allowCall: () => Promise<boolean>; answer: (message: CallAnswer) => void } {
  const waiting = new Map<number, { resolve: (allowed: boolean) => void; reject: (error: Error) => void }>();
  let requests = 0;
  return {
    allowCall: () => {
      const request = (requests += 1);
      return new Promise<boolean>((resolve, reject) => {
        waiting.set(request, { resolve, reject });
        ask(request);
      });
    },
    answer: (message) => {
      const asked = waiting.get(message.request);
      waiting.delete(message.request);
      if ('error' in message) asked?.reject(new Error(`the calls could not be counted: ${message.error}`));
      else asked?.resolve(message.allowed);
    },
  };
}
