import { useId } from 'react';
import { Link } from '../../routing/links';
import styled from 'styled-components';
import type { ArticleSummary } from '../../../shared/content-schema';
import { color, radius, shadow, space, text } from '../../theme/theme';
import { CategoryBadge, ReadTime } from './article-meta';
import { Container, Section, SectionHeading } from '../ui/layout-primitives';

const Cards = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 16rem), 1fr));
  gap: ${space.lg};
  margin: ${space.xl} 0 0;
  padding: 0;
  list-style: none;
`;

const Card = styled.li`
  position: relative;
  display: flex;
  flex-direction: column;
  padding: ${space.lg};
  border: 1px solid ${color.border};
  border-radius: ${radius.lg};
  background: ${color.surface};
  box-shadow: ${shadow.card};
  transition: box-shadow 150ms ease;
  &:hover { box-shadow: ${shadow.raised}; }
`;

const Title = styled.h3`
  font-size: ${text.lg};
  a {
    color: ${color.ink};
    text-decoration: none;
    /* The whole card is the link's hit area; the link's own text stays its accessible name. */
    &::after { content: ''; position: absolute; inset: 0; border-radius: ${radius.lg}; }
    &:hover { color: ${color.primary}; }
    &:focus-visible { outline: none; }
    &:focus-visible::after { outline: 3px solid ${color.focus}; outline-offset: 2px; }
  }
`;

const Excerpt = styled.p`
  flex: 1;
  color: ${color.inkMuted};
  font-size: ${text.sm};
`;

/** The front matter's related articles as cards (the build resolves the slugs). */
export function RelatedReading({ related }: { related: ArticleSummary[] }) {
  const headingId = useId();
  if (related.length === 0) return null;

  return (
    <Section $tone="alt" aria-labelledby={headingId}>
      <Container>
        <SectionHeading id={headingId}>Related reading</SectionHeading>
        <Cards>
          {related.map((article) => (
            <Card key={article.slug}>
              <CategoryBadge>{article.category}</CategoryBadge>
              <Title>
                <Link to={article.path}>{article.title}</Link>
              </Title>
              <Excerpt>{article.excerpt}</Excerpt>
              <ReadTime minutes={article.readMinutes} compact />
            </Card>
          ))}
        </Cards>
      </Container>
    </Section>
  );
}
