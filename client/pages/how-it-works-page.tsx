import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { processSteps } from '../../shared/generated/process-steps';
import { routesPaths } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { PageIntro } from '../components/layout/page-intro';
import { DarkBand } from '../components/home/dark-band';
import { Button } from '../components/ui/button';
import { Icon } from '../components/ui/icon';
import { CheckList } from '../components/ui/content-blocks';
import { Container, Lead, plainList, Section, SectionHeading } from '../components/ui/layout-primitives';
import { breadcrumbJsonLd, serviceJsonLd } from '../../shared/json-ld';
import { PageHead } from '../head/page-head';
import { color, mediaUp, radius, shadow, space, text } from '../theme/theme';

const { seo, intro, steps, results, cta } = processSteps;

const Timeline = styled.ol`
  --marker: 2.75rem;
  position: relative;
  list-style: none;
  margin: 0 auto;
  padding: 0;
  max-width: 52rem;
  display: grid;
  gap: ${space.xl};
  ${mediaUp('md')} { --marker: 3.5rem; gap: ${space.xxl}; }

  /* The line joining the step numbers, drawn behind them. */
  &::before {
    content: '';
    position: absolute;
    top: calc(var(--marker) / 2);
    bottom: calc(var(--marker) / 2);
    left: calc(var(--marker) / 2 - 1px);
    width: 2px;
    background: ${color.border};
  }
`;

const Step = styled.li`
  position: relative;
  display: grid;
  grid-template-columns: var(--marker) minmax(0, 1fr);
  gap: ${space.md};
  ${mediaUp('md')} { gap: ${space.lg}; }
`;

const Marker = styled.span<{ $accent: string }>`
  position: relative;
  display: grid;
  place-items: center;
  width: var(--marker);
  height: var(--marker);
  border-radius: 50%;
  background: ${(p) => p.$accent};
  color: #fff;
  font-weight: 800;
  font-size: ${text.lg};
  box-shadow: 0 0 0 6px ${color.surface};
`;

const StepCard = styled.div<{ $accent: string }>`
  background: ${color.surface};
  border: 1px solid ${color.border};
  border-top: 4px solid ${(p) => p.$accent};
  border-radius: ${radius.lg};
  padding: ${space.lg};
  box-shadow: ${shadow.card};
  ${mediaUp('md')} { padding: ${space.xl}; }
`;

const StepHeader = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${space.sm} ${space.md};
  margin-bottom: ${space.md};
`;

const IconBadge = styled.span<{ $accent: string }>`
  display: grid;
  place-items: center;
  flex-shrink: 0;
  width: 3rem;
  height: 3rem;
  border-radius: ${radius.md};
  background: ${color.surfaceAlt};
  color: ${(p) => p.$accent};
  svg { width: 1.5rem; height: 1.5rem; }
`;

const StepTitle = styled.h3`
  flex: 1 1 12rem;
  margin: 0;
  font-size: ${text.h3};
`;

const Duration = styled.p<{ $accent: string }>`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  margin: 0;
  padding: 0.25rem 0.75rem;
  border: 1px solid currentColor;
  border-radius: ${radius.pill};
  color: ${(p) => p.$accent};
  font-size: ${text.xs};
  font-weight: 700;
  white-space: nowrap;
  svg { width: 1rem; height: 1rem; }
`;

const Description = styled.p`
  color: ${color.inkMuted};
`;

const CentredHeading = styled(SectionHeading)`
  margin-inline: auto;
  text-align: center;
  margin-bottom: ${space.xl};
`;

const Stats = styled.ul`
  ${plainList}
  display: grid;
  gap: ${space.lg};
  grid-template-columns: repeat(2, minmax(0, 1fr));
  ${mediaUp('lg')} { grid-template-columns: repeat(4, minmax(0, 1fr)); }
  li {
    display: flex;
    flex-direction: column;
    align-items: center;
    text-align: center;
    padding: ${space.lg} ${space.md};
    border: 1px solid ${color.borderDark};
    border-radius: ${radius.lg};
    background: ${color.surfaceDarkAlt};
  }
`;

const StatValue = styled.span`
  font-size: ${text.h2};
  font-weight: 800;
  line-height: 1.1;
  color: ${color.electric};
`;

const StatLabel = styled.span`
  margin-top: ${space.xs};
  color: ${color.onDarkMuted};
  font-size: ${text.sm};
`;

const CtaBox = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  text-align: center;
  ${Lead} { margin-inline: auto; margin-bottom: ${space.xl}; }
`;

const CtaSection = styled(Section)`
  /*
   * The floating button sits over the bottom of the viewport until the footer scrolls in. This
   * band is the last thing above the footer, so its extra bottom padding (the button's height
   * plus its offset) lets its own content clear the button on the narrowest phones.
   */
  padding-bottom: calc(${space.section} + 2.75rem + ${space.md});
  ${mediaUp('md')} { padding-bottom: calc(${space.section} + 2.75rem + ${space.lg}); }
`;

/*
 * A fixed floating 'Book Free Audit' button. Fixed, it would sit on top of the footer's
 * legal links, so it steps aside while the footer is on screen: it fades out and becomes inert
 * (out of the tab order and the accessibility tree at once, not only after the fade). Hidden
 * is driven by the `inert` attribute, so the styles are static and no rule is made at run time.
 * Being fixed, it takes no room in the flow: showing or hiding it moves nothing (no layout shift).
 */
const FloatingCta = styled.div`
  position: fixed;
  right: max(${space.md}, env(safe-area-inset-right));
  bottom: max(${space.md}, env(safe-area-inset-bottom));
  z-index: 30;
  transition: opacity 200ms ease, transform 200ms ease, visibility 0s linear 0s;
  ${mediaUp('md')} {
    right: max(${space.lg}, env(safe-area-inset-right));
    bottom: max(${space.lg}, env(safe-area-inset-bottom));
  }
  a { box-shadow: ${shadow.raised}; }
  &[inert] {
    opacity: 0;
    visibility: hidden;
    transform: translateY(0.75rem);
    /* Visibility flips only once the fade has finished, so the fade is seen. */
    transition: opacity 200ms ease, transform 200ms ease, visibility 0s linear 200ms;
  }
  @media (prefers-reduced-motion: reduce) {
    &, &[inert] { transition: none; transform: none; }
  }
`;

/**
 * Whether the site footer is on screen. False on the server and on the first client render, so
 * both render the button the same way (no hydration mismatch); the observer reports the real
 * state straight after hydration, also when the page opens already scrolled to the footer.
 */
function useFooterInView(): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    // The site footer is the one that follows <main>; cards inside the page may have their own.
    const footer = document.querySelector('main ~ footer');
    if (!footer || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(([entry]) => setInView(entry?.isIntersecting ?? false));
    observer.observe(footer);
    return () => observer.disconnect();
  }, []);
  return inView;
}

export default function HowItWorksPage() {
  const { siteUrl } = useAppConfig();
  const footerInView = useFooterInView();
  return (
    <>
      <PageHead
        title={seo.title}
        description={seo.description}
        keywords={seo.keywords}
        canonicalPath={routesPaths.howItWorks}
        jsonLd={[
          serviceJsonLd(siteUrl, seo.description),
          breadcrumbJsonLd(siteUrl, [
            { name: 'Home', path: routesPaths.home },
            { name: 'How It Works', path: routesPaths.howItWorks },
          ]),
        ]}
      />
      <PageIntro id="how-it-works-title" eyebrow={intro.eyebrow} title={intro.title} lead={intro.lead} />

      <Section aria-labelledby="steps-title">
        <Container>
          <h2 id="steps-title" className="visually-hidden">The five steps</h2>
          <Timeline>
            {steps.map((step, index) => {
              const accent = color[step.color];
              return (
                <Step key={step.title}>
                  <Marker $accent={accent} aria-hidden="true">{index + 1}</Marker>
                  <StepCard $accent={accent}>
                    <StepHeader>
                      <IconBadge $accent={accent}><Icon name={step.icon} /></IconBadge>
                      <StepTitle>
                        <span className="visually-hidden">Step {index + 1}: </span>
                        {step.title}
                      </StepTitle>
                      <Duration $accent={accent}>
                        <Icon name="clock" />
                        <span className="visually-hidden">Timing: </span>
                        {step.duration}
                      </Duration>
                    </StepHeader>
                    <Description>{step.description}</Description>
                    <CheckList>
                      {step.details.map((detail) => (
                        <li key={detail}><Icon name="check" /><span>{detail}</span></li>
                      ))}
                    </CheckList>
                  </StepCard>
                </Step>
              );
            })}
          </Timeline>
        </Container>
      </Section>

      <DarkBand aria-labelledby="results-title">
        <Container>
          <CentredHeading id="results-title">{results.title}</CentredHeading>
          <Stats>
            {results.items.map((item) => (
              <li key={item.label}>
                <StatValue>{item.stat}</StatValue>
                <StatLabel>{item.label}</StatLabel>
              </li>
            ))}
          </Stats>
        </Container>
      </DarkBand>

      <CtaSection $tone="alt" aria-labelledby="cta-title">
        <Container>
          <CtaBox>
            <CentredHeading id="cta-title">{cta.title}</CentredHeading>
            <Lead>{cta.lead}</Lead>
            <Button to={routesPaths.freeAudit} variant="gradient" size="lg">
              {cta.button}
              <Icon name="arrow-right" />
            </Button>
          </CtaBox>
        </Container>
      </CtaSection>

      <FloatingCta inert={footerInView}>
        <Button to={routesPaths.freeAudit} variant="gradient">
          <Icon name="search" />
          Book Free Audit
        </Button>
      </FloatingCta>
    </>
  );
}
