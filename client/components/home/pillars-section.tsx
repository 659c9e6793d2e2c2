import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { color, radius, text } from '../../theme/theme';
import { Container, Section } from '../ui/layout-primitives';
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
  border-radius: ${radius.pill};
  background: ${color.primarySoft};
  color: ${color.primaryHover};
  font-size: ${text.sm};
  font-weight: 800;
  font-variant-numeric: tabular-nums;
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
        <OrderedCardList $min="15rem">
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
        </OrderedCardList>
      </Container>
    </Section>
  );
}
