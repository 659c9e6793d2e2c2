import type { SampleCount } from '../audit/audit-document';
import type { ChangeVerdict } from './trend-document';

/**
 * Whether an assistant naming the business in N1 of M1 answers one run and N2 of M2 the next is a
 * real change, or the usual variation of samples that size: the same questions asked twice get
 * different answers, so 12 of 50 and 17 of 50 can be the same visibility.
 *
 * The test: two proportions, two-sided, at the 5% level. The pooled two-proportion z-test where
 * its normal approximation holds (every expected count of the 2x2 table at least 5, the textbook
 * rule); Fisher's exact test where it does not (few questions, or a rate near 0 or all), since
 * there the z-test calls changes real too easily. A change is real when the p-value is below the
 * level: the chance that runs of the same visibility would differ this much is under 5%.
 */

/** The test's level: a change this unlikely by chance alone (two-sided) is called real. */
const SIGNIFICANCE_LEVEL = 0.05;

/** Below this expected count in any cell of the 2x2 table, the normal approximation is not trusted. */
const SMALLEST_EXPECTED_COUNT = 5;

/**
 * The complementary error function, erfc(x) for x >= 0: the Chebyshev fit of Numerical Recipes
 * (Press, Teukolsky, Vetterling and Flannery, 2nd ed., section 6.2, `erfcc`), with a fractional
 * error below 1.2e-7 everywhere: far finer than a decision at the 5% level needs.
 */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const polynomial =
    -x * x -
    1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return t * Math.exp(polynomial);
}

/** The two-sided tail of the standard normal beyond |z|: P(|Z| >= |z|) = erfc(|z| / sqrt 2). */
const twoSidedNormalTail = (z: number): number => Math.min(1, erfc(Math.abs(z) / Math.SQRT2));

/**
 * The pooled two-proportion z-test: z = (p2 - p1) / sqrt(p (1 - p) (1/n1 + 1/n2)), p the pooled
 * share (k1 + k2) / (n1 + n2); its two-sided p-value from the normal tail.
 */
function zTest(k1: number, n1: number, k2: number, n2: number): number {
  const pooled = (k1 + k2) / (n1 + n2);
  const spread = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (spread === 0) return 1;
  return twoSidedNormalTail((k2 / n2 - k1 / n1) / spread);
}

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i += 1) logFactorials[i] = (logFactorials[i - 1] ?? 0) + Math.log(i);
  return logFactorials[n] ?? 0;
}

/**
 * Fisher's exact test, two-sided: with both samples' sizes and the total named fixed, the chance
 * of every split of the named between the samples (the hypergeometric distribution), and the
 * p-value the sum of the chances of the splits no likelier than the one seen.
 */
function fisherTest(k1: number, n1: number, k2: number, n2: number): number {
  const named = k1 + k2;
  const total = n1 + n2;
  const logChance = (a: number) =>
    logFactorial(named) + logFactorial(total - named) + logFactorial(n1) + logFactorial(n2) - logFactorial(a) - logFactorial(named - a) - logFactorial(n1 - a) - logFactorial(n2 - named + a) - logFactorial(total);
  const seen = logChance(k1);
  let pValue = 0;
  for (let a = Math.max(0, named - n2); a <= Math.min(named, n1); a += 1) {
    const chance = logChance(a);
    // A relative tolerance, so splits exactly as likely as the one seen count despite rounding.
    if (chance <= seen + 1e-7) pValue += Math.exp(chance);
  }
  return Math.min(1, pValue);
}

/** The two-sided p-value of k1 of n1 against k2 of n2 by the stated test (1 when either sample is empty). */
export function changePValue(k1: number, n1: number, k2: number, n2: number): number {
  if (n1 === 0 || n2 === 0) return 1;
  const named = k1 + k2;
  const total = n1 + n2;
  const smallestExpected = (Math.min(n1, n2) * Math.min(named, total - named)) / total;
  return smallestExpected < SMALLEST_EXPECTED_COUNT ? fisherTest(k1, n1, k2, n2) : zTest(k1, n1, k2, n2);
}

/** Whether `before` to `now` is a real rise, a real fall, or within the usual variation. */
export function changeVerdict(before: SampleCount, now: SampleCount): ChangeVerdict {
  const pValue = changePValue(before.count, before.of, now.count, now.of);
  const real = pValue < SIGNIFICANCE_LEVEL;
  const rising = before.of > 0 && now.of > 0 && now.count / now.of > before.count / before.of;
  return { verdict: real ? (rising ? 'rise' : 'fall') : 'same', before, now, pValue };
}
