import { loadOnce, oncePerKey } from '../../shared/load-once';

/** A fetch whose outcomes the test decides, one per call, in order. */
function scriptedFetch<T>(...outcomes: (T | Error)[]) {
  let calls = 0;
  const fetch = () => {
    const outcome = outcomes[calls];
    calls += 1;
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome as T);
  };
  return { fetch, calls: () => calls };
}

describe('something loaded once', () => {
  it('is fetched once, however many ask at the same time or later, and read at once when here', async () => {
    const source = scriptedFetch('page');
    const page = loadOnce(source.fetch);
    expect(page.current).toBeUndefined();
    await expect(Promise.all([page.load(), page.load(), page.attempt()])).resolves.toEqual(['page', 'page', 'page']);
    await expect(page.load()).resolves.toBe('page');
    expect(page.current).toBe('page');
    expect(source.calls()).toBe(1);
  });

  it('after a failure, is fetched again by the next load, and never by a render reading it', async () => {
    const source = scriptedFetch<string>(new Error('offline'), 'page');
    const page = loadOnce(source.fetch);
    await expect(page.attempt()).rejects.toThrow('offline');
    // A render that reads it again meets the same failure, without a fetch.
    await expect(page.attempt()).rejects.toThrow('offline');
    expect(source.calls()).toBe(1);
    // The next deliberate attempt fetches again, and renders then read its outcome.
    await expect(page.load()).resolves.toBe('page');
    await expect(page.attempt()).resolves.toBe('page');
    expect(page.current).toBe('page');
    expect(source.calls()).toBe(2);
  });
});

describe('something made once per key', () => {
  it('is made once for each key, and again for a key whose making threw', () => {
    const made: string[] = [];
    let failNext = true;
    const parse = oncePerKey((key: string) => {
      made.push(key);
      if (key === 'bad' && failNext) {
        failNext = false;
        throw new Error('cannot parse');
      }
      return key.toUpperCase();
    });
    expect(parse('a')).toBe('A');
    expect(parse('a')).toBe('A');
    expect(() => parse('bad')).toThrow('cannot parse');
    expect(parse('bad')).toBe('BAD');
    expect(made).toEqual(['a', 'bad', 'bad']);
  });

  it('keeps at most `limit` keys: past it, forgets them all and makes each again as asked', () => {
    const made: string[] = [];
    const parse = oncePerKey((key: string) => {
      made.push(key);
      return key.length;
    }, 2);
    parse('a');
    parse('bb');
    parse('a');
    expect(made).toEqual(['a', 'bb']);
    parse('ccc');
    parse('a');
    expect(made).toEqual(['a', 'bb', 'ccc', 'a']);
  });
});
