import styled, { css } from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { routesPaths } from '../../../shared/site';
import { color, mediaDown, mediaUp, radius, shadow, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { Container, labelText, Section } from '../ui/layout-primitives';
import { CardItem, CardList } from './card-list';
import { SectionIntro } from './section-intro';

type Plan = HomeContent['pricing']['plans'][number];

/*
 * One column, centred, until there is room for all three side by side: an auto-fit grid put two
 * plans on a tablet row and left the third alone under them.
 */
const Plans = styled(CardList)`
  grid-template-columns: minmax(0, 1fr);
  max-width: 34rem;
  margin-inline: auto;
  align-items: stretch;
  /* Room for the highlighted plan's badge, which sits across its top edge. */
  padding-top: ${space.md};
  ${mediaUp('lg')} { grid-template-columns: repeat(3, minmax(0, 1fr)); max-width: none; }
`;

const PlanCard = styled(CardItem)<{ $highlighted: boolean }>`
  position: relative;
  padding: ${space.xl} ${space.lg};
  /* Phones: a little more width for the button labels, so none of them breaks onto two lines. */
  ${mediaDown('sm')} { padding-inline: 1.25rem; }
  ${(p) =>
    p.$highlighted &&
    css`
      border-color: ${color.primary};
      box-shadow: 0 0 0 1px ${color.primary}, ${shadow.raised};
    `}
`;

const Badge = styled.p`
  position: absolute;
  top: 0;
  left: 50%;
  transform: translate(-50%, -50%);
  padding: 0.25rem 0.875rem;
  border-radius: ${radius.pill};
  background: ${color.primary};
  color: ${color.onDark};
  ${labelText}
  white-space: nowrap;
`;

const PlanName = styled.h3`
  font-size: ${text.xl};
`;

const Price = styled.p`
  display: flex;
  flex-direction: column;
  gap: ${space.xs};
`;

const Amount = styled.span`
  color: ${color.ink};
  font-size: ${text.h2};
  font-weight: 800;
  line-height: 1.1;
  letter-spacing: -0.02em;
`;

const Cadence = styled.span`
  color: ${color.inkMuted};
  font-size: ${text.sm};
`;

const Description = styled.p`
  color: ${color.inkMuted};
`;

const Features = styled.ul`
  display: grid;
  gap: ${space.sm};
  margin: 0 0 ${space.md};
  padding: ${space.md} 0 0;
  border-top: 1px solid ${color.border};
  list-style: none;
  font-size: ${text.sm};
  li { display: flex; gap: ${space.sm}; align-items: flex-start; }
  svg { margin-top: 0.2em; color: ${color.success}; flex-shrink: 0; }
`;

// Pushes every plan's button to the bottom edge, so the three line up whatever the list lengths.
const Action = styled.div`
  margin-top: auto;
  ${mediaDown('sm')} { a { padding-inline: ${space.md}; } }
`;

function PlanCardView({ plan }: { plan: Plan }) {
  return (
    <PlanCard $highlighted={plan.highlighted}>
      {plan.highlighted && <Badge>Recommended</Badge>}
      <PlanName>{plan.name}</PlanName>
      <Price>
        <Amount>{plan.price}</Amount>{' '}
        <Cadence>{plan.cadence}</Cadence>
      </Price>
      <Description>{plan.description}</Description>
      <Features aria-label={`${plan.name} includes`}>
        {plan.features.map((feature) => (
          <li key={feature}>
            <Icon name="check" size={18} />
            {feature}
          </li>
        ))}
      </Features>
      <Action>
        <Button to={routesPaths.freeAudit} variant={plan.highlighted ? 'gradient' : 'outline'} size="lg" block>
          {plan.cta}
        </Button>
      </Action>
    </PlanCard>
  );
}

export function PricingSection({ pricing }: { pricing: HomeContent['pricing'] }) {
  return (
    <Section id="pricing" $tone="alt" aria-labelledby="pricing-title">
      <Container>
        <SectionIntro id="pricing-title" title={pricing.title} lead={pricing.lead} centred />
        <Plans>
          {pricing.plans.map((plan) => (
            <PlanCardView key={plan.name} plan={plan} />
          ))}
        </Plans>
      </Container>
    </Section>
  );
}
