import type { AssistantId } from '../../visibility-probe/assistant-catalogue';
import type { SampleCount } from '../audit/audit-document';
import type { ChangeVerdict, MonitorRunFacts, PairedQuestions } from './trend-document';

/**
 * Whether an assistant naming the business in N1 of M1 answers one run and N2 of M2 the next is a
 * real change, or the usual variation of its answers: the same questions asked twice get
 * different answers, so 12 of 50 and 17 of 50 can be the same visibility.
 *
 * Every run of a client puts the same questions to the same assistant, so the two runs are not
 * unrelated samples: they are pairs, one per question. The test uses that pairing. For one
 * assistant it takes the questions that assistant answered in BOTH runs (a call that failed in
 * either run leaves its question out), and counts the questions whose outcome changed: b named
 * the business before and not now, c not before and now. The questions named both times or
 * neither time say nothing about a change. If nothing had changed, each changed question would as
 * likely have gone one way as the other: **McNemar's exact test** is the two-sided exact binomial
 * test of c against b + c at one half, p = min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 1/2).
 * A change is real when p is below 5%; a rise when c > b, a fall when b > c.
 */

/** The test's level: a change this unlikely by chance alone (two-sided) is called real. */
const SIGNIFICANCE_LEVEL = 0.05;

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i += 1) logFactorials[i] = (logFactorials[i - 1] ?? 0) + Math.log(i);
  return logFactorials[n] ?? 0;
}

/**
 * McNemar's exact test, two-sided: of the questions whose outcome changed, `lost` were named
 * before and not now (b), `gained` not before and now (c). The chance, were either way equally
 * likely, of a split at least this uneven: 2 P(X <= min(b, c)) for X ~ Binomial(b + c, 1/2),
 * at most 1 (1 when no question changed).
 */
export function mcnemarPValue(lost: number, gained: number): number {
  const changed = lost + gained;
  const fewer = Math.min(lost, gained);
  let tail = 0;
  // Each term C(n, k) / 2^n, in logarithms so that no count of questions overflows.
  for (let k = 0; k <= fewer; k += 1) tail += Math.exp(logFactorial(changed) - logFactorial(k) - logFactorial(changed - k) - changed * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** What the test rests on for one assistant: the questions it answered in both runs, and how their outcome moved. */
export function pairedQuestions(assistant: AssistantId, before: MonitorRunFacts, now: MonitorRunFacts): PairedQuestions {
  const earlier = new Map(before.questions.map((question) => [question.question, question]));
  const paired = { questions: 0, namedBoth: 0, namedBeforeOnly: 0, namedNowOnly: 0 };
  const seen = new Set<string>();
  for (const question of now.questions) {
    const then = earlier.get(question.question);
    if (then === undefined || seen.has(question.question) || !then.answeredBy.includes(assistant) || !question.answeredBy.includes(assistant)) continue;
    seen.add(question.question);
    const namedThen = then.namedBy.includes(assistant);
    const namedNow = question.namedBy.includes(assistant);
    paired.questions += 1;
    if (namedThen && namedNow) paired.namedBoth += 1;
    else if (namedThen) paired.namedBeforeOnly += 1;
    else if (namedNow) paired.namedNowOnly += 1;
  }
  return paired;
}

/**
 * Whether the assistant's naming moved for real on the questions it answered both times (`paired`):
 * a real rise, a real fall, or within the usual variation. `before` and `now` are the counts a
 * person reads (out of all the answers each run gave); the verdict rests on `paired` alone.
 */
export function changeVerdict(before: SampleCount, now: SampleCount, paired: PairedQuestions): ChangeVerdict {
  const pValue = mcnemarPValue(paired.namedBeforeOnly, paired.namedNowOnly);
  const verdict = pValue >= SIGNIFICANCE_LEVEL ? 'same' : paired.namedNowOnly > paired.namedBeforeOnly ? 'rise' : 'fall';
  return { verdict, before, now, pValue, paired };
}
