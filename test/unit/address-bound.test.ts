import { AddressBound, type AddressBoundOptions, type Turn } from '../../server/http/address-bound';
import { FORM_REQUESTS_PER_ADDRESS } from '../../server/leads/form-routes';

/**
 * The bound on one client address's requests for what is made for it alone, on a clock the test
 * moves: jest's fake timers drive both its timers and the Date.now it reads.
 */
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const bound = (options: Omit<AddressBoundOptions, 'now'>) => new AddressBound({ ...options, now: () => Date.now() });

/** Starts a request and records, in `turns`, when it may go on (or is refused). */
function request(on: AddressBound, address: string, turns: string[], name: string, signal?: AbortSignal): Promise<Turn> {
  return on.take(address, signal).then((turn) => {
    turns.push(`${name}:${turn}`);
    return turn;
  });
}

describe('AddressBound', () => {
  it('lets a burst through at once, then one request each 1/perSecond, in the order they came', async () => {
    const limiter = bound({ burst: 2, perSecond: 4, maxWaitMs: 60_000, maxWaiting: 1000 });
    const turns: string[] = [];
    await Promise.all([request(limiter, 'a', turns, '1'), request(limiter, 'a', turns, '2')]);
    void request(limiter, 'a', turns, '3');
    void request(limiter, 'a', turns, '4');
    await jest.advanceTimersByTimeAsync(249);
    expect(turns).toEqual(['1:now', '2:now']);
    await jest.advanceTimersByTimeAsync(1);
    expect(turns).toEqual(['1:now', '2:now', '3:waited']);
    await jest.advanceTimersByTimeAsync(250);
    expect(turns).toEqual(['1:now', '2:now', '3:waited', '4:waited']);
  });

  it('keeps each address apart: one that has used its burst holds no other back', async () => {
    const limiter = bound({ burst: 1, perSecond: 1, maxWaitMs: 60_000, maxWaiting: 1000 });
    const turns: string[] = [];
    await request(limiter, 'flooder', turns, 'f1');
    void request(limiter, 'flooder', turns, 'f2');
    await request(limiter, 'visitor', turns, 'v1');
    expect(turns).toEqual(['f1:now', 'v1:now']);
  });

  it('refuses a request only once it has waited maxWaitMs, says how long to wait, and tells once that it refuses', async () => {
    const refusing: string[] = [];
    const limiter = bound({ burst: 1, perSecond: 1, maxWaitMs: 2500, maxWaiting: 1000, onRefusing: (address) => refusing.push(address) });
    const turns: string[] = [];
    await request(limiter, 'a', turns, '1');
    for (const name of ['2', '3', '4', '5']) void request(limiter, 'a', turns, name);
    // One a second goes on; the rest are refused when they have waited 2.5 s, and not before.
    await jest.advanceTimersByTimeAsync(2499);
    expect(turns).toEqual(['1:now', '2:waited', '3:waited']);
    expect(refusing).toEqual([]);
    expect(limiter.secondsToWait('a')).toBe(3);
    await jest.advanceTimersByTimeAsync(1);
    expect(turns).toEqual(['1:now', '2:waited', '3:waited', '4:refused', '5:refused']);
    expect(refusing).toEqual(['a']);
  });

  it('takes a request out of the queue, without its token, when its client goes away', async () => {
    const limiter = bound({ burst: 1, perSecond: 1, maxWaitMs: 60_000, maxWaiting: 1000 });
    const turns: string[] = [];
    await request(limiter, 'a', turns, '1');
    const gone = new AbortController();
    void request(limiter, 'a', turns, 'left', gone.signal);
    void request(limiter, 'a', turns, '3');
    gone.abort();
    await jest.advanceTimersByTimeAsync(1000);
    expect(turns).toEqual(['1:now', '3:waited']);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(turns).toEqual(['1:now', '3:waited']);
  });

  it('forgets an address once its bucket is full again and no one waits', async () => {
    const limiter = bound({ burst: 2, perSecond: 1, maxWaitMs: 60_000, maxWaiting: 1000 });
    await limiter.take('a');
    await limiter.take('b');
    expect(limiter.size).toBe(2);
    await jest.advanceTimersByTimeAsync(60_000);
    await limiter.take('c');
    expect(limiter.size).toBe(1);
  });

  it('refuses at once a request that finds maxWaiting others of its address waiting', async () => {
    const refusing: string[] = [];
    const limiter = bound({ burst: 1, perSecond: 1, maxWaitMs: 60_000, maxWaiting: 2, onRefusing: (address) => refusing.push(address) });
    const turns: string[] = [];
    await request(limiter, 'a', turns, '1');
    void request(limiter, 'a', turns, '2');
    void request(limiter, 'a', turns, '3');
    await request(limiter, 'a', turns, '4');
    expect(turns).toEqual(['1:now', '4:refused']);
    expect(refusing).toEqual(['a']);
    // Another address is not held back by the full queue.
    await request(limiter, 'b', turns, 'b1');
    await jest.advanceTimersByTimeAsync(2000);
    expect(turns).toEqual(['1:now', '4:refused', 'b1:now', '2:waited', '3:waited']);
  });
});

describe('the bound the site runs with (FORM_REQUESTS_PER_ADDRESS)', () => {
  it('lets 20 through at once, then 5 a second to 100 waiting (the last waits 20 s, and goes on), and refuses the 121st at once', async () => {
    const limiter = bound(FORM_REQUESTS_PER_ADDRESS);
    const turns: string[] = [];
    await Promise.all(Array.from({ length: 20 }, (_, index) => request(limiter, 'a', turns, String(index + 1))));
    expect(turns.filter((turn) => turn.endsWith(':now'))).toHaveLength(20);
    for (let index = 21; index <= 120; index += 1) void request(limiter, 'a', turns, String(index));
    await request(limiter, 'a', turns, '121');
    expect(turns.at(-1)).toBe('121:refused');
    // The 21st waits one fifth of a second: no sooner, and it is not refused for waiting.
    await jest.advanceTimersByTimeAsync(199);
    expect(turns).not.toContain('21:waited');
    await jest.advanceTimersByTimeAsync(1);
    expect(turns).toContain('21:waited');
    // The 120th has its turn after 20 s, well within the 30 s a request may wait.
    await jest.advanceTimersByTimeAsync(19_799);
    expect(turns).not.toContain('120:waited');
    await jest.advanceTimersByTimeAsync(1);
    expect(turns).toContain('120:waited');
    expect(turns.filter((turn) => turn.endsWith(':refused'))).toEqual(['121:refused']);
  });
});
