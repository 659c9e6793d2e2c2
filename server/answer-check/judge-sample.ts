/**
 * Which answers of one assistant the judge reads in a run: a sample, said as such wherever its
 * verdicts are shown. Plain data in, indexes out: the run's process and the run's budget both use
 * it, and neither loads a client library through it.
 */

/**
 * The answers of each assistant the judge reads in one run, at most: its answers to the direct
 * questions about the business first, then those of the others that name the business, in the
 * order they were asked. It keeps a run of 50 questions to four assistants inside a default day.
 */
export const JUDGED_ANSWERS_PER_ASSISTANT = 8;

/** What the sample is chosen by, of each answer. */
interface Judgeable {
  /** The answer's text; null when it failed. */
  text: string | null;
  error: string | null;
  named: boolean;
}

/**
 * The places of the answers to judge, as [list, index]: 'about' for the direct questions' answers
 * (each is about the business, named or not), 'asked' for the others that name it.
 */
export function answersToJudge(about: readonly (Judgeable | undefined)[], asked: readonly (Judgeable | undefined)[]): { list: 'about' | 'asked'; index: number }[] {
  const answered = (answer: Judgeable | undefined): answer is Judgeable => answer !== undefined && answer.error === null && answer.text !== null && answer.text.trim() !== '';
  const chosen: { list: 'about' | 'asked'; index: number }[] = [];
  about.forEach((answer, index) => {
    if (answered(answer)) chosen.push({ list: 'about', index });
  });
  asked.forEach((answer, index) => {
    if (answered(answer) && answer.named) chosen.push({ list: 'asked', index });
  });
  return chosen.slice(0, JUDGED_ANSWERS_PER_ASSISTANT);
}
