/** Words a minute used for read times: the middle of the 200-230 most style guides quote. */
const WORDS_PER_MINUTE = 220;

/**
 * Counts the words a reader reads in a Markdown body: block markers and Markdown punctuation are
 * not words; a token counts when it holds a letter or a digit. scripts/count-words.mjs repeats
 * this for copywriters, who run it without a build.
 */
export function countWords(markdown: string): number {
  return markdown
    .replace(/^:::.*$/gm, ' ')
    .replace(/[#>*_`|\-[\]()]/g, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
