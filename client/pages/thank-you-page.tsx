import { useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { thankYou } from '../../shared/generated/pages/thankYou';
import { routesPaths } from '../../shared/site';
import { useFormState } from '../components/forms/form-state';
import { checkTokenOf, useCheckStatus } from '../components/check-status';
import { ProbeResult } from '../components/probe-result';
import { SiteCheckResult } from '../components/site-check-result';
import { Button } from '../components/ui/button';
import { Icon } from '../components/ui/icon';
import { NumberedList, Panel } from '../components/ui/content-blocks';
import { Container, Lead, plainList } from '../components/ui/layout-primitives';
import { PageHead } from '../head/page-head';
import { color, mediaUp, space, text } from '../theme/theme';

const Band = styled.div`
  padding-block: ${space.section};
  background: linear-gradient(180deg, ${color.primarySoft}, ${color.surfaceAlt} 40%);
`;

const Narrow = styled(Container)`
  max-width: 52rem;
`;

const Hero = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  text-align: center;
  margin-bottom: ${space.xxl};
  ${Lead} { margin-inline: auto; margin-bottom: 0; }
`;

const SuccessMark = styled.span`
  display: grid;
  place-items: center;
  width: 5rem;
  height: 5rem;
  margin-bottom: ${space.lg};
  border-radius: 50%;
  background: ${color.success};
  color: #fff;
  box-shadow: 0 0 0 10px ${color.surface};
  svg { width: 2.5rem; height: 2.5rem; }
`;

const Title = styled.h1`
  font-size: ${text.h1};
  margin-bottom: ${space.md};
`;

const StackedPanel = styled(Panel)`
  & + & { margin-top: ${space.lg}; }
`;

const PanelTitle = styled.h2`
  font-size: ${text.h3};
  margin-bottom: ${space.lg};
`;

const NextSteps = styled(NumberedList)`
  h3 { font-size: ${text.base}; margin-bottom: ${space.xs}; }
  p { margin: 0; color: ${color.inkMuted}; }
`;

const Includes = styled.ul`
  ${plainList}
  display: grid;
  gap: ${space.sm};
  ${mediaUp('md')} { grid-template-columns: repeat(2, minmax(0, 1fr)); column-gap: ${space.lg}; }
  li { display: flex; gap: ${space.sm}; align-items: flex-start; }
  svg { width: 1.25rem; height: 1.25rem; flex-shrink: 0; margin-top: 0.2rem; color: ${color.success}; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: center;
  margin-top: ${space.xxl};
`;

export default function ThankYouPage() {
  // Reached with an audit request's check token: that request's site check and visibility probe
  // (the server put their state into the page; after a client-side navigation from the form they
  // are asked for), kept up to date together while either runs.
  const token = checkTokenOf(useLocation().search);
  const { siteCheck, probe } = useFormState('audit');
  const status = useCheckStatus(token, { siteCheck, probe });
  return (
    <>
      <PageHead
        title={thankYou.seo.title}
        description={thankYou.seo.description}
        keywords={thankYou.seo.keywords}
        canonicalPath={routesPaths.thankYou}
        noindex
      />
      <Band>
        <Narrow>
          <Hero>
            <SuccessMark><Icon name="check" size={40} /></SuccessMark>
            <Title>{thankYou.title}</Title>
            <Lead>{thankYou.lead}</Lead>
          </Hero>

          <SiteCheckResult copy={thankYou.siteCheck} view={status.siteCheck} slow={status.slow} />
          <ProbeResult copy={thankYou.probe} view={status.probe} slow={status.slow} />

          <StackedPanel aria-labelledby="next-steps-title">
            <PanelTitle id="next-steps-title">{thankYou.nextStepsTitle}</PanelTitle>
            <NextSteps $large>
              {thankYou.nextSteps.map((step) => (
                <li key={step.title}>
                  <div>
                    <h3>{step.title}</h3>
                    <p>{step.description}</p>
                  </div>
                </li>
              ))}
            </NextSteps>
          </StackedPanel>

          <StackedPanel aria-labelledby="includes-title">
            <PanelTitle id="includes-title">{thankYou.includesTitle}</PanelTitle>
            <Includes>
              {thankYou.includes.map((item) => (
                <li key={item}><Icon name="check" /><span>{item}</span></li>
              ))}
            </Includes>
          </StackedPanel>

          <Actions>
            <Button to={routesPaths.home} size="lg">
              <Icon name="arrow-left" />
              {thankYou.button}
            </Button>
          </Actions>
        </Narrow>
      </Band>
    </>
  );
}
