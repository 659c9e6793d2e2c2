import { changeVerdict, mcnemarPValue } from '../server/reports/monitor/change';
import { sampleCount } from '../server/reports/audit/audit-figures';

/**
 * The tables of docs/monitoring.md, computed from the change test itself (McNemar's exact test on
 * the questions an assistant answered in both runs, server/reports/monitor/change.ts):
 *
 * 1. How big a rise must be to be called real. The paired test looks only at the questions whose
 *    outcome changed: c newly naming the business, b no longer naming it. So the smallest real
 *    rise depends on b, not on the share named before: for each b, the smallest c the test calls a
 *    real rise, found by asking changeVerdict itself, and what that net rise is in points of 20, 50
 *    and 100 questions.
 * 2. How many questions a rise needs to be called real 8 times in 10 (80% power). That depends on
 *    how answers move between runs, which we state as a model, not a measurement: the questions are
 *    independent; in the month of a rise of d (a share of the questions), a share s of them flips
 *    from named to not named by chance and a share s + d from not named to named; the rest keep
 *    their outcome. s = 0 is the most settled assistant (only the rise moves), and "drawn afresh"
 *    takes each run's answers as unrelated draws at their shares (s = p1 (1 - p2)), where the
 *    pairing gains nothing. The power is computed exactly (no simulation): the number of flipped
 *    questions is binomial, and so is the split of those between up and down.
 *
 * Run: npx tsx scripts/monitoring-power.ts
 */

const QUESTIONS = [20, 50, 100];
const AGAINST = [0, 1, 2, 3, 4, 5, 8, 10, 15, 20];
const LEVEL_POWER = 0.8;
/** Past this many questions a cell says "over N": no client is asked more than 100. */
const MOST_QUESTIONS = 2000;

/** The verdict of the test for b questions no longer naming the business and c newly naming it (the counts a person reads do not matter to it). */
const verdictOf = (lost: number, gained: number) => changeVerdict(sampleCount(0, 0), sampleCount(0, 0), { questions: lost + gained, namedBoth: 0, namedBeforeOnly: lost, namedNowOnly: gained }).verdict;

/** The smallest c that the test calls a real rise against b. */
function smallestRealRise(lost: number): number {
  let gained = lost + 1;
  while (verdictOf(lost, gained) !== 'rise') gained += 1;
  return gained;
}

const logFactorials: number[] = [0];
const logFactorial = (n: number): number => {
  for (let i = logFactorials.length; i <= n; i += 1) logFactorials[i] = (logFactorials[i - 1] ?? 0) + Math.log(i);
  return logFactorials[n] ?? 0;
};
const binomial = (k: number, n: number, p: number) =>
  p === 0 ? (k === 0 ? 1 : 0) : p === 1 ? (k === n ? 1 : 0) : Math.exp(logFactorial(n) - logFactorial(k) - logFactorial(n - k) + k * Math.log(p) + (n - k) * Math.log(1 - p));

/** For each count of flipped questions D up to MOST_QUESTIONS, the least c of them that is a real rise (D + 1: none). */
const leastRealRise: number[] = [];
for (let flipped = 0; flipped <= MOST_QUESTIONS; flipped += 1) {
  let gained = Math.ceil((flipped + 1) / 2);
  while (gained <= flipped && !(mcnemarPValue(flipped - gained, gained) < 0.05)) gained += 1;
  // The test is monotone in c for a fixed total: check the rule with the verdict itself at the edge.
  if (gained <= flipped && verdictOf(flipped - gained, gained) !== 'rise') throw new Error(`the verdict and the p-value disagree at ${flipped - gained}, ${gained}`);
  leastRealRise.push(gained);
}

/**
 * The chance, for each n up to MOST_QUESTIONS, that n questions, each flipping down with chance
 * `down` and up with chance `up` (independently), give a real rise: over the number D of flipped
 * questions (binomial in n), the chance that enough of them flipped up (binomial in D).
 */
function powers(down: number, up: number): number[] {
  const flip = down + up;
  const upward = flip === 0 ? 0 : up / flip;
  const realGivenFlipped = leastRealRise.map((least, flipped) => {
    let tail = 0;
    for (let gained = least; gained <= flipped; gained += 1) tail += binomial(gained, flipped, upward);
    return tail;
  });
  const result = [0];
  for (let n = 1; n <= MOST_QUESTIONS; n += 1) {
    let total = 0;
    for (let flipped = 0; flipped <= n; flipped += 1) total += binomial(flipped, n, flip) * (realGivenFlipped[flipped] ?? 0);
    result.push(total);
  }
  return result;
}

/** The fewest questions from which the power stays at 80% or more (an exact test's power goes up in steps, not smoothly); null: over MOST_QUESTIONS. */
function questionsNeeded(down: number, up: number): number | null {
  const byQuestions = powers(down, up);
  let lastShort = 0;
  for (let n = 1; n <= MOST_QUESTIONS; n += 1) if ((byQuestions[n] ?? 0) < LEVEL_POWER) lastShort = n;
  return lastShort === MOST_QUESTIONS ? null : lastShort + 1;
}

const lines: string[] = [
  '| questions no longer naming you (b) | fewest newly naming you for a real rise (c) | p | net rise | of 20 questions | of 50 | of 100 |',
  '|---:|---:|---:|---:|---:|---:|---:|',
];
for (const lost of AGAINST) {
  const gained = smallestRealRise(lost);
  const net = gained - lost;
  const points = QUESTIONS.map((n) => (lost + gained > n ? 'not possible' : `+${Math.round((net / n) * 100)} points`));
  lines.push(`| ${lost} | ${gained} | ${mcnemarPValue(lost, gained).toFixed(4)} | +${net} questions | ${points.join(' | ')} |`);
}

const SETTLED = [0, 0.05, 0.1, 0.15];
const RISES = [
  [0.2, 0.3],
  [0.2, 0.4],
  [0.2, 0.5],
  [0.3, 0.4],
  [0.3, 0.5],
  [0.5, 0.7],
] as const;
const cell = (needed: number | null) => (needed === null ? `over ${MOST_QUESTIONS}` : `${needed}`);
lines.push('', `| rise | ${SETTLED.map((share) => `s = ${Math.round(share * 100)}%`).join(' | ')} | drawn afresh |`, `|---|${SETTLED.map(() => '---:').join('|')}|---:|`);
for (const [from, to] of RISES) {
  const rise = to - from;
  const cells = SETTLED.map((share) => cell(questionsNeeded(share, share + rise)));
  const afresh = cell(questionsNeeded(from * (1 - to), to * (1 - from)));
  lines.push(`| ${Math.round(from * 100)}% → ${Math.round(to * 100)}% | ${cells.join(' | ')} | ${afresh} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);
