import type { FetchedText } from './fetched-text';

/**
 * /llms.txt as llmstxt.org proposes it: Markdown whose first content is an H1 with the site's
 * name, then a blockquote summary, then H2 sections listing links (`- [name](url): note`).
 */
export interface LlmsTxtAnalysis {
  present: boolean;
  /** Present, with an H1 first, a summary and at least one section of links. */
  wellFormed: boolean;
  /** One line: what was found, or what is missing. */
  detail: string;
}

export type LlmsTxtSource = FetchedText | { unreachable: string };

/**
 * How much of a line the Markdown patterns read: a title, a summary or a list item's link shows in
 * its first characters, and a pattern run over a line of megabytes can exhaust the regular-expression
 * engine's backtracking stack.
 */
const LINE_READ = 4096;

export function analyseLlmsTxt(source: LlmsTxtSource): LlmsTxtAnalysis {
  if ('unreachable' in source) return { present: false, wellFormed: false, detail: `llms.txt could not be fetched (${source.unreachable})` };
  if (source.status === 404 || source.status === 410) return { present: false, wellFormed: false, detail: 'no llms.txt (it answered 404)' };
  if (source.status < 200 || source.status >= 300) return { present: false, wellFormed: false, detail: `llms.txt answered ${source.status}` };
  // A site that answers every path with its home page "has" an llms.txt that is HTML.
  if (source.contentType.includes('html') || /^\s*<(!doctype|html)/i.test(source.text.slice(0, 1024))) {
    return { present: false, wellFormed: false, detail: 'llms.txt answers with an HTML page, not a Markdown file' };
  }
  const lines = source.text.split(/\r\n|\r|\n/).map((line) => line.slice(0, LINE_READ).trimEnd());
  const firstContent = lines.find((line) => line.trim() !== '') ?? '';
  const hasTitle = /^# \S/.test(firstContent);
  const hasSummary = lines.some((line) => /^>\s*\S/.test(line));
  // A section is an H2 followed by at least one Markdown link in a list item.
  let sections = 0;
  let inSection = false;
  let counted = false;
  for (const line of lines) {
    if (/^## \S/.test(line)) {
      inSection = true;
      counted = false;
    } else if (inSection && !counted && /^\s*[-*+]\s+\[[^\]]+\]\([^)\s]+\)/.test(line)) {
      sections += 1;
      counted = true;
    }
  }
  const missing = [!hasTitle && 'an H1 title first', !hasSummary && 'a > summary', sections === 0 && 'an H2 section of links'].filter((item): item is string => Boolean(item));
  if (missing.length > 0) return { present: true, wellFormed: false, detail: `llms.txt is present but lacks ${missing.join(', ')}` };
  return { present: true, wellFormed: true, detail: `llms.txt is present and well formed (${sections} section${sections === 1 ? '' : 's'} of links)` };
}
