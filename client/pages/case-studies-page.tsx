import { Link } from '../routing/links';
import styled from 'styled-components';
import type { CaseStudiesContent } from '../../shared/content-schema';
import { caseStudies } from '../../shared/generated/case-studies';
import { routesPaths } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { ClosingCtaSection } from '../components/home/closing-cta-section';
import { PageIntro } from '../components/layout/page-intro';
import { Icon } from '../components/ui/icon';
import { CheckList, NumberedList } from '../components/ui/content-blocks';
import { IllustrativeNote } from '../components/ui/illustrative-note';
import { Container, labelText, Section } from '../components/ui/layout-primitives';
import { breadcrumbJsonLd } from '../../shared/json-ld';
import { PageHead } from '../head/page-head';
import { color, mediaUp, radius, shadow, space, text } from '../theme/theme';

type Study = CaseStudiesContent['studies'][number];

const { seo, intro, studies, closingCta } = caseStudies;

const Stack = styled.div`
  display: grid;
  max-width: 56rem;
  margin-inline: auto;
  gap: ${space.xxl};
`;

const StudyArticle = styled.article<{ $accent: string }>`
  background: ${color.surface};
  border: 1px solid ${color.border};
  border-top: 6px solid ${(p) => p.$accent};
  border-radius: ${radius.lg};
  box-shadow: ${shadow.card};
  padding: 1.25rem;
  ${mediaUp('sm')} { padding: ${space.xl}; }
  ${mediaUp('md')} { padding: ${space.xxl}; }
`;

const StudyHeader = styled.header`
  display: grid;
  gap: ${space.md};
  padding-bottom: ${space.lg};
  margin-bottom: ${space.lg};
  border-bottom: 1px solid ${color.border};
  ${mediaUp('md')} { grid-template-columns: auto minmax(0, 1fr); align-items: start; column-gap: ${space.lg}; }
`;

const IconBadge = styled.span<{ $accent: string }>`
  display: grid;
  place-items: center;
  width: 3.5rem;
  height: 3.5rem;
  border-radius: ${radius.md};
  background: ${(p) => p.$accent};
  color: #fff;
  svg { width: 1.75rem; height: 1.75rem; }
`;

const ClientName = styled.h2`
  font-size: ${text.h2};
  margin-bottom: ${space.md};
`;

const Facts = styled.dl`
  display: grid;
  gap: ${space.sm} ${space.lg};
  margin: 0;
  grid-template-columns: minmax(0, 1fr);
  ${mediaUp('sm')} { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  div { min-width: 0; }
  dt {
    color: ${color.inkMuted};
    ${labelText}
  }
  dd { margin: 0; font-weight: 600; }
`;

const Part = styled.section`
  & + & { margin-top: ${space.xl}; }
`;

const PartLabel = styled.p<{ $accent: string }>`
  margin-bottom: ${space.xs};
  color: ${(p) => p.$accent};
  ${labelText}
`;

const PartTitle = styled.h3`
  font-size: ${text.h3};
`;

const Muted = styled.p`
  color: ${color.inkMuted};
`;

const SubHeading = styled.h4`
  font-size: ${text.base};
  margin-bottom: ${space.sm};
`;

const Prompts = styled.ul`
  list-style: none;
  margin: 0 0 ${space.lg};
  padding: 0;
  display: grid;
  gap: ${space.sm};
  li {
    display: flex;
    gap: ${space.sm};
    align-items: flex-start;
    padding: ${space.sm} ${space.md};
    border-radius: ${radius.md};
    background: ${color.surfaceAlt};
    font-style: italic;
  }
  svg { width: 1.25rem; height: 1.25rem; flex-shrink: 0; margin-top: 0.25rem; color: ${color.inkMuted}; }
`;

const Summary = styled.p`
  margin: 0;
  padding-left: ${space.md};
  border-left: 3px solid ${color.destructive};
  font-weight: 600;
`;

const Timeframe = styled.p`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  padding: 0.25rem 0.75rem;
  border-radius: ${radius.pill};
  background: ${color.surfaceAlt};
  color: ${color.success};
  font-size: ${text.xs};
  font-weight: 700;
  svg { width: 1rem; height: 1rem; }
`;

const Stats = styled.ul`
  list-style: none;
  margin: 0 0 ${space.lg};
  padding: 0;
  display: grid;
  gap: ${space.md};
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 12rem), 1fr));
  li {
    display: flex;
    flex-direction: column;
    padding: ${space.md} ${space.lg};
    border-radius: ${radius.md};
    background: ${color.surfaceDark};
    color: ${color.onDarkMuted};
    font-size: ${text.sm};
  }
  strong {
    color: ${color.electric};
    font-size: ${text.h2};
    line-height: 1.15;
  }
`;

const Quote = styled.figure`
  margin: ${space.xl} 0 0;
  padding: ${space.lg};
  border-radius: ${radius.lg};
  background: ${color.primarySoft};
  ${mediaUp('md')} { padding: ${space.xl}; }
  blockquote { margin: 0 0 ${space.md}; font-size: ${text.lg}; font-style: italic; color: ${color.ink}; }
  blockquote p { margin: 0; }
  figcaption { color: ${color.primaryHover}; font-weight: 600; font-size: ${text.sm}; }
`;

const ReadMore = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: ${space.sm};
  margin-top: ${space.lg};
  min-height: 2.75rem;
  font-weight: 700;
  svg { width: 1.1rem; height: 1.1rem; }
`;

const StudyNote = styled(IllustrativeNote)`
  margin-bottom: ${space.md};
`;

const QuoteNote = styled(IllustrativeNote)`
  margin-bottom: ${space.sm};
`;

function CaseStudy({ study }: { study: Study }) {
  const accent = color[study.color];
  const titleId = `${study.id}-title`;
  return (
    <StudyArticle $accent={accent} aria-labelledby={titleId}>
      <StudyHeader>
        <IconBadge $accent={accent} aria-hidden="true"><Icon name={study.icon} /></IconBadge>
        <div>
          <ClientName id={titleId}>{study.client}</ClientName>
          {study.kind === 'illustrative' && <StudyNote of="caseStudy" />}
          <Facts>
            <div><dt>Industry</dt><dd>{study.industry}</dd></div>
            <div><dt>Location</dt><dd>{study.location}</dd></div>
            <div><dt>Contact</dt><dd>{study.contact}</dd></div>
          </Facts>
        </div>
      </StudyHeader>

      <Part aria-labelledby={`${study.id}-problem ${titleId}`}>
        <PartLabel $accent={color.destructive}>The problem</PartLabel>
        <PartTitle id={`${study.id}-problem`}>{study.problem.title}</PartTitle>
        <Muted>{study.problem.description}</Muted>
        <SubHeading>Prompts where they were missing</SubHeading>
        <Prompts>
          {study.problem.examples.map((prompt) => (
            <li key={prompt}><Icon name="message" /><span>“{prompt}”</span></li>
          ))}
        </Prompts>
        <Summary>{study.problem.summary}</Summary>
      </Part>

      <Part aria-labelledby={`${study.id}-solution ${titleId}`}>
        <PartLabel $accent={color.primary}>The solution</PartLabel>
        <PartTitle id={`${study.id}-solution`}>{study.solution.title}</PartTitle>
        <NumberedList>
          {study.solution.steps.map((step) => <li key={step}>{step}</li>)}
        </NumberedList>
      </Part>

      <Part aria-labelledby={`${study.id}-results ${titleId}`}>
        <PartLabel $accent={color.success}>The results</PartLabel>
        <PartTitle id={`${study.id}-results`}>{study.results.title}</PartTitle>
        <Timeframe>
          <Icon name="clock" />
          <span><span className="visually-hidden">Timeframe: </span>{study.results.timeframe}</span>
        </Timeframe>
        <Muted>{study.results.description}</Muted>
        <Stats>
          {study.results.stats.map((item) => (
            <li key={item.label}><strong>{item.stat}</strong><span>{item.label}</span></li>
          ))}
        </Stats>
        <SubHeading>What changed</SubHeading>
        <CheckList>
          {study.results.examples.map((example) => (
            <li key={example}><Icon name="check" /><span>{example}</span></li>
          ))}
        </CheckList>
      </Part>

      <Quote>
        {study.testimonial.kind === 'illustrative' && <QuoteNote />}
        <blockquote><p>“{study.testimonial.quote}”</p></blockquote>
        <figcaption>{study.testimonial.author}, {study.testimonial.company}</figcaption>
      </Quote>

      <ReadMore to={`${routesPaths.blog}/${study.article}`}>
        Read the full case study
        <span className="visually-hidden">: {study.client}</span>
        <Icon name="arrow-right" />
      </ReadMore>
    </StudyArticle>
  );
}

export default function CaseStudiesPage() {
  const { siteUrl } = useAppConfig();
  return (
    <>
      <PageHead
        title={seo.title}
        description={seo.description}
        keywords={seo.keywords}
        canonicalPath={routesPaths.caseStudies}
        jsonLd={[
          breadcrumbJsonLd(siteUrl, [
            { name: 'Home', path: routesPaths.home },
            { name: 'Case Studies', path: routesPaths.caseStudies },
          ]),
        ]}
      />
      <PageIntro id="case-studies-title" eyebrow={intro.eyebrow} title={intro.title} lead={intro.lead} />
      <Section $tone="alt" aria-label="Client stories">
        <Container>
          <Stack>
            {studies.map((study) => <CaseStudy key={study.id} study={study} />)}
          </Stack>
        </Container>
      </Section>
      <ClosingCtaSection cta={closingCta} />
    </>
  );
}
