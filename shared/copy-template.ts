/**
 * Page copy that holds a value known only when the page is rendered ("Named you in {named} of
 * {answered} answers"): the copywriter places the value in the sentence, the page fills it in.
 * The content schema checks at build time that a sentence holds exactly the placeholders its page
 * fills, so a page never shows a brace.
 */

/** The {name}s a sentence holds, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{([a-zA-Z]+)\}/g)].map((match) => match[1] ?? '');
}

/** The sentence with each {name} replaced by its value, as text (React escapes it where shown). */
export function fillCopy<Name extends string>(template: string, values: Record<Name, string | number>): string {
  return template.replace(/\{([a-zA-Z]+)\}/g, (whole, name: string) => (Object.prototype.hasOwnProperty.call(values, name) ? String(values[name as Name]) : whole));
}

/** "ChatGPT", "ChatGPT and Claude", "ChatGPT, Claude and Gemini". */
export function listOfNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
