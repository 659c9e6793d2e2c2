import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { color, mediaUp, text } from '../../theme/theme';
import { Container, Section, softPill } from '../ui/layout-primitives';
import { CardItem, OrderedCardList } from './card-list';
import { IconBadge } from './icon-badge';
import { SectionIntro } from './section-intro';

const CardTop = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
`;

// The <ol> already gives screen readers the position, so the printed number is for sighted readers only.
const PillarNumber = styled.span`
  padding: 0.25rem 0.625rem;
  ${softPill}
  font-size: ${text.sm};
  font-weight: 800;
  font-variant-numeric: tabular-nums;
`;

// Four pillars: 1, then 2 by 2, then all four in a row once each card has room for its title.
// (An auto-fit grid gave three and an orphan on small laptops.)
const Pillars = styled(OrderedCardList)`
  grid-template-columns: minmax(0, 1fr);
  ${mediaUp('md')} { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  ${mediaUp('xl')} { grid-template-columns: repeat(4, minmax(0, 1fr)); }
`;

const CardTitle = styled.h3`
  font-size: ${text.h3};
`;

const CardText = styled.p`
  color: ${color.inkMuted};
`;

export function PillarsSection({ pillars }: { pillars: HomeContent['pillars'] }) {
  return (
    <Section $tone="alt" aria-labelledby="pillars-title">
      <Container>
        <SectionIntro id="pillars-title" title={pillars.title} lead={pillars.lead} />
        <Pillars>
          {pillars.items.map((item, index) => (
            <CardItem key={item.title}>
              <CardTop>
                <IconBadge name={item.icon} />
                <PillarNumber aria-hidden="true">{String(index + 1).padStart(2, '0')}</PillarNumber>
              </CardTop>
              <CardTitle>{item.title}</CardTitle>
              <CardText>{item.description}</CardText>
            </CardItem>
          ))}
        </Pillars>
      </Container>
    </Section>
  );
}
