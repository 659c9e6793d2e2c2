import styled from 'styled-components';
import type { ArticleSegment } from '../../../shared/content-schema';
import { space } from '../../theme/theme';
import { ArticleChecklist } from './article-checklist';
import { ArticleFaq } from './article-faq';
import { ArticleProse } from './article-prose';
import { ArticleStats } from './article-stats';
import { CopySample } from './copy-sample';

const Flow = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${space.xl};
  > * { min-width: 0; }
`;

/** The article body, segment by segment, in the order the Markdown gives them. */
export function ArticleSegments({ segments }: { segments: ArticleSegment<string | null>[] }) {
  return (
    <Flow>
      {segments.map((segment, index) => {
        // Segments never reorder, so their position is a stable key.
        const key = `${index}-${segment.kind}`;
        switch (segment.kind) {
          case 'html':
            return <ArticleProse key={key} html={segment.html} index={index} />;
          case 'copy':
            return <CopySample key={key} sampleKey={key} id={segment.id} text={segment.text} />;
          case 'checklist':
            return <ArticleChecklist key={key} items={segment.items} />;
          case 'faq':
            return <ArticleFaq key={key} items={segment.items} />;
          case 'stats':
            return <ArticleStats key={key} items={segment.items} />;
        }
      })}
    </Flow>
  );
}
