import { useId } from 'react';
import styled from 'styled-components';
import type { ArticleSegment } from '../../../shared/content-schema';
import { text } from '../../theme/theme';
import { Accordion } from '../ui/accordion';
import { useInternalLinkNavigation } from '../../routing/links';

export type FaqItem = Extract<ArticleSegment, { kind: 'faq' }>['items'][number];

const Heading = styled.h2`
  font-size: clamp(1.5rem, 1.25rem + 1vw, 2rem);
`;

const Answer = styled.div`
  font-size: ${text.base};
  line-height: 1.7;
  ul, ol { padding-left: 1.5rem; }
`;

/** A `:::faq` block; the page publishes the same questions as FAQPage structured data. */
export function ArticleFaq({ items }: { items: FaqItem[] }) {
  const headingId = useId();
  const onLinkClick = useInternalLinkNavigation();
  return (
    <section aria-labelledby={headingId}>
      <Heading id={headingId}>Frequently asked questions</Heading>
      <Accordion
        items={items.map((item) => ({
          question: item.question,
          answer: <Answer onClick={onLinkClick} dangerouslySetInnerHTML={{ __html: item.answerHtml }} />,
        }))}
      />
    </section>
  );
}
