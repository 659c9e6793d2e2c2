import { fillCopy } from '../../../shared/copy-template';
import { monitorReport as copy } from '../../../shared/generated/pages/monitorReport';
import { ASSISTANTS, type AssistantId } from '../../visibility-probe/assistant-catalogue';
import { answersGiven, givenAnswer, rivalsNamed } from '../audit/audit-figures';
import { changeVerdict, pairedQuestions } from './change';
import { TONES, type Tone } from '../../answer-check/verdicts';
import type { AssistantSays, WrongFact } from '../audit/audit-document';
import type { AssistantChange, ComposeTrend, MonitorFactsOf, MonitorRunFacts, SaidOverTime, TrendDocument, TrendFact, TrendRunInput } from './trend-document';

/**
 * A client's trend, composed from its stored runs when a run ends: pure and cheap (each run keeps
 * its small document and facts, no answer texts), so the page and the mails read the stored
 * result without work. Only the runs of the latest run's series are compared: runs that asked
 * other questions do not measure the same thing.
 */

/** Competitors beside the business in the share of voice over time (as many as the audit's). */
const SHARE_OF_VOICE_COMPETITORS = 5;
/** Competitors listed as new and as gone: the most named of each. */
const COMPETITORS_LISTED = 10;

/** What a run keeps for the trend, from its probe: who answered and who named the business, question by question, and every other business named, by which assistants. */
export const monitorFacts: MonitorFactsOf = (probe) => {
  const questions = probe.prompts.map((question) => {
    const answers = probe.assistants.flatMap((part) => answersGiven(part).flatMap((answer) => (answer.prompt === question ? [{ assistant: part.id, named: answer.named }] : [])));
    return { question, answeredBy: answers.map((answer) => answer.assistant), namedBy: answers.filter((answer) => answer.named).map((answer) => answer.assistant) };
  });
  const given = probe.assistants.flatMap((part) => answersGiven(part).map((answer) => givenAnswer(part.id, answer, [])));
  // Which assistants named each business, in the probe's order of assistants.
  const namedBy = new Map<string, AssistantId[]>();
  for (const { assistant, otherKeys } of given) {
    for (const key of otherKeys) {
      const assistants = namedBy.get(key) ?? [];
      if (!assistants.includes(assistant)) assistants.push(assistant);
      namedBy.set(key, assistants);
    }
  }
  return { questions, competitors: rivalsNamed(given).map(({ key, name, answers }) => ({ key, name, answers, assistants: namedBy.get(key) ?? [] })) };
};

/** Answers naming the business in a run, all assistants together. */
const businessAnswers = (facts: MonitorRunFacts) => facts.questions.reduce((sum, question) => sum + question.namedBy.length, 0);

/** Every business name the run's answers hold (each counted once an answer): the share of voice's whole. */
const allMentions = (facts: MonitorRunFacts) => businessAnswers(facts) + facts.competitors.reduce((sum, competitor) => sum + competitor.answers, 0);

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The latest run against the one before it, per assistant in both: the real changes first, each
 * group in the assistants' order. The verdict is the paired test's (change.ts), on the questions
 * the assistant answered in both runs; the sentence gives the counts out of all the answers each
 * run gave, and, when the assistant did not answer the same questions both times, says which
 * questions were compared (so that "12 of 41, down from 10 of 20" reads as it was judged).
 */
function changesBetween(before: TrendRunInput, now: TrendRunInput): AssistantChange[] {
  const changes = now.document.visibility.flatMap((part): AssistantChange[] => {
    const earlier = before.document.visibility.find((other) => other.assistant === part.assistant);
    if (earlier === undefined) return [];
    const paired = pairedQuestions(part.assistant, before.facts, now.facts);
    const verdict = changeVerdict(earlier.named, part.named, paired);
    const label = ASSISTANTS[part.assistant].label;
    const sameQuestions = paired.questions === earlier.named.of && paired.questions === part.named.of;
    const sentence =
      earlier.named.of === 0 || part.named.of === 0
        ? fillCopy(copy.changes.notCompared, { assistant: label })
        : paired.questions === 0
          ? fillCopy(copy.changes.noQuestionInBoth, { assistant: label })
          : [
              fillCopy(copy.changes[verdict.verdict], { assistant: label, count: part.named.count, of: part.named.of, before: earlier.named.count, beforeOf: earlier.named.of }),
              ...(sameQuestions ? [] : [fillCopy(copy.changes.compared, { questions: paired.questions, gained: paired.namedNowOnly, lost: paired.namedBeforeOnly })]),
            ].join(' ');
    return [{ ...verdict, assistant: part.assistant, label, sentence }];
  });
  const real = (change: AssistantChange) => (change.verdict === 'same' ? 1 : 0);
  return changes.map((change, order) => ({ change, order })).sort((a, b) => real(a.change) - real(b.change) || a.order - b.order).map(({ change }) => change);
}

/** The assistants that gave at least one answer in a run. */
const answering = (facts: MonitorRunFacts) => new Set(facts.questions.flatMap((question) => question.answeredBy));

/**
 * The businesses named in `now` and in none of `before`'s answers, the most named first: only
 * those named in `now` by an assistant that also answered in `before` (one that gave no answer
 * then could not have named it then: that is no news). A competitor of facts kept before the
 * assistants were recorded (no `assistants`) is compared as it was then: on its name alone.
 */
function namedOnlyIn(now: MonitorRunFacts, before: MonitorRunFacts): { name: string; answers: number }[] {
  const earlier = new Set(before.competitors.map((competitor) => competitor.key));
  const answeredBefore = answering(before);
  return now.competitors
    .filter((competitor) => !earlier.has(competitor.key) && (competitor.assistants === undefined || competitor.assistants.some((assistant) => answeredBefore.has(assistant))))
    .sort((a, b) => b.answers - a.answers)
    .slice(0, COMPETITORS_LISTED)
    .map(({ name, answers }) => ({ name, answers }));
}

/**
 * The questions some assistant named the business for in `now` and none did in `before`, counted
 * only when one of the assistants naming it in `now` also answered it in `before`: a question whose
 * only namer gave no answer to it the run before (a failed call) is no win, and the other way
 * round no loss.
 */
function namedOnlyFor(now: MonitorRunFacts, before: MonitorRunFacts): { question: string; assistants: AssistantId[] }[] {
  const earlier = new Map(before.questions.map((question) => [question.question, question]));
  return now.questions.flatMap((question) => {
    const then = earlier.get(question.question);
    if (then === undefined || then.namedBy.length > 0) return [];
    return question.namedBy.some((assistant) => then.answeredBy.includes(assistant)) ? [{ question: question.question, assistants: question.namedBy }] : [];
  });
}

/** A wrong fact's key within one assistant's answers: the value given, else its sentence. */
const wrongKey = (fact: WrongFact) => `${fact.kind} ${(fact.said ?? fact.says).replace(/\s+/g, ' ').trim().toLowerCase()}`;

/** What the assistants said about the client, run by run, and what the latest run put right or still gets wrong. */
function saidOverTime(series: readonly TrendRunInput[]): SaidOverTime | undefined {
  if (!series.some((run) => run.document.said)) return undefined;
  const perRun = series.map((run) => {
    const said = run.document.said;
    if (!said) return null;
    const tone = Object.fromEntries(TONES.map((value) => [value, said.assistants.reduce((sum, part) => sum + part.tone[value], 0)])) as Record<Tone, number>;
    return { wrong: said.assistants.reduce((sum, part) => sum + part.wrong.length, 0), tone, judged: said.assistants.reduce((sum, part) => sum + part.judged, 0) };
  });
  const latest = series.at(-1)?.document.said;
  const before = series.at(-2)?.document.said;
  const factOf = (part: AssistantSays, fact: WrongFact): TrendFact => ({ assistant: part.assistant, label: part.label, kind: fact.kind, said: fact.said, says: fact.says, siteSays: fact.siteSays });
  const earlier = (assistant: AssistantId) => before?.assistants.find((part) => part.assistant === assistant);
  const wrongNow = (latest?.assistants ?? []).flatMap((part) => {
    const then = new Set((earlier(part.assistant)?.wrong ?? []).map(wrongKey));
    return part.wrong.map((fact) => ({ ...factOf(part, fact), new: before !== undefined && !then.has(wrongKey(fact)) }));
  });
  // Put right: given the run before, no longer given by the same assistant, asked about the client again this run.
  const putRight = (before?.assistants ?? []).flatMap((part) => {
    const now = latest?.assistants.find((other) => other.assistant === part.assistant);
    if (!now || now.answers === 0) return [];
    const still = new Set(now.wrong.map(wrongKey));
    return part.wrong.filter((fact) => !still.has(wrongKey(fact))).map((fact) => factOf(part, fact));
  });
  return { perRun, wrongNow, putRight };
}

export const composeTrend: ComposeTrend = ({ client, runs, earlierSeriesRuns }) => {
  const ordered = [...runs].sort((a, b) => a.madeAt.localeCompare(b.madeAt) || a.id - b.id);
  const latest = ordered.at(-1);
  if (latest === undefined) {
    return { version: 1, client, latest: null, series: { number: 1, since: null, earlierRuns: 0 }, runs: [], changes: [], shareOfVoice: [], competitorsNew: [], competitorsGone: [], questionsWon: [], questionsLost: [] };
  }
  const series = ordered.filter((run) => run.series === latest.series);
  const before = series.at(-2);

  // The competitors named most over the series, each under the name its first run wrote.
  const named = new Map<string, { name: string; answers: number }>();
  for (const run of series) {
    for (const competitor of run.facts.competitors) {
      const total = named.get(competitor.key) ?? { name: competitor.name, answers: 0 };
      total.answers += competitor.answers;
      named.set(competitor.key, total);
    }
  }
  const top = [...named.entries()].sort(([, a], [, b]) => b.answers - a.answers).slice(0, SHARE_OF_VOICE_COMPETITORS);
  const shareIn = (run: TrendRunInput, answers: number) => {
    const whole = allMentions(run.facts);
    return whole === 0 ? null : round3(answers / whole);
  };
  const business = latest.document.business.name ?? latest.document.business.site ?? client.name ?? client.label;
  const said = saidOverTime(series);
  const shareOfVoice: TrendDocument['shareOfVoice'] = [
    { name: business, isBusiness: true, perRun: series.map((run) => shareIn(run, businessAnswers(run.facts))) },
    ...top.map(([key, { name }]) => ({
      name,
      isBusiness: false,
      perRun: series.map((run) => shareIn(run, run.facts.competitors.find((competitor) => competitor.key === key)?.answers ?? 0)),
    })),
  ];

  return {
    version: 1,
    client,
    latest: latest.document,
    series: { number: latest.series, since: series[0]?.madeAt ?? null, earlierRuns: (earlierSeriesRuns ?? 0) + ordered.length - series.length },
    runs: series.map((run) => ({
      id: run.id,
      madeAt: run.madeAt,
      visibilityScore: run.document.summary.visibilityScore,
      readinessScore: run.document.summary.readinessScore,
      perAssistant: run.document.visibility.map((part) => ({ assistant: part.assistant, label: part.label, named: part.named })),
    })),
    changes: before === undefined ? [] : changesBetween(before, latest),
    shareOfVoice,
    competitorsNew: before === undefined ? [] : namedOnlyIn(latest.facts, before.facts),
    competitorsGone: before === undefined ? [] : namedOnlyIn(before.facts, latest.facts),
    questionsWon: before === undefined ? [] : namedOnlyFor(latest.facts, before.facts),
    questionsLost: before === undefined ? [] : namedOnlyFor(before.facts, latest.facts),
    ...(said ? { said } : {}),
  };
};

