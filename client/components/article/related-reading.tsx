import { useId } from 'react';
import { Link } from '../../routing/links';
import styled from 'styled-components';
import type { ArticleSummary } from '../../../shared/content-schema';
import { color, radius, shadow, space, text } from '../../theme/theme';
import { Icon } from '../ui/icon';
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

// The same category pill as the blog's cards, so an article reads as one family with the index.
const Category = styled.p`
  align-self: flex-start;
  margin-bottom: ${space.sm};
  padding: 0.2rem 0.7rem;
  border-radius: ${radius.pill};
  background: ${color.primarySoft};
  color: ${color.primaryHover};
  font-size: ${text.xs};
  font-weight: 700;
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

const ReadTime = styled.p`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  margin: 0;
  color: ${color.inkMuted};
  font-size: ${text.xs};
  font-weight: 600;
  svg { width: 1rem; height: 1rem; }
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
              <Category><span className="visually-hidden">Category: </span>{article.category}</Category>
              <Title>
                <Link to={article.path}>{article.title}</Link>
              </Title>
              <Excerpt>{article.excerpt}</Excerpt>
              <ReadTime>
                <Icon name="clock" />
                {article.readMinutes} min read
              </ReadTime>
            </Card>
          ))}
        </Cards>
      </Container>
    </Section>
  );
}
