import { JUDGED_ANSWERS_PER_ASSISTANT } from '../answer-check/judge-sample';
import type { Config } from '../config';

/**
 * The day's calls (PROBE_DAILY_CALLS, a UTC day, shared by the leads' probes, `npm run probe` and
 * every run) as a run is weighed against them: by the worker before a run starts, and by the
 * commands before they queue one. One rule, written once: a run starts only when what it still
 * needs fits in what is left today; a run that needs more than a whole day holds is refused when
 * it is asked for, never postponed for ever.
 */

export interface DayBudget {
  used: number;
  left: number;
  /** Whether `calls` fit in what is left today (exactly what is left fits). */
  holds(calls: number): boolean;
  /** Whether `calls` would fit in a whole day. */
  everHolds(calls: number): boolean;
  /** "Today (UTC) 40 of PROBE_DAILY_CALLS=300 are used, 260 left." */
  line: string;
}

export function dayBudget(used: number, dailyCalls: number): DayBudget {
  const left = Math.max(0, dailyCalls - used);
  return {
    used,
    left,
    holds: (calls) => calls <= left,
    everHolds: (calls) => calls <= dailyCalls,
    line: `Today (UTC) ${used} of PROBE_DAILY_CALLS=${dailyCalls} are used, ${left} left.`,
  };
}

/** Why a run is refused when it is asked for, in one line; null when a day can hold it. */
export function neverFits(calls: number, dailyCalls: number, fewer: string): string | null {
  if (calls <= dailyCalls) return null;
  return `Not queued: it needs ${calls} calls, more than a whole day allows (PROBE_DAILY_CALLS=${dailyCalls}), so it could never run. ${fewer}, or set a higher PROBE_DAILY_CALLS.`;
}

/** What a full run's calls depend on besides its questions: the assistants asked and the direct questions each is asked. */
export interface RunShape {
  assistants: number;
  /** AUDIT_FACT_PROMPTS */
  aboutPrompts: number;
  /** Whether a judge reads the answers (JUDGE_PROVIDER is not "none"). */
  judged: boolean;
}

/** The shape of every full run the configuration makes: its assistants (one at least, for the commands' sums before any is set), AUDIT_FACT_PROMPTS and its judge. */
export function runShape(config: Pick<Config, 'judge'> & { probe: Pick<Config['probe'], 'assistants'>; audit: Pick<Config['audit'], 'factPrompts'> }): RunShape {
  return { assistants: Math.max(1, config.probe.assistants.length), aboutPrompts: config.audit.factPrompts, judged: config.judge !== null };
}

/**
 * The calls one full run makes at most: each of its questions and each direct question about the
 * business to each assistant, and the judge's reading of up to JUDGED_ANSWERS_PER_ASSISTANT of
 * each one's answers (every judgement is one call, counted like a question).
 */
export function runCalls(prompts: number, shape: RunShape): number {
  const questions = prompts + shape.aboutPrompts;
  return (questions + judgedPerAssistant(prompts, shape)) * shape.assistants;
}

/** The answers of each assistant a run's judge reads, at most. */
function judgedPerAssistant(prompts: number, shape: RunShape): number {
  return shape.judged ? Math.min(JUDGED_ANSWERS_PER_ASSISTANT, prompts + shape.aboutPrompts) : 0;
}

/**
 * A run's calls as the commands print them before queuing it: "5 questions and 3 about the
 * business to each of ChatGPT, Claude, and the judge's reading of up to 8 answers of each = 64 calls".
 */
export function runCallsLine(prompts: number, shape: RunShape, labels: readonly string[]): string {
  const about = shape.aboutPrompts > 0 ? ` and ${shape.aboutPrompts} about the business` : '';
  const judged = judgedPerAssistant(prompts, shape);
  const judge = judged > 0 ? `, and the judge's reading of up to ${judged} answers of each` : '';
  return `${prompts} questions${about} to each of ${labels.join(', ')}${judge} = ${runCalls(prompts, shape)} calls`;
}

/** The first instant of the UTC day after `now`: when the day's calls start again. */
export function nextUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}
