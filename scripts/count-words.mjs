#!/usr/bin/env node
// Prints the word count and read time of an article body, counted the way the build counts
// (shared/reading-time.ts): front matter excluded, Markdown punctuation ignored.
import { readFileSync } from 'node:fs';

const WORDS_PER_MINUTE = 220;
for (const file of process.argv.slice(2)) {
  const source = readFileSync(file, 'utf8');
  const body = source.replace(/^---\n[\s\S]*?\n---\n/, '');
  const words = body
    .replace(/^:::.*$/gm, ' ')
    .replace(/[#>*_`|\-[\]()]/g, ' ')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  console.log(`${file}: ${words} words, ${Math.max(1, Math.round(words / WORDS_PER_MINUTE))} min`);
}
