import { loadConfig } from '../../server/config';
import { probesPerAddressPerDay } from '../../server/leads/form-routes';
import { DAY_MS, StartBudget } from '../../server/leads/start-budget';
import { testClock } from '../helpers/clock';

const MINUTE = 60 * 1000;

describe('a start budget', () => {
  it('lets each key start as many as its limit in the window, other keys apart, and again once the window has passed', () => {
    const clock = testClock();
    const budget = new StartBudget(2, clock);
    expect(budget.take('203.0.113.7')).toBe(true);
    expect(budget.take('203.0.113.7')).toBe(true);
    expect(budget.hasRoom('203.0.113.7')).toBe(false);
    expect(budget.take('203.0.113.7')).toBe(false);
    expect(budget.take('198.51.100.4')).toBe(true);
    clock.advance(60 * MINUTE);
    expect(budget.hasRoom('203.0.113.7')).toBe(true);
  });

  it('says when there is room again from the oldest start in the window: two starts 30 minutes apart leave 30 minutes, not 60', () => {
    const clock = testClock();
    const budget = new StartBudget(2, clock);
    budget.take('203.0.113.7');
    clock.advance(30 * MINUTE);
    budget.take('203.0.113.7');
    expect(budget.hasRoom('203.0.113.7')).toBe(false);
    expect(budget.secondsUntilRoom('203.0.113.7')).toBe(30 * 60);
    clock.advance(30 * MINUTE - 1000);
    expect(budget.secondsUntilRoom('203.0.113.7')).toBe(1);
    clock.advance(1000);
    expect(budget.hasRoom('203.0.113.7')).toBe(true);
  });

  it('keeps a full key through the sweep that forgets keys with no start in the window', () => {
    const clock = testClock();
    const budget = new StartBudget(2, clock);
    budget.take('203.0.113.7');
    budget.take('203.0.113.7');
    // Past the minute between sweeps: the next take sweeps, by this key or another.
    clock.advance(2 * MINUTE);
    expect(budget.take('198.51.100.4')).toBe(true);
    expect(budget.hasRoom('203.0.113.7')).toBe(false);
    clock.advance(2 * MINUTE);
    expect(budget.take('203.0.113.7')).toBe(false);
  });

  it('counts over a day when its window is a day', () => {
    const clock = testClock();
    const budget = new StartBudget(1, clock, DAY_MS);
    expect(budget.take('2001:db8:1:100::/56')).toBe(true);
    clock.advance(23 * 60 * MINUTE);
    expect(budget.take('2001:db8:1:100::/56')).toBe(false);
    expect(budget.secondsUntilRoom('2001:db8:1:100::/56')).toBe(60 * 60);
    clock.advance(60 * MINUTE);
    expect(budget.take('2001:db8:1:100::/56')).toBe(true);
  });

  it('gives back the latest start, never an older one: the window moves on from the starts that were made', () => {
    const clock = testClock();
    const budget = new StartBudget(2, clock);
    expect(budget.take('203.0.113.7')).toBe(true);
    clock.advance(30 * MINUTE);
    expect(budget.take('203.0.113.7')).toBe(true);
    // The second start's work was never stored: it is forgotten, and the first still counts.
    budget.giveBack('203.0.113.7');
    expect(budget.take('203.0.113.7')).toBe(true);
    expect(budget.take('203.0.113.7')).toBe(false);
    // An hour after the first start it leaves the window: room for one more, the other start being 31 minutes old.
    clock.advance(31 * MINUTE);
    expect(budget.take('203.0.113.7')).toBe(true);
    expect(budget.take('203.0.113.7')).toBe(false);
  });

  it('gives back a start whose work was never stored', () => {
    const clock = testClock();
    const budget = new StartBudget(1, clock);
    expect(budget.take('203.0.113.7')).toBe(true);
    budget.giveBack('203.0.113.7');
    expect(budget.take('203.0.113.7')).toBe(true);
    expect(budget.take('203.0.113.7')).toBe(false);
  });
});

describe("the probes one client address may start in 24 hours", () => {
  const KEYS = { OPENAI_API_KEY: 'sk-test-openai', ANTHROPIC_API_KEY: 'sk-ant-test-key', GEMINI_API_KEY: 'AIzaTestKey0123', PERPLEXITY_API_KEY: 'pplx-test-key' };
  const perAddress = (env: Record<string, string>) => probesPerAddressPerDay(loadConfig({ DATABASE_PATH: 'data/site.db', ...env }));

  it('are as many as a fifth of PROBE_DAILY_CALLS pays for: one a day at the defaults, with four assistants', () => {
    expect(perAddress(KEYS)).toBe(1);
    // 300 / 5 = 60 calls; 10 questions to each of two assistants is 20 calls a probe.
    expect(perAddress({ OPENAI_API_KEY: KEYS.OPENAI_API_KEY, ANTHROPIC_API_KEY: KEYS.ANTHROPIC_API_KEY })).toBe(3);
    expect(perAddress({ ...KEYS, PROBE_PROMPTS: '3', PROBE_DAILY_CALLS: '1000' })).toBe(16);
  });

  it('count, with AUDIT_AUTO=1, the full audit run each probe queues: the probe and its audit together come out of one allowance', () => {
    // Two assistants: 300 / 5 = 60 calls; a probe of 10 questions to each is 20 calls, and its audit of 5 to each 10 more.
    const two = { OPENAI_API_KEY: KEYS.OPENAI_API_KEY, ANTHROPIC_API_KEY: KEYS.ANTHROPIC_API_KEY, AUDIT_FACT_PROMPTS: '0', JUDGE_PROVIDER: 'none' };
    expect(perAddress({ ...two, AUDIT_PROMPTS: '5' })).toBe(3);
    expect(perAddress({ ...two, AUDIT_PROMPTS: '5', AUDIT_AUTO: '1' })).toBe(2);
    // Its 3 direct questions to each, and the judge's reading of up to 8 answers of each, count too: (5 + 3 + 8) x 2 = 32 more, 52 a lead.
    expect(perAddress({ ...two, AUDIT_FACT_PROMPTS: '3', JUDGE_PROVIDER: 'chatgpt', AUDIT_PROMPTS: '5', AUDIT_AUTO: '1' })).toBe(1);
    // 1000 / 5 = 200 calls; a probe of 3 to each of four is 12, its audit of 50 to each 200 more: one a day.
    expect(perAddress({ ...KEYS, PROBE_PROMPTS: '3', PROBE_DAILY_CALLS: '1000', AUDIT_AUTO: '1' })).toBe(1);
  });

  it('are one at least, however small the day', () => {
    expect(perAddress({ ...KEYS, PROBE_PROMPTS: '50', PROBE_DAILY_CALLS: '10' })).toBe(1);
  });
});
