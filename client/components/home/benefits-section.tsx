import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { color, text } from '../../theme/theme';
import { Container, Section } from '../ui/layout-primitives';
import { CardItem, CardList } from './card-list';
import { IconBadge } from './icon-badge';
import { SectionIntro } from './section-intro';

const CardTitle = styled.h3`
  font-size: ${text.lg};
`;

const CardText = styled.p`
  color: ${color.inkMuted};
`;

export function BenefitsSection({ benefits }: { benefits: HomeContent['benefits'] }) {
  return (
    <Section aria-labelledby="benefits-title">
      <Container>
        <SectionIntro id="benefits-title" title={benefits.title} lead={benefits.lead} />
        <CardList $min="17rem">
          {benefits.items.map((item) => (
            <CardItem key={item.title}>
              <IconBadge name={item.icon} />
              <CardTitle>{item.title}</CardTitle>
              <CardText>{item.description}</CardText>
            </CardItem>
          ))}
        </CardList>
      </Container>
    </Section>
  );
}
