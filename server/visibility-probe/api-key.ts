import { inspect } from 'node:util';

const HIDDEN = '[hidden]';

/**
 * An assistant's API key. Only the client library's request header reads it (`reveal`): printed,
 * logged or serialised with the configuration, it shows as "[hidden]", so that a log line or a
 * stored object that happens to hold it never holds the key.
 */
export class ApiKey {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return HIDDEN;
  }

  toJSON(): string {
    return HIDDEN;
  }

  [inspect.custom](): string {
    return `ApiKey(${HIDDEN})`;
  }
}
