import styled from 'styled-components';
import type { ArticleSummary } from '../../../shared/content-schema';
import { routesPaths, site } from '../../../shared/site';
import { color, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { IllustrativeNote } from '../ui/illustrative-note';
import { Eyebrow, plainList } from '../ui/layout-primitives';
import { ArticleColumn } from './article-column';
import { formatContentDate } from '../../../shared/content-date';

const Band = styled.header`
  padding-block: ${space.xl} ${space.xxl};
  border-bottom: 1px solid ${color.border};
  background: ${color.surfaceAlt};
`;

const Back = styled.div`
  margin: 0 0 ${space.lg} -0.875rem;
`;

const Title = styled.h1`
  margin-bottom: ${space.md};
  font-size: clamp(2rem, 1.5rem + 2.2vw, 3rem);
  line-height: 1.15;
`;

const Standfirst = styled.p`
  max-width: 70ch;
  margin-bottom: ${space.lg};
  color: ${color.inkMuted};
  font-size: ${text.lg};
  line-height: 1.6;
`;

const Illustrative = styled(IllustrativeNote)`
  margin-bottom: ${space.lg};
`;

const Meta = styled.ul`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${space.sm} ${space.md};
  ${plainList}
  color: ${color.inkMuted};
  font-size: ${text.sm};

  li { display: inline-flex; align-items: center; gap: 0.375rem; }
  svg { width: 1rem; height: 1rem; flex-shrink: 0; }
  strong { color: ${color.ink}; font-weight: 600; }
`;

/** Back link, category, title, standfirst and the byline. */
export function ArticleHeader({ summary }: { summary: ArticleSummary }) {
  const updated = summary.updated !== summary.published;
  return (
    <Band>
      <ArticleColumn>
        <Back>
          <Button to={routesPaths.blog} variant="ghost" size="sm">
            <Icon name="arrow-left" />
            Back to Blog
          </Button>
        </Back>
        <Eyebrow>{summary.category}</Eyebrow>
        <Title>{summary.title}</Title>
        <Standfirst>{summary.standfirst}</Standfirst>
        {summary.illustrative && <Illustrative of="caseStudy" />}
        <Meta>
          <li>
            <Icon name="users" />
            <strong>{site.brand} Team</strong>
          </li>
          <li>
            <Icon name="clock" />
            {summary.readMinutes} min read
          </li>
          <li>
            Published <time dateTime={summary.published}>{formatContentDate(summary.published)}</time>
          </li>
          {updated && (
            <li>
              Updated <time dateTime={summary.updated}>{formatContentDate(summary.updated)}</time>
            </li>
          )}
        </Meta>
      </ArticleColumn>
    </Band>
  );
}
