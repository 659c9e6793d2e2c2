import { parse } from 'node-html-parser';
import type { ArticleSegment } from '../../shared/content-schema';

/** The ids of the headings in build-made HTML, in reading order. */
export const headingIds = (html: string) => parse(html).querySelectorAll('h1, h2, h3, h4, h5, h6').map((heading) => heading.getAttribute('id') ?? '');

/** Every heading id of a compiled article: its prose and its FAQ answers, in reading order. */
export function articleHeadingIds(segments: ArticleSegment[]): string[] {
  return segments.flatMap((segment) => {
    if (segment.kind === 'html') return headingIds(segment.html);
    if (segment.kind === 'faq') return segment.items.flatMap((item) => headingIds(item.answerHtml));
    return [];
  });
}
