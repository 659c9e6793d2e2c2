import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { color, space, text } from '../../theme/theme';
import { Container, Section } from '../ui/layout-primitives';
import { CardItem, CardList } from './card-list';
import { IconBadge } from './icon-badge';
import { SectionIntro } from './section-intro';

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
        <CardList $min="15rem">
          {aiShift.stats.map((item) => (
            <CardItem key={item.stat}>
              <IconBadge name={item.icon} />
              <StatText>
                <StatValue>{item.stat}</StatValue> {item.description}
              </StatText>
            </CardItem>
          ))}
        </CardList>
        <Prose>
          {aiShift.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </Prose>
      </Container>
    </Section>
  );
}
