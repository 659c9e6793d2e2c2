import styled from 'styled-components';
import type { LegalPage } from '../../shared/content-schema';
import { routesPaths, site } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { Container } from '../components/ui/layout-primitives';
import { breadcrumbJsonLd } from '../../shared/json-ld';
import { formatContentDate } from '../../shared/content-date';
import { brandedTitle } from '../../shared/search-snippet';
import { PageHead } from '../head/page-head';
import { color, layout, radius, space, text } from '../theme/theme';

const Header = styled.header`
  padding-block: ${space.section} ${space.xl};
  margin-bottom: ${space.lg};
  background: linear-gradient(180deg, ${color.primarySoft}, ${color.surface});
`;

const Title = styled.h1`
  font-size: ${text.h1};
  margin-bottom: ${space.sm};
`;

const Updated = styled.p`
  margin: 0;
  color: ${color.inkMuted};
  font-size: ${text.sm};
`;

/* Typography for the HTML the content build makes from the legal Markdown. */
const Prose = styled.div`
  max-width: ${layout.proseWidth};
  padding-bottom: ${space.section};
  font-size: ${text.base};
  overflow-wrap: break-word;

  h2 {
    font-size: ${text.xl};
    margin-top: ${space.xxl};
    padding-top: ${space.lg};
    border-top: 1px solid ${color.border};
  }
  h3 { font-size: ${text.lg}; margin-top: ${space.xl}; }
  h2 + h3 { margin-top: ${space.md}; }
  p, li { color: ${color.ink}; }
  ul, ol { margin: 0 0 1em; padding-left: 1.5rem; }
  li + li { margin-top: ${space.xs}; }
  li::marker { color: ${color.primary}; }
  strong { font-weight: 700; }
  a { color: ${color.accent}; text-decoration: underline; }
  a:hover { color: ${color.primary}; }

  .table-scroll {
    margin: ${space.lg} 0;
    overflow-x: auto;
    border: 1px solid ${color.border};
    border-radius: ${radius.md};
  }
  table { width: 100%; border-collapse: collapse; font-size: ${text.sm}; }
  th, td { padding: ${space.sm} ${space.md}; text-align: left; vertical-align: top; border-bottom: 1px solid ${color.border}; }
  th { background: ${color.surfaceAlt}; font-weight: 700; white-space: nowrap; }
  tbody tr:last-child td { border-bottom: 0; }
  tbody tr:nth-child(even) td { background: ${color.surfaceAlt}; }
`;

export function LegalPageView({ page }: { page: LegalPage }) {
  const { siteUrl } = useAppConfig();
  const path = `/${page.slug}`;
  return (
    <article aria-labelledby="legal-title">
      <PageHead
        title={brandedTitle(page.title, site.brand)}
        description={page.description}
        keywords={[page.title, site.brand, site.legalName]}
        canonicalPath={path}
        jsonLd={[
          breadcrumbJsonLd(siteUrl, [
            { name: 'Home', path: routesPaths.home },
            { name: page.title, path },
          ]),
        ]}
      />
      {/* One centred reading column for the heading and the text, as on the articles. */}
      <Header>
        <Container $narrow>
          <Title id="legal-title">{page.title}</Title>
          <Updated>
            Last updated: <time dateTime={page.updated}>{formatContentDate(page.updated)}</time>
          </Updated>
        </Container>
      </Header>
      <Container $narrow>
        {/* Trusted HTML: the content build made it from our own Markdown. */}
        <Prose dangerouslySetInnerHTML={{ __html: page.html }} />
      </Container>
    </article>
  );
}
