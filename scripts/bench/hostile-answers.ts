import { performance } from 'node:perf_hooks';
import { checkFacts } from '../../server/answer-check/fact-check';
import type { BusinessFacts } from '../../server/business/business-facts';
import { MAX_ANSWER_CHARACTERS } from '../../server/visibility-probe/call-limits';
import { MAX_SOURCES } from '../../server/visibility-probe/run-probe';
import { readAnswer, type CitedSource } from '../../server/visibility-probe/who-is-named';

/**
 * What reading one assistant's answer costs (who is named, where, and which domains), and checking
 * the contact facts it gives against the business's site: each runs once an answer (the reading
 * also when a `--brand` correction counts a run again), so each must stay linear in the answer
 * however the answer is written. An answer is untrusted text (the web pages a search found are in
 * it) and is kept to MAX_ANSWER_CHARACTERS; each hostile shape below fills that cap, next to a
 * friendly answer of the same length (the baseline), measured in the same run.
 */

/** The most one answer may cost to read, on this machine: far below what `/` notices in its p99. */
const ANSWER_TARGET_MS = 25;
/**
 * The most checking one answer's facts may cost, on this machine: it runs in a run's own process
 * at idle priority, where a run of 200 answers about the business is composed in seconds.
 */
const FACTS_TARGET_MS = 100;
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

/** Shapes aimed at the facts check: numbers, e-mail addresses, postcodes and closures without end. */
const hostileFacts: Record<string, string> = {
  'digits and spaces without end': cap('0113 496 '.repeat(MAX_ANSWER_CHARACTERS)),
  'one run of zeros': '0'.repeat(MAX_ANSWER_CHARACTERS),
  'numbers with brackets and pluses': cap('+44 (0)113 (496) '.repeat(MAX_ANSWER_CHARACTERS)),
  'an "@" every other character': cap('a@'.repeat(MAX_ANSWER_CHARACTERS)),
  'postcodes without end': cap('LS1 4AP LS14AP '.repeat(MAX_ANSWER_CHARACTERS)),
  'the business said closed again and again': cap('Acme Payroll Ltd has permanently closed. '.repeat(MAX_ANSWER_CHARACTERS)),
  'the business and a rival in every sentence': cap('**Acme Payroll Ltd** (0113 496 0000) and **Rival Ltd** (0113 496 0999), see rival.co.uk. '.repeat(MAX_ANSWER_CHARACTERS)),
};

const site = (value: string) => ({ value, source: { page: 'home page' as const, from: 'structured data' as const } });
const facts: BusinessFacts = {
  phones: [site('+44 113 496 0001')],
  emails: [site('hello@acmepayroll.co.uk')],
  addresses: [site('1 Park Row, Leeds LS1 5HD')],
  postcodes: [site('LS1 5HD')],
  towns: [site('Leeds')],
  openingHours: [],
  services: [site('Payroll')],
  contactPage: null,
  text: 'Acme Payroll Ltd: payroll for small firms in Leeds.',
};

const sources: CitedSource[] = Array.from({ length: MAX_SOURCES }, (_, i) => ({ url: `https://source${i}.example.com/${'a'.repeat(100)}`, title: `${'b.'.repeat(60)}com` }));

/** The least time of RUNS calls of `work` on `text` (noise only ever slows a run down), in milliseconds. */
function leastMs(work: (text: string) => unknown, text: string): number {
  work(text);
  let least = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    work(text);
    least = Math.min(least, performance.now() - started);
  }
  return least;
}

/** Prints a line for each shape of one kind of work; false when one costs `targetMs` or more. */
function measure(title: string, work: (text: string) => unknown, shapes: Record<string, string>, targetMs: number): boolean {
  const baseline = leastMs(work, friendly);
  console.log(`\n${title} (${MAX_ANSWER_CHARACTERS} characters, ${MAX_SOURCES} sources), least of ${RUNS} runs; must stay under ${targetMs} ms`);
  console.log(`  a friendly answer (the baseline)           ${baseline.toFixed(2).padStart(7)} ms`);
  let holds = true;
  for (const [shape, text] of Object.entries(shapes)) {
    const ms = leastMs(work, text);
    if (ms >= targetMs) holds = false;
    console.log(`  ${shape.padEnd(42)} ${ms.toFixed(2).padStart(7)} ms  ${(ms / baseline).toFixed(1).padStart(5)}x${ms >= targetMs ? '  OVER TARGET' : ''}`);
  }
  if (!holds) console.error(`${title}: an answer took ${targetMs} ms or more`);
  return holds;
}

/** Reading who an answer names, and checking the facts it gives, on every hostile shape; false when one is over its target. */
export function measureHostileAnswers(): boolean {
  const reading = measure("Reading one assistant's answer", (text) => readAnswer(text, sources, business), hostile, ANSWER_TARGET_MS);
  const checking = measure("Checking the facts one answer gives", (text) => checkFacts({ text, sources }, { ...business, facts }, { aboutTheBusiness: true }), { ...hostile, ...hostileFacts }, FACTS_TARGET_MS);
  return reading && checking;
}
