import { fillCopy } from '../../../shared/copy-template';
import { monitorReport as copy } from '../../../shared/generated/pages/monitorReport';
import { ASSISTANTS, type AssistantId } from '../../visibility-probe/assistant-catalogue';
import { answersGiven, givenAnswer, rivalsNamed } from '../audit/audit-figures';
import { changeVerdict } from './change';
import type { AssistantChange, ComposeTrend, MonitorFactsOf, MonitorRunFacts, TrendDocument, TrendRunInput } from './trend-document';

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

/** What a run keeps for the trend, from its probe: who answered and who named the business, question by question, and every other business named. */
export const monitorFacts: MonitorFactsOf = (probe) => {
  const questions = probe.prompts.map((question) => {
    const answers = probe.assistants.flatMap((part) => answersGiven(part).flatMap((answer) => (answer.prompt === question ? [{ assistant: part.id, named: answer.named }] : [])));
    return { question, answeredBy: answers.map((answer) => answer.assistant), namedBy: answers.filter((answer) => answer.named).map((answer) => answer.assistant) };
  });
  const given = probe.assistants.flatMap((part) => answersGiven(part).map((answer) => givenAnswer(part.id, answer, [])));
  return { questions, competitors: rivalsNamed(given).map(({ key, name, answers }) => ({ key, name, answers })) };
};

/** Answers naming the business in a run, all assistants together. */
const businessAnswers = (facts: MonitorRunFacts) => facts.questions.reduce((sum, question) => sum + question.namedBy.length, 0);

/** Every business name the run's answers hold (each counted once an answer): the share of voice's whole. */
const allMentions = (facts: MonitorRunFacts) => businessAnswers(facts) + facts.competitors.reduce((sum, competitor) => sum + competitor.answers, 0);

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The latest run against the one before it, per assistant in both: the real changes first, each group in the assistants' order. */
function changesBetween(before: TrendRunInput, now: TrendRunInput): AssistantChange[] {
  const changes = now.document.visibility.flatMap((part): AssistantChange[] => {
    const earlier = before.document.visibility.find((other) => other.assistant === part.assistant);
    if (earlier === undefined) return [];
    const verdict = changeVerdict(earlier.named, part.named);
    const label = ASSISTANTS[part.assistant].label;
    const sentence =
      earlier.named.of === 0 || part.named.of === 0
        ? fillCopy(copy.changes.notCompared, { assistant: label })
        : fillCopy(copy.changes[verdict.verdict], { assistant: label, count: part.named.count, of: part.named.of, before: earlier.named.count, beforeOf: earlier.named.of });
    return [{ ...verdict, assistant: part.assistant, label, sentence }];
  });
  const real = (change: AssistantChange) => (change.verdict === 'same' ? 1 : 0);
  return changes.map((change, order) => ({ change, order })).sort((a, b) => real(a.change) - real(b.change) || a.order - b.order).map(({ change }) => change);
}

/** The businesses named in `now` and in none of `before`'s answers, the most named first. */
function namedOnlyIn(now: MonitorRunFacts, before: MonitorRunFacts): { name: string; answers: number }[] {
  const earlier = new Set(before.competitors.map((competitor) => competitor.key));
  return now.competitors
    .filter((competitor) => !earlier.has(competitor.key))
    .sort((a, b) => b.answers - a.answers)
    .slice(0, COMPETITORS_LISTED)
    .map(({ name, answers }) => ({ name, answers }));
}

/** The questions answered in both runs that some assistant named the business for in `now` and none did in `before`. */
function namedOnlyFor(now: MonitorRunFacts, before: MonitorRunFacts): { question: string; assistants: AssistantId[] }[] {
  const earlier = new Map(before.questions.map((question) => [question.question, question]));
  return now.questions.flatMap((question) => {
    const then = earlier.get(question.question);
    if (then === undefined || then.answeredBy.length === 0 || question.answeredBy.length === 0) return [];
    return question.namedBy.length > 0 && then.namedBy.length === 0 ? [{ question: question.question, assistants: question.namedBy }] : [];
  });
}

export const composeTrend: ComposeTrend = ({ client, runs }) => {
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
    series: { number: latest.series, since: series[0]?.madeAt ?? null, earlierRuns: ordered.length - series.length },
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
  };
};

