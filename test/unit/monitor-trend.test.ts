import { changePValue, changeVerdict } from '../../server/reports/monitor/change';
import { composeTrend, monitorFacts } from '../../server/reports/monitor/compose-trend';
import { sampleCount } from '../../server/reports/audit/audit-figures';
import type { TrendRunInput } from '../../server/reports/monitor/trend-document';
import { auditInput } from '../fixtures/audit-document';
import { trendClient, trendDocument, trendRun, trendRuns } from '../fixtures/trend-document';
import { namedFirst, notNamed } from '../fixtures/visibility-probe-answers';

/*
 * A client's trend as composeTrend makes it from runs composed like real ones (test/fixtures/
 * trend-document.ts: three monthly runs of the same questions), the facts a run keeps, and which
 * changes the stated test calls real, at its boundaries. The p-values are those statistical
 * software gives for the same test (pooled two-proportion z-test, Fisher's exact test).
 */

const verdict = (k1: number, n1: number, k2: number, n2: number) => changeVerdict(sampleCount(k1, n1), sampleCount(k2, n2)).verdict;

describe('the change test', () => {
  it('calls the issue examples as a person should read them: 12 to 17 of 50 is noise, 6 to 21 of 50 a real rise', () => {
    expect(changePValue(12, 50, 17, 50)).toBeCloseTo(0.2705055, 6);
    expect(verdict(12, 50, 17, 50)).toBe('same');
    expect(changePValue(6, 50, 21, 50)).toBeCloseTo(0.000728329, 8);
    expect(verdict(6, 50, 21, 50)).toBe('rise');
    expect(verdict(21, 50, 6, 50)).toBe('fall');
  });

  it('from 20% of 50 questions, 19 of 50 is the smallest rise called real, and 18 is not; from 20 of 100, 33', () => {
    expect(verdict(10, 50, 18, 50)).toBe('same');
    expect(verdict(10, 50, 19, 50)).toBe('rise');
    expect(verdict(20, 100, 32, 100)).toBe('same');
    expect(verdict(20, 100, 33, 100)).toBe('rise');
    // And the same distance down.
    expect(verdict(19, 50, 10, 50)).toBe('fall');
  });

  it('with few answers uses the exact test: 0 to 4 of 10 is within the usual variation, though the z-test would call it real', () => {
    // Pooled z-test: p = 0.0253; Fisher's exact test: p = 0.0867.
    expect(changePValue(0, 10, 4, 10)).toBeCloseTo(0.0866873, 6);
    expect(verdict(0, 10, 4, 10)).toBe('same');
    expect(changePValue(1, 20, 6, 20)).toBeCloseTo(0.0914761, 6);
    expect(verdict(0, 10, 7, 10)).toBe('rise');
  });

  it('an empty sample compares with nothing: p = 1, within the usual variation', () => {
    expect(changeVerdict(sampleCount(0, 0), sampleCount(12, 50))).toMatchObject({ verdict: 'same', pValue: 1 });
    expect(verdict(0, 50, 0, 50)).toBe('same');
    expect(verdict(50, 50, 50, 50)).toBe('same');
  });
});

describe('the facts a run keeps', () => {
  const facts = monitorFacts(auditInput.probe);

  it('one entry per question in the fixed order, with who answered and who named the business', () => {
    expect(facts.questions.map((question) => question.question)).toEqual(auditInput.probe.prompts);
    for (const [index, question] of facts.questions.entries()) {
      for (const part of auditInput.probe.assistants) {
        const answer = part.answers.find((given) => given.prompt === question.question);
        expect(question.answeredBy.includes(part.id)).toBe(answer !== undefined && answer.error === null);
        expect(question.namedBy.includes(part.id)).toBe(answer !== undefined && answer.error === null && answer.named);
      }
      // Perplexity's eighth call timed out: no answer, so not among those who answered.
      if (index === 7) expect(question.answeredBy).not.toContain('perplexity');
    }
  });

  it('every other business once, under the name first written, with the answers naming it', () => {
    const keys = facts.competitors.map((competitor) => competitor.key);
    expect(new Set(keys).size).toBe(keys.length);
    const pipePros = facts.competitors.find((competitor) => competitor.name === 'Pipe Pros Leeds');
    const answersNaming = auditInput.probe.assistants.flatMap((part) => part.answers).filter((answer) => answer.error === null && answer.others.includes('Pipe Pros Leeds')).length;
    expect(pipePros?.answers).toBe(answersNaming);
    expect(facts.competitors.map((competitor) => competitor.name)).not.toContain('Acme Plumbing Ltd');
  });
});

describe('the trend of three monthly runs', () => {
  it('lists the runs oldest first, whatever order they come in, with each run document\'s scores and counts', () => {
    const shuffled = composeTrend({ client: trendClient, runs: [trendRuns[2], trendRuns[0], trendRuns[1]].filter((run): run is TrendRunInput => run !== undefined) });
    expect(shuffled).toEqual(trendDocument);
    expect(trendDocument.runs.map((run) => run.id)).toEqual([1, 2, 3]);
    for (const [index, run] of trendDocument.runs.entries()) {
      const document = trendRuns[index]?.document;
      expect(run.visibilityScore).toBe(document?.summary.visibilityScore);
      expect(run.readinessScore).toBe(document?.summary.readinessScore);
      expect(run.perAssistant.map((part) => [part.label, part.named.count, part.named.of])).toEqual(document?.visibility.map((part) => [part.label, part.named.count, part.named.of]));
    }
    expect(trendDocument.latest).toBe(trendRuns[2]?.document);
    expect(trendDocument.series).toEqual({ number: 1, since: '2026-09-20T10:09:30.000Z', earlierRuns: 0 });
  });

  it('calls Claude\'s rise real and first, ChatGPT\'s move within the usual variation, in the sentences a person reads', () => {
    expect(trendDocument.changes.map((change) => change.sentence)).toEqual([
      'Claude named you in 24 of 41, up from 6 of 41: a real rise.',
      'ChatGPT named you in 11 of 41 (was 14 of 41): within the usual variation.',
      'Gemini named you in 11 of 41 (was 11 of 41): within the usual variation.',
      'Perplexity named you in 21 of 41 (was 21 of 41): within the usual variation.',
    ]);
    expect(trendDocument.changes.map((change) => change.verdict)).toEqual(['rise', 'same', 'same', 'same']);
  });

  it('shows the new competitor and the one gone, and the questions won and lost, from the last two runs', () => {
    expect(trendDocument.competitorsNew).toEqual([{ name: 'Aire Valley Heating', answers: 28 }]);
    expect(trendDocument.competitorsGone).toEqual([{ name: 'Kirkstall Gas Services', answers: 17 }]);
    const [before, now] = [trendRuns[1]?.facts, trendRuns[2]?.facts];
    const namedIn = (facts: typeof before, question: string) => facts?.questions.find((item) => item.question === question)?.namedBy ?? [];
    expect(trendDocument.questionsWon.length).toBeGreaterThan(0);
    for (const won of trendDocument.questionsWon) {
      expect(namedIn(before, won.question)).toEqual([]);
      expect(won.assistants).toEqual(namedIn(now, won.question));
      expect(won.assistants).toContain('claude');
    }
    expect(trendDocument.questionsLost.length).toBeGreaterThan(0);
    for (const lost of trendDocument.questionsLost) {
      expect(namedIn(now, lost.question)).toEqual([]);
      expect(lost.assistants).toEqual(namedIn(before, lost.question));
    }
  });

  it('gives the share of voice of the business first and the five competitors named most, run by run', () => {
    expect(trendDocument.shareOfVoice.map((row) => row.name)).toEqual(['Acme Plumbing Ltd', 'Pipe Pros Leeds', 'FlowFix Plumbing & Heating', 'Boiler Doctors', 'Leeds Bathroom Studio', 'Tile & Tap']);
    expect(trendDocument.shareOfVoice.map((row) => row.isBusiness)).toEqual([true, false, false, false, false, false]);
    // The business's share: answers naming it over every name the run's answers hold.
    for (const [index, run] of trendRuns.entries()) {
      const named = run.facts.questions.reduce((sum, question) => sum + question.namedBy.length, 0);
      const all = named + run.facts.competitors.reduce((sum, competitor) => sum + competitor.answers, 0);
      expect(trendDocument.shareOfVoice[0]?.perRun[index]).toBeCloseTo(named / all, 3);
      const total = trendDocument.shareOfVoice.reduce((sum, row) => sum + (row.perRun[index] ?? 0), 0);
      expect(total).toBeLessThanOrEqual(1.001);
    }
    expect(trendDocument.shareOfVoice[0]?.perRun).toEqual([0.097, 0.115, 0.143]);
  });
});

describe('series, and a client with fewer runs', () => {
  it('compares only the runs of the latest series, and says how many earlier runs asked other questions', () => {
    const fourth = trendRun(4, 2, '2026-12-20T10:09:30.000Z', { chatgpt: () => namedFirst, claude: () => notNamed });
    const trend = composeTrend({ client: trendClient, runs: [...trendRuns, fourth] });
    expect(trend.series).toEqual({ number: 2, since: '2026-12-20T10:09:30.000Z', earlierRuns: 3 });
    expect(trend.runs.map((run) => run.id)).toEqual([4]);
    expect(trend.changes).toEqual([]);
    expect(trend.competitorsNew).toEqual([]);
    expect(trend.questionsWon).toEqual([]);
    expect(trend.latest).toBe(fourth.document);
  });

  it('a second run compares with the first; an assistant not asked in both is not compared', () => {
    const first = trendRun(1, 1, '2026-09-20T10:09:30.000Z', { chatgpt: () => notNamed, claude: () => notNamed });
    const second = trendRun(2, 1, '2026-10-20T10:09:30.000Z', { chatgpt: () => namedFirst, gemini: () => notNamed });
    const trend = composeTrend({ client: trendClient, runs: [first, second] });
    expect(trend.changes.map((change) => change.sentence)).toEqual(['ChatGPT named you in 41 of 41, up from 0 of 41: a real rise.']);
    expect(trend.questionsWon).toHaveLength(41);
  });

  it('a question no assistant answered in one of the runs is neither won nor lost', () => {
    const first = trendRun(1, 1, '2026-09-20T10:09:30.000Z', { chatgpt: (_question, index) => (index < 5 ? 'no answer' : notNamed) });
    const second = trendRun(2, 1, '2026-10-20T10:09:30.000Z', { chatgpt: () => namedFirst });
    const trend = composeTrend({ client: trendClient, runs: [first, second] });
    expect(trend.questionsWon).toHaveLength(36);
    expect(trend.questionsWon.map((won) => won.question)).not.toContain(first.facts.questions[0]?.question);
  });

  it('an assistant that gave no answers in one run is not compared, and says so', () => {
    const first = trendRun(1, 1, '2026-09-20T10:09:30.000Z', { chatgpt: () => 'no answer' });
    const second = trendRun(2, 1, '2026-10-20T10:09:30.000Z', { chatgpt: () => namedFirst });
    const [change] = composeTrend({ client: trendClient, runs: [first, second] }).changes;
    expect(change).toMatchObject({ verdict: 'same', pValue: 1, sentence: 'ChatGPT gave no answers in one of the two runs, so there is nothing to compare.' });
  });

  it('one run: the latest in full and nothing compared; no run: nothing at all', () => {
    const one = composeTrend({ client: trendClient, runs: [trendRuns[0]].filter((run): run is TrendRunInput => run !== undefined) });
    expect(one.runs).toHaveLength(1);
    expect(one.changes).toEqual([]);
    expect(one.competitorsNew).toEqual([]);
    expect(one.questionsLost).toEqual([]);
    expect(one.latest).not.toBeNull();
    const none = composeTrend({ client: trendClient, runs: [] });
    expect(none).toMatchObject({ latest: null, runs: [], changes: [], shareOfVoice: [], series: { number: 1, since: null, earlierRuns: 0 } });
  });

});
