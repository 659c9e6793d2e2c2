import { changeVerdict, mcnemarPValue } from '../../server/reports/monitor/change';
import { composeTrend, monitorFacts } from '../../server/reports/monitor/compose-trend';
import { sampleCount } from '../../server/reports/audit/audit-figures';
import type { MonitorRunFacts, TrendRunInput } from '../../server/reports/monitor/trend-document';
import type { Reply } from '../helpers/audit-inputs';
import { auditInput } from '../fixtures/audit-document';
import { trendClient, trendDocument, trendRun, trendRuns } from '../fixtures/trend-document';
import { namedFirst, namedThird, notNamed, type RecordedAnswer } from '../fixtures/visibility-probe-answers';

/*
 * A client's trend as composeTrend makes it from runs composed like real ones (test/fixtures/
 * trend-document.ts: three monthly runs of the same questions), the facts a run keeps, and which
 * changes the stated test calls real, at its boundaries. The test is paired (McNemar's exact test
 * on the questions an assistant answered in both runs); its p-values are those statistical
 * software gives for it (R: binom.test(c, b + c), two-sided; exact2x2's mcnemar.exact).
 */

const september = '2026-09-20T10:09:30.000Z';
const october = '2026-10-20T10:09:30.000Z';

/** Two runs of the fixture's 41 questions, a month apart, and the trend they make. */
const twoRuns = (first: Parameters<typeof trendRun>[3], second: Parameters<typeof trendRun>[3]) =>
  composeTrend({ client: trendClient, runs: [trendRun(1, 1, september, first), trendRun(2, 1, october, second)] });

/** Named for the questions whose place is in `named`, not named for the other answered ones. */
const namedFor =
  (named: (index: number) => boolean, answered: (index: number) => boolean = () => true) =>
  (_question: unknown, index: number): Reply =>
    !answered(index) ? 'no answer' : named(index) ? namedFirst : notNamed;

const between = (from: number, to: number) => (index: number) => index >= from && index < to;

describe('the change test: McNemar\'s exact test on the questions answered in both runs', () => {
  it('gives the exact two-sided p-values: b = 0, c = 6 is 0.03125; 1 and 6, 0.125; 2 and 10, 0.0386; b = c, 1', () => {
    expect(mcnemarPValue(0, 6)).toBeCloseTo(0.03125, 10);
    expect(mcnemarPValue(6, 0)).toBeCloseTo(0.03125, 10);
    expect(mcnemarPValue(0, 5)).toBeCloseTo(0.0625, 10);
    expect(mcnemarPValue(1, 6)).toBeCloseTo(0.125, 10);
    // 2 (1 + 12 + 66) / 4096
    expect(mcnemarPValue(2, 10)).toBeCloseTo(0.0385742, 7);
    expect(mcnemarPValue(10, 2)).toBeCloseTo(0.0385742, 7);
    // 2 (1 + 9) / 512
    expect(mcnemarPValue(1, 8)).toBeCloseTo(0.0390625, 10);
    expect(mcnemarPValue(2, 20)).toBeCloseTo(0.000121117, 9);
    // docs/monitoring.md's examples: 6 to 21 of 50 with 3 down and 18 up; 12 to 17 of 50 with 2 down and 7 up.
    expect(mcnemarPValue(3, 18)).toBeCloseTo(0.00148964, 8);
    expect(mcnemarPValue(2, 7)).toBeCloseTo(0.1796875, 10);
    for (const same of [0, 1, 5, 40]) expect(mcnemarPValue(same, same)).toBe(1);
    // Past the double's 2^-1074: no question count overflows.
    expect(mcnemarPValue(600, 600)).toBe(1);
    expect(mcnemarPValue(0, 1200)).toBe(0);
  });

  it('calls a change real below 5%, a rise when more questions newly name the business than stopped, a fall the other way', () => {
    const verdict = (lost: number, gained: number) => changeVerdict(sampleCount(0, 0), sampleCount(0, 0), { questions: 41, namedBoth: 0, namedBeforeOnly: lost, namedNowOnly: gained });
    expect([verdict(0, 6).verdict, verdict(6, 0).verdict, verdict(0, 5).verdict, verdict(1, 6).verdict, verdict(1, 8).verdict, verdict(2, 10).verdict, verdict(10, 2).verdict, verdict(7, 7).verdict]).toEqual([
      'rise',
      'fall',
      'same',
      'same',
      'rise',
      'rise',
      'fall',
      'same',
    ]);
    expect(verdict(0, 0)).toMatchObject({ verdict: 'same', pValue: 1 });
  });

  it('takes its direction from the questions, not from the counts shown: 10 of 20 then 12 of 100, with 8 of the 20 lost and none won, is a real fall', () => {
    const paired = { questions: 20, namedBoth: 2, namedBeforeOnly: 8, namedNowOnly: 0 };
    const change = changeVerdict(sampleCount(10, 20), sampleCount(12, 100), paired);
    expect(change).toMatchObject({ verdict: 'fall', before: { count: 10, of: 20 }, now: { count: 12, of: 100 }, paired });
    expect(change.pValue).toBeCloseTo(0.0078125, 10);
  });

  it('pairs by question: the same totals, 10 then 16 of 41, are a real rise when six questions moved up and none down, and within the usual variation when ten moved up and four down', () => {
    const allUp = twoRuns({ chatgpt: namedFor(between(0, 10)) }, { chatgpt: namedFor(between(0, 16)) });
    expect(allUp.changes.map((change) => change.sentence)).toEqual(['ChatGPT named you in 16 of 41, up from 10 of 41: a real rise.']);
    expect(allUp.changes[0]?.paired).toEqual({ questions: 41, namedBoth: 10, namedBeforeOnly: 0, namedNowOnly: 6 });
    expect(allUp.changes[0]?.pValue).toBeCloseTo(0.03125, 10);
    const bothWays = twoRuns({ chatgpt: namedFor(between(0, 10)) }, { chatgpt: namedFor(between(4, 20)) });
    expect(bothWays.changes.map((change) => change.sentence)).toEqual(['ChatGPT named you in 16 of 41 (was 10 of 41): within the usual variation.']);
    expect(bothWays.changes[0]?.paired).toEqual({ questions: 41, namedBoth: 6, namedBeforeOnly: 4, namedNowOnly: 10 });
    // 2 (1 + 14 + 91 + 364 + 1001) / 16384
    expect(bothWays.changes[0]?.pValue).toBeCloseTo(0.1795654, 7);
  });
});

describe('the change test when the runs gave different numbers of answers', () => {
  it('10 of 20 then 12 of 41: on the 20 questions answered both times 8 stopped naming the business and none started, so a real fall, not a rise', () => {
    // Run 1: ChatGPT's calls for questions 21 to 41 failed; it named the business for the first 10.
    // Run 2: every call answered; it named the business for the first 2 and for 10 it had not answered before.
    const trend = twoRuns({ chatgpt: namedFor(between(0, 10), between(0, 20)) }, { chatgpt: namedFor((index) => index < 2 || between(20, 30)(index)) });
    const [change] = trend.changes;
    expect(change?.sentence).toBe(
      'ChatGPT named you in 12 of 41, down from 10 of 20: a real fall. Only the 20 questions it answered both times are compared: it named you for 0 of them now and not before, for 8 before and not now.',
    );
    expect(change).toMatchObject({ verdict: 'fall', before: { count: 10, of: 20 }, now: { count: 12, of: 41 }, paired: { questions: 20, namedBoth: 2, namedBeforeOnly: 8, namedNowOnly: 0 } });
    expect(change?.pValue).toBeCloseTo(0.0078125, 10);
  });

  it('10 of 20 then 0 of 10, the questions named before unanswered now: nothing moved on the 10 answered both times, so within the usual variation', () => {
    // Run 2: the calls for the first 10 questions (those named in run 1) failed, and for the last 21.
    const trend = twoRuns({ chatgpt: namedFor(between(0, 10), between(0, 20)) }, { chatgpt: namedFor(() => false, between(10, 20)) });
    const [change] = trend.changes;
    expect(change?.sentence).toBe(
      'ChatGPT named you in 0 of 10 (was 10 of 20): within the usual variation. Only the 10 questions it answered both times are compared: it named you for 0 of them now and not before, for 0 before and not now.',
    );
    expect(change).toMatchObject({ verdict: 'same', pValue: 1, paired: { questions: 10, namedBoth: 0, namedBeforeOnly: 0, namedNowOnly: 0 } });
  });

  it('an assistant that answered in both runs but none of the same questions is not compared, and says so', () => {
    const trend = twoRuns({ chatgpt: namedFor(() => false, between(0, 10)) }, { chatgpt: namedFor(() => true, between(10, 41)) });
    expect(trend.changes).toEqual([
      expect.objectContaining({ verdict: 'same', pValue: 1, sentence: 'ChatGPT answered none of the same questions in both runs, so there is nothing to compare.' }),
    ]);
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

  it('with each other business, the assistants whose answers named it, in the probe\'s order', () => {
    for (const competitor of facts.competitors) {
      const namers = auditInput.probe.assistants.filter((part) => part.answers.some((answer) => answer.error === null && answer.others.some((other) => other.toLowerCase() === competitor.name.toLowerCase())));
      expect([competitor.name, competitor.assistants]).toEqual([competitor.name, namers.map((part) => part.id)]);
    }
    // Perplexity's answers never name Boiler Doctors.
    expect(facts.competitors.find((competitor) => competitor.name === 'Boiler Doctors')?.assistants).toEqual(['chatgpt', 'claude', 'gemini']);
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
    // What the verdicts rest on: Claude newly named the business for 20 questions and stopped for 2.
    expect(trendDocument.changes.map((change) => [change.label, change.paired])).toEqual([
      ['Claude', { questions: 41, namedBoth: 4, namedBeforeOnly: 2, namedNowOnly: 20 }],
      ['ChatGPT', { questions: 41, namedBoth: 4, namedBeforeOnly: 10, namedNowOnly: 7 }],
      ['Gemini', { questions: 41, namedBoth: 11, namedBeforeOnly: 0, namedNowOnly: 0 }],
      ['Perplexity', { questions: 41, namedBoth: 21, namedBeforeOnly: 0, namedNowOnly: 0 }],
    ]);
    expect(trendDocument.changes[0]?.pValue).toBeCloseTo(0.000121117, 9);
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

/** An answer naming one other business only. */
const naming = (name: string): RecordedAnswer => ({ text: `For boiler work in Leeds, many landlords use **${name}**.`, sources: [] });

describe('fair comparisons: only what an assistant answered in both runs', () => {
  it('a question named only by an assistant whose call for it failed in the other run is neither lost nor won', () => {
    // Claude's replies by question, September then October; ChatGPT answers every question both
    // times and names the business only for question 13 in October, so every question was answered in both runs.
    const claudeReplies = (index: number): [Reply, Reply] =>
      index < 5
        ? [namedThird, 'no answer'] // named, then the call failed: not lost
        : index < 10
          ? ['no answer', namedThird] // the call failed, then named: not won
          : index === 10
            ? [namedThird, notNamed] // lost
            : index === 11
              ? [notNamed, namedThird] // won
              : index === 12
                ? [namedThird, 'no answer'] // named by Claude, then by ChatGPT alone: named both times, neither
                : [notNamed, notNamed];
    const claude = (run: 0 | 1) => (_question: unknown, index: number): Reply => claudeReplies(index)[run];
    const chatgpt = (run: 0 | 1) => (_question: unknown, index: number): Reply => (index === 12 && run === 1 ? namedFirst : notNamed);
    const first = trendRun(1, 1, september, { chatgpt: chatgpt(0), claude: claude(0) });
    const second = trendRun(2, 1, october, { chatgpt: chatgpt(1), claude: claude(1) });
    const trend = composeTrend({ client: trendClient, runs: [first, second] });
    const question = (index: number) => first.facts.questions[index]?.question;
    expect(trend.questionsLost).toEqual([{ question: question(10), assistants: ['claude'] }]);
    expect(trend.questionsWon).toEqual([{ question: question(11), assistants: ['claude'] }]);
  });

  it('a competitor named only by an assistant that gave no answers in the other run is neither gone nor new', () => {
    // ChatGPT answers both times: Harehills Heating in September, Chapel Allerton Plumbing in October.
    // Perplexity named Kirkstall Gas Services in September and gave no answers in October; Claude gave none in September and named Roundhay Repairs in October.
    const first = trendRun(1, 1, september, {
      chatgpt: (_question, index) => (index === 0 ? naming('Harehills Heating') : notNamed),
      claude: () => 'no answer',
      perplexity: (_question, index) => (index === 1 ? naming('Kirkstall Gas Services') : notNamed),
    });
    const second = trendRun(2, 1, october, {
      chatgpt: (_question, index) => (index === 0 ? naming('Chapel Allerton Plumbing') : notNamed),
      claude: (_question, index) => (index === 1 ? naming('Roundhay Repairs') : notNamed),
      perplexity: () => 'no answer',
    });
    const trend = composeTrend({ client: trendClient, runs: [first, second] });
    expect(trend.competitorsGone).toEqual([{ name: 'Harehills Heating', answers: 1 }]);
    expect(trend.competitorsNew).toEqual([{ name: 'Chapel Allerton Plumbing', answers: 1 }]);

    // Facts kept before the assistants were recorded compare as they did then: on the name alone.
    const withoutAssistants = (run: TrendRunInput): TrendRunInput => ({ ...run, facts: { ...run.facts, competitors: run.facts.competitors.map(({ key, name, answers }): MonitorRunFacts['competitors'][number] => ({ key, name, answers })) } });
    const old = composeTrend({ client: trendClient, runs: [withoutAssistants(first), withoutAssistants(second)] });
    expect(old.competitorsGone).toEqual([
      { name: 'Harehills Heating', answers: 1 },
      { name: 'Kirkstall Gas Services', answers: 1 },
    ]);
    expect(old.competitorsNew).toEqual([
      { name: 'Chapel Allerton Plumbing', answers: 1 },
      { name: 'Roundhay Repairs', answers: 1 },
    ]);
    // An old run before a new one: the new run's competitors are judged by their assistants, the old run's by name.
    const mixed = composeTrend({ client: trendClient, runs: [withoutAssistants(first), second] });
    expect(mixed.competitorsNew).toEqual([{ name: 'Chapel Allerton Plumbing', answers: 1 }]);
    expect(mixed.competitorsGone).toEqual([
      { name: 'Harehills Heating', answers: 1 },
      { name: 'Kirkstall Gas Services', answers: 1 },
    ]);
  });
});
