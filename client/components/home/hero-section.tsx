import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { routesPaths } from '../../../shared/site';
import { color, mediaDown, mediaUp, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { Container, labelText } from '../ui/layout-primitives';
import { DarkBand, DarkLead } from './dark-band';
import { PromptChat } from './prompt-chat';
import { StatSource } from './stat-source';

const Band = styled(DarkBand)`
  padding-block: clamp(3rem, 7vw, 5.5rem) clamp(2.5rem, 5vw, 4rem);
`;

const Columns = styled.div`
  display: grid;
  gap: ${space.xxl};
  align-items: center;
  ${mediaUp('lg')} { grid-template-columns: minmax(0, 1.15fr) minmax(0, 0.85fr); }
`;

// The kit's Eyebrow is violet-on-lilac, made for light sections; on the dark band it is an outline pill.
const Tag = styled.p`
  display: inline-flex;
  align-items: center;
  gap: ${space.sm};
  margin-bottom: ${space.lg};
  padding: 0.3rem 0.85rem;
  border: 1px solid ${color.electric};
  border-radius: 999px;
  color: ${color.electric};
  ${labelText}
  /* Small enough on a 360px phone to stay on one line: a pill broken over two looks unfinished. */
  ${mediaDown('sm')} { padding-inline: 0.7rem; font-size: 0.6875rem; letter-spacing: 0.03em; }
`;

const Title = styled.h1`
  font-size: ${text.h1};
  letter-spacing: -0.025em;
  margin-bottom: ${space.lg};
  color: ${color.onDark};
`;

const HeroLead = styled(DarkLead)`
  margin-bottom: ${space.xl};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${space.md};
  ${mediaDown('sm')} {
    flex-direction: column;
    & > a { width: 100%; }
  }
`;

const Stats = styled.ul`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${space.lg};
  margin: ${space.xxl} 0 0;
  padding: ${space.xl} 0 0;
  list-style: none;
  border-top: 1px solid ${color.borderDark};
  ${mediaUp('md')} { grid-template-columns: repeat(4, minmax(0, 1fr)); }
`;

const Stat = styled.li`
  display: flex;
  flex-direction: column;
  gap: ${space.xs};
`;

const StatValue = styled.span`
  color: ${color.electric};
  font-size: clamp(1.75rem, 1.3rem + 1.6vw, 2.5rem);
  font-weight: 800;
  line-height: 1.1;
  letter-spacing: -0.02em;
`;

const StatLabel = styled.span`
  color: ${color.onDarkMuted};
  font-size: ${text.sm};
`;

export function HeroSection({ hero }: { hero: HomeContent['hero'] }) {
  return (
    <Band aria-labelledby="hero-title">
      <Container>
        <Columns>
          <div>
            <Tag>
              <Icon name="zap" size={14} />
              {hero.eyebrow}
            </Tag>
            <Title id="hero-title">{hero.title}</Title>
            <HeroLead>{hero.lead}</HeroLead>
            <Actions>
              <Button to={routesPaths.freeAudit} variant="hero" size="xl">
                {hero.primaryCta}
                <Icon name="arrow-right" />
              </Button>
              <Button to={routesPaths.howItWorks} variant="neon" size="xl">
                {hero.secondaryCta}
              </Button>
            </Actions>
          </div>
          <PromptChat label={hero.promptsLabel} prompts={hero.prompts} />
        </Columns>
        <Stats>
          {hero.stats.map((item) => (
            <Stat key={item.stat}>
              <StatValue>{item.stat}</StatValue>{' '}
              <StatLabel>
                {item.label} <StatSource source={item.source} figure={`${item.stat} ${item.label}`} />
              </StatLabel>
            </Stat>
          ))}
        </Stats>
      </Container>
    </Band>
  );
}
