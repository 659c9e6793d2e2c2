import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { routesPaths } from '../../../shared/site';
import { color, mediaDown, mediaUp, radius, shadow, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { Container, Eyebrow, Lead, Section, SectionHeading } from '../ui/layout-primitives';

const Panel = styled.div`
  display: grid;
  gap: ${space.xl};
  padding: clamp(1.25rem, 5vw, ${space.xxl});
  border: 1px solid ${color.border};
  border-top: 4px solid ${color.primary};
  border-radius: ${radius.lg};
  background: ${color.surface};
  box-shadow: ${shadow.card};
  ${mediaUp('lg')} {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    align-items: center;
    gap: ${space.xxl};
  }
`;

const Intro = styled.div`
  ${Lead} { margin-bottom: ${space.xl}; }
`;

// On phones the long label wraps; a pill's round ends on two lines look like a mistake.
const Tag = styled(Eyebrow)`
  ${mediaDown('sm')} { border-radius: ${radius.sm}; }
`;

const Bullets = styled.ul`
  display: grid;
  gap: ${space.md};
  margin: 0;
  padding: ${space.lg};
  /* A box inside a card: on a phone it keeps less of its own padding, so the lines stay long. */
  ${mediaDown('sm')} { padding: ${space.md}; gap: ${space.sm}; }
  border-radius: ${radius.md};
  background: ${color.surfaceAlt};
  list-style: none;
  li { display: flex; gap: ${space.md}; align-items: flex-start; color: ${color.ink}; font-size: ${text.base}; }
  ${mediaDown('sm')} { li { gap: ${space.sm}; font-size: ${text.sm}; } }
`;

const Tick = styled.span`
  display: inline-grid;
  place-items: center;
  flex-shrink: 0;
  width: 1.75rem;
  height: 1.75rem;
  border-radius: 50%;
  background: ${color.primarySoft};
  color: ${color.primaryHover};
`;

export function ProductLaunchSection({ launch }: { launch: HomeContent['productLaunch'] }) {
  return (
    <Section aria-labelledby="product-launch-title">
      <Container>
        <Panel>
          <Intro>
            <Tag>{launch.eyebrow}</Tag>
            <SectionHeading id="product-launch-title">{launch.title}</SectionHeading>
            <Lead>{launch.lead}</Lead>
            <Button to={routesPaths.freeAudit} variant="gradient" size="lg">
              {launch.button}
              <Icon name="arrow-right" />
            </Button>
          </Intro>
          <Bullets>
            {launch.bullets.map((bullet) => (
              <li key={bullet}>
                <Tick aria-hidden="true">
                  <Icon name="check" size={16} />
                </Tick>
                {bullet}
              </li>
            ))}
          </Bullets>
        </Panel>
      </Container>
    </Section>
  );
}
