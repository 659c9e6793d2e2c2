import { performance } from 'node:perf_hooks';
import { MAX_ANSWER_CHARACTERS, MAX_SOURCES } from '../../server/visibility-probe/run-probe';
import { readAnswer, type CitedSource } from '../../server/visibility-probe/who-is-named';

/**
 * What reading one assistant's answer costs (who is named, where, and which domains): it runs on
 * the server's event loop, once an answer, so it must stay linear in the answer however the answer
 * is written. An answer is untrusted text (the web pages a search found are in it) and is kept to
 * MAX_ANSWER_CHARACTERS; each hostile shape below fills that cap, next to a friendly answer of the
 * same length (the baseline), measured in the same run.
 */

/** The most one answer may cost to read, on this machine: far below what `/` notices in its p99. */
const ANSWER_TARGET_MS = 25;
const RUNS = 20;

const cap = (text: string) => text.slice(0, MAX_ANSWER_CHARACTERS);
const business = { brand: 'Acme Payroll Ltd', domain: 'acmepayroll.co.uk' };

const friendly = cap(
  [
    'Here are some well-regarded payroll bureaus for small businesses in Leeds:',
    ...Array.from({ length: 8 }, (_, i) => `${i + 1}. **Firm ${i} Payroll Ltd** – a bureau with ${i + 3} years of experience, see firm${i}.co.uk.`),
    'It is worth asking each for a quote.',
  ]
    .join('\n')
    .repeat(20),
);

/** Shapes that make a careless reader do work in the square of the text (or worse). */
const hostile: Record<string, string> = {
  'a list item per line, each a new name': cap(Array.from({ length: 4000 }, (_, i) => `- B${i.toString(36)}`).join('\n')),
  'a bold name every few characters': cap(Array.from({ length: 4000 }, (_, i) => `**Q${i.toString(36)}**`).join(' ')),
  'one list item of trailing punctuation': `- ${';'.repeat(MAX_ANSWER_CHARACTERS - 3)}x`,
  'one dotted name without end': cap(`x ${'a.'.repeat(MAX_ANSWER_CHARACTERS)}`),
  'a domain every few characters': cap(Array.from({ length: 2000 }, (_, i) => `d${i}.co.uk`).join(' ')),
  'web addresses without end': cap(Array.from({ length: 400 }, (_, i) => `https://${'w.'.repeat(5)}site${i}.com/${'p/'.repeat(4)}`).join(' ')),
  'the brand half-written again and again': cap('Acme Payroll L '.repeat(MAX_ANSWER_CHARACTERS)),
  'one unclosed link and bold': cap(`- [${'x'.repeat(MAX_ANSWER_CHARACTERS / 2)}**${'y'.repeat(MAX_ANSWER_CHARACTERS / 2)}`),
};

const sources: CitedSource[] = Array.from({ length: MAX_SOURCES }, (_, i) => ({ url: `https://source${i}.example.com/${'a'.repeat(100)}`, title: `${'b.'.repeat(60)}com` }));

/** The least time of RUNS readings (noise only ever slows a run down), in milliseconds. */
function leastMs(text: string): number {
  readAnswer(text, sources, business);
  let least = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    readAnswer(text, sources, business);
    least = Math.min(least, performance.now() - started);
  }
  return least;
}

/** Prints a line for each shape; false when one costs more than ANSWER_TARGET_MS. */
export function measureHostileAnswers(): boolean {
  const baseline = leastMs(friendly);
  console.log(`\nReading one assistant's answer (${MAX_ANSWER_CHARACTERS} characters, ${MAX_SOURCES} sources), least of ${RUNS} runs; must stay under ${ANSWER_TARGET_MS} ms`);
  console.log(`  a friendly answer (the baseline)           ${baseline.toFixed(2).padStart(7)} ms`);
  let holds = true;
  for (const [shape, text] of Object.entries(hostile)) {
    const ms = leastMs(text);
    if (ms >= ANSWER_TARGET_MS) holds = false;
    console.log(`  ${shape.padEnd(42)} ${ms.toFixed(2).padStart(7)} ms  ${(ms / baseline).toFixed(1).padStart(5)}x${ms >= ANSWER_TARGET_MS ? '  OVER TARGET' : ''}`);
  }
  if (!holds) console.error(`An answer took more than ${ANSWER_TARGET_MS} ms to read`);
  return holds;
}
