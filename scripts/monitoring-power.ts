import { changeVerdict } from '../server/reports/monitor/change';
import { sampleCount } from '../server/reports/audit/audit-figures';

/**
 * The tables of docs/monitoring.md, computed from the change test itself: how big a rise must be
 * to be called real for 20, 50 and 100 questions, and how many questions a rise of a given size
 * needs to be called real 8 times in 10. Run: npx tsx scripts/monitoring-power.ts
 */

const QUESTIONS = [20, 50, 100];
const STARTS = [0.1, 0.2, 0.3, 0.5];

/** The smallest count out of n, above `from` of n, that the change test calls a real rise; null: none. */
function smallestRealRise(from: number, n: number): number | null {
  for (let count = from + 1; count <= n; count += 1) if (changeVerdict(sampleCount(from, n), sampleCount(count, n)).verdict === 'rise') return count;
  return null;
}

/** z at the two-sided 5% level and at 80% power (the standard normal's 97.5th and 80th percentiles). */
const Z_LEVEL = 1.959964;
const Z_POWER = 0.841621;

/**
 * Questions per run for a rise from p1 to p2 to be called real with 80% power at the 5% level
 * (two-sided), by the usual sample-size formula for two proportions:
 * n = (z_a sqrt(2 p q) + z_b sqrt(p1 q1 + p2 q2))^2 / (p2 - p1)^2, p the mean of p1 and p2.
 */
function questionsNeeded(p1: number, p2: number): number {
  const p = (p1 + p2) / 2;
  const root = Z_LEVEL * Math.sqrt(2 * p * (1 - p)) + Z_POWER * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((root * root) / ((p2 - p1) * (p2 - p1)));
}

const lines: string[] = ['| named before | ' + QUESTIONS.map((n) => `${n} questions`).join(' | ') + ' |', '|---|' + QUESTIONS.map(() => '---:').join('|') + '|'];
for (const start of STARTS) {
  const cells = QUESTIONS.map((n) => {
    const from = Math.round(start * n);
    const to = smallestRealRise(from, n);
    return to === null ? 'none' : `${from} → ${to} of ${n} (+${Math.round(((to - from) / n) * 100)} points)`;
  });
  lines.push(`| ${Math.round(start * 100)}% | ${cells.join(' | ')} |`);
}
lines.push('', '| rise | questions per run |', '|---|---:|');
for (const [p1, p2] of [
  [0.2, 0.3],
  [0.2, 0.4],
  [0.2, 0.5],
  [0.3, 0.4],
  [0.3, 0.5],
  [0.5, 0.7],
] as const) {
  lines.push(`| ${p1 * 100}% → ${p2 * 100}% | ${questionsNeeded(p1, p2)} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);
