import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { color, mediaUp, space, text } from '../../theme/theme';
import { Container, Section } from '../ui/layout-primitives';
import { CardItem, CardList } from './card-list';
import { IconBadge } from './icon-badge';
import { SectionIntro } from './section-intro';
import { StatSource } from './stat-source';

const StatValue = styled.span`
  display: block;
  color: ${color.primary};
  font-size: ${text.h2};
  font-weight: 800;
  line-height: 1.1;
  letter-spacing: -0.02em;
`;

const StatText = styled.p`
  color: ${color.inkMuted};
`;

// Three figures: one column on phones, then all three in a row (an auto-fit grid left the third
// alone on a tablet row).
const Stats = styled(CardList)`
  grid-template-columns: minmax(0, 1fr);
  ${mediaUp('md')} { grid-template-columns: repeat(3, minmax(0, 1fr)); }
`;

// Newspaper columns on wide screens keep each line at a readable length without a tall, narrow strip.
const Prose = styled.div`
  margin-top: ${space.xxl};
  columns: 2 22rem;
  column-gap: ${space.xxl};
  p { break-inside: avoid; }
`;

export function AiShiftSection({ aiShift }: { aiShift: HomeContent['aiShift'] }) {
  return (
    <Section aria-labelledby="ai-shift-title">
      <Container>
        <SectionIntro id="ai-shift-title" title={aiShift.title} lead={aiShift.lead} />
        <Stats>
          {aiShift.stats.map((item) => (
            <CardItem key={item.stat}>
              <IconBadge name={item.icon} />
              <StatText>
                <StatValue>{item.stat}</StatValue> {item.description}{' '}
                <StatSource source={item.source} figure={`${item.stat}: ${item.description}`} />
              </StatText>
            </CardItem>
          ))}
        </Stats>
        <Prose>
          {aiShift.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </Prose>
      </Container>
    </Section>
  );
}
