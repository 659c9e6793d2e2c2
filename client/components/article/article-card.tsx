import { Link } from '../../routing/links';
import styled, { css } from 'styled-components';
import type { ArticleSummary } from '../../../shared/content-schema';
import { color, mediaUp, radius, shadow, space, text } from '../../theme/theme';
import { Icon, type AnyIconName } from '../ui/icon';
import { CategoryBadge, ReadTime } from './article-meta';

/*
 * One drawn panel per card and the same document icon on all sixteen made the grid look like
 * placeholders; an icon per category gives the eye something to scan by.
 */
const categoryIcons: Record<string, AnyIconName> = {
  'Case Study': 'trending',
  'Comparison Guide': 'layers',
  'Content Strategy': 'file',
  Fundamentals: 'bot',
  'Industry Insights': 'globe',
  Methodology: 'target',
  'Platform Guide': 'search',
  'Practical Guide': 'message',
  'Strategy Guide': 'users',
  'Technical Guide': 'zap',
};

const Card = styled.article<{ $featured: boolean }>`
  display: flex;
  flex-direction: column;
  height: 100%;
  overflow: hidden;
  background: ${color.surface};
  border: 1px solid ${color.border};
  border-radius: ${radius.lg};
  box-shadow: ${shadow.card};
  transition: box-shadow 150ms ease;
  &:hover { box-shadow: ${shadow.raised}; }
  ${(p) =>
    p.$featured &&
    css`
      ${mediaUp('lg')} { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); }
    `}
`;

/* A drawn panel stands in for a cover image: no request, and its size is fixed, so no layout shift. */
const Art = styled.div<{ $featured: boolean }>`
  display: grid;
  place-items: center;
  height: ${(p) => (p.$featured ? '12rem' : '8rem')};
  background: linear-gradient(135deg, ${color.primary}, ${color.accent});
  color: ${color.onDark};
  svg { width: ${(p) => (p.$featured ? '4rem' : '2.75rem')}; height: ${(p) => (p.$featured ? '4rem' : '2.75rem')}; opacity: 0.9; }
  ${(p) => p.$featured && css`${mediaUp('lg')} { height: auto; min-height: 18rem; }`}
`;

const Body = styled.div<{ $featured: boolean }>`
  display: flex;
  flex: 1;
  flex-direction: column;
  align-items: flex-start;
  padding: ${space.lg};
  ${(p) =>
    p.$featured &&
    css`
      ${mediaUp('sm')} { padding: ${space.xl}; }
      ${mediaUp('lg')} { padding: ${space.xxl}; justify-content: center; }
    `}
`;

const Title = styled.h3<{ $featured: boolean }>`
  font-size: ${(p) => (p.$featured ? text.h2 : text.xl)};
  margin-bottom: ${space.sm};
  a { color: ${color.ink}; text-decoration: none; }
  a:hover { color: ${color.primary}; text-decoration: underline; }
`;

const Excerpt = styled.p`
  color: ${color.inkMuted};
`;

const Footer = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${space.sm} ${space.md};
  width: 100%;
  margin-top: auto;
  padding-top: ${space.sm};
`;

const ReadMore = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  min-height: 2.75rem;
  font-weight: 700;
  font-size: ${text.sm};
  svg { width: 1rem; height: 1rem; }
`;

/** A blog card; `featured` is the large one at the top of the blog. */
export function ArticleCard({ article, featured = false }: { article: ArticleSummary; featured?: boolean }) {
  return (
    <Card $featured={featured}>
      <Art $featured={featured} aria-hidden="true">
        <Icon name={featured ? 'star' : (categoryIcons[article.category] ?? 'file')} />
      </Art>
      <Body $featured={featured}>
        <CategoryBadge>{article.category}</CategoryBadge>
        <Title $featured={featured}>
          <Link to={article.path}>{article.title}</Link>
        </Title>
        <Excerpt>{article.excerpt}</Excerpt>
        <Footer>
          <ReadTime minutes={article.readMinutes} />
          <ReadMore to={article.path}>
            Read More<span className="visually-hidden">: {article.title}</span>
            <Icon name="arrow-right" />
          </ReadMore>
        </Footer>
      </Body>
    </Card>
  );
}
