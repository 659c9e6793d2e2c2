import styled from 'styled-components';
import { articles } from '../../shared/generated/articles';
import { blog } from '../../shared/generated/pages/blog';
import { routesPaths } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { ArticleCard } from '../components/article/article-card';
import { PageIntro } from '../components/layout/page-intro';
import { Container, plainList, Section, SectionHeading } from '../components/ui/layout-primitives';
import { breadcrumbJsonLd } from '../../shared/json-ld';
import { PageHead } from '../head/page-head';
import { mediaUp, space } from '../theme/theme';

// The generated list is already in blog order, with the featured article first.
const [featured, ...latest] = articles;

const Heading = styled(SectionHeading)`
  margin-bottom: ${space.lg};
`;

const CardGrid = styled.ul`
  ${plainList}
  display: grid;
  gap: ${space.lg};
  grid-template-columns: minmax(0, 1fr);
  ${mediaUp('md')} { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  ${mediaUp('lg')} { grid-template-columns: repeat(3, minmax(0, 1fr)); }
`;

export default function BlogPage() {
  const { siteUrl } = useAppConfig();
  return (
    <>
      <PageHead
        title={blog.seo.title}
        description={blog.seo.description}
        keywords={blog.seo.keywords}
        canonicalPath={routesPaths.blog}
        jsonLd={[
          breadcrumbJsonLd(siteUrl, [
            { name: 'Home', path: routesPaths.home },
            { name: 'Blog', path: routesPaths.blog },
          ]),
        ]}
      />
      <PageIntro id="blog-title" title={blog.title} lead={blog.lead} />

      {featured && (
        <Section aria-labelledby="featured-title">
          <Container>
            <Heading id="featured-title">{blog.featuredLabel}</Heading>
            <ArticleCard article={featured} featured />
          </Container>
        </Section>
      )}

      <Section $tone="alt" aria-labelledby="latest-title">
        <Container>
          <Heading id="latest-title">{blog.latestTitle}</Heading>
          <CardGrid>
            {latest.map((article) => (
              <li key={article.slug}><ArticleCard article={article} /></li>
            ))}
          </CardGrid>
        </Container>
      </Section>
    </>
  );
}
