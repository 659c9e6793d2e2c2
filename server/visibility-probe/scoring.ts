import type { AnswerReading } from './who-is-named';

/**
 * The visibility score out of 100: the one place its weights are written. Each line is a share
 * between 0 and 1 of one assistant's answers, worth its weight in points; they add up to 100. A
 * business named first in every answer, citing its own site each time, and the only business
 * named, scores 100.
 */
export const VISIBILITY_WEIGHTS = {
  /** Share of the answers that name the business. */
  named: 50,
  /** Where it is named: 1 for first, 1/2 for second, 1/3 for third..., 0 when not named in the text; averaged over all answers. */
  position: 20,
  /** Share of the answers that cite a page of the business's own site. */
  cited: 15,
  /** Share of voice: its share of all the business names in the answers (each business counted once an answer). */
  shareOfVoice: 15,
} as const;

export interface AssistantFigures {
  /** Answers received (calls that failed are not in the figures). */
  answered: number;
  named: number;
  cited: number;
  /** named / answered; null with no answer. */
  visibilityRate: number | null;
  /**
   * Where the rate would likely fall over many runs: the 95% Wilson interval of named out of
   * answered, since answers vary from run to run.
   */
  visibilityRange: [number, number] | null;
  citationRate: number | null;
  /** Mean position in the answers whose text names it; null when none does. */
  averagePosition: number | null;
  shareOfVoice: number | null;
  score: number | null;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The 95% Wilson score interval of k successes in n tries, which stays sensible at 0 of 10 and 10 of 10. */
export function wilsonInterval(successes: number, tries: number): [number, number] {
  const z = 1.96;
  const share = successes / tries;
  const denominator = 1 + (z * z) / tries;
  const centre = (share + (z * z) / (2 * tries)) / denominator;
  const half = (z * Math.sqrt((share * (1 - share)) / tries + (z * z) / (4 * tries * tries))) / denominator;
  return [round(Math.max(0, centre - half), 3), round(Math.min(1, centre + half), 3)];
}

/** One assistant's figures and score from its answers' readings. */
export function scoreAssistant(readings: readonly AnswerReading[]): AssistantFigures {
  const answered = readings.length;
  const named = readings.filter((reading) => reading.named).length;
  const cited = readings.filter((reading) => reading.citesOwnSite).length;
  if (answered === 0) {
    return { answered, named, cited, visibilityRate: null, visibilityRange: null, citationRate: null, averagePosition: null, shareOfVoice: null, score: null };
  }
  const positions = readings.flatMap((reading) => (reading.position === null ? [] : [reading.position]));
  const mentions = named + readings.reduce((sum, reading) => sum + reading.others.length, 0);
  const visibilityRate = named / answered;
  const positionShare = positions.reduce((sum, position) => sum + 1 / position, 0) / answered;
  const citationRate = cited / answered;
  const shareOfVoice = mentions === 0 ? 0 : named / mentions;
  const score =
    VISIBILITY_WEIGHTS.named * visibilityRate +
    VISIBILITY_WEIGHTS.position * positionShare +
    VISIBILITY_WEIGHTS.cited * citationRate +
    VISIBILITY_WEIGHTS.shareOfVoice * shareOfVoice;
  return {
    answered,
    named,
    cited,
    visibilityRate: round(visibilityRate, 3),
    visibilityRange: wilsonInterval(named, answered),
    citationRate: round(citationRate, 3),
    averagePosition: positions.length === 0 ? null : round(positions.reduce((sum, position) => sum + position, 0) / positions.length, 1),
    shareOfVoice: round(shareOfVoice, 3),
    score: Math.round(score),
  };
}

/** The probe's score: the mean of the assistants' scores, each assistant that answered counting the same. */
export function overallScore(scores: readonly (number | null)[]): number | null {
  const counted = scores.filter((score): score is number => score !== null);
  return counted.length === 0 ? null : Math.round(counted.reduce((sum, score) => sum + score, 0) / counted.length);
}
