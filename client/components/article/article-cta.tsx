import { useId } from 'react';
import styled from 'styled-components';
import type { ArticleSummary } from '../../../shared/content-schema';
import { routesPaths } from '../../../shared/site';
import { useAppConfig } from '../../app-config';
import { color, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { DarkBand } from '../home/dark-band';
import { Container, SectionHeading } from '../ui/layout-primitives';

const Inner = styled(Container)`
  display: flex;
  flex-direction: column;
  align-items: center;
  text-align: center;
`;

const Heading = styled(SectionHeading)`
  color: ${color.onDark};
  margin-inline: auto;
`;

const Lead = styled.p`
  max-width: 40rem;
  margin-bottom: ${space.xl};
  color: ${color.onDarkMuted};
  font-size: ${text.lg};
`;

const copy = {
  audit: {
    title: 'Find out what AI says about your business',
    lead: "We'll test the prompts your customers use in ChatGPT, Claude and Gemini, and show you who is recommended instead of you and how to change it.",
    button: 'Get Your Free AI Audit',
  },
  booking: {
    title: 'Talk it through with an LLM-SEO specialist',
    lead: "Book a free call and we'll walk you through how AI assistants describe your business today, and what it would take to be the one they recommend.",
    button: 'Book a Free Call',
  },
} as const;

/** The closing call to action the front matter's `cta` chooses: the audit form or the booking page. */
export function ArticleCta({ cta }: { cta: ArticleSummary['cta'] }) {
  const headingId = useId();
  const { bookingUrl } = useAppConfig();
  const { title, lead, button } = copy[cta];
  return (
    // The same glowing band and white button as the home page's closing call to action.
    <DarkBand aria-labelledby={headingId}>
      <Inner>
        <Heading id={headingId}>{title}</Heading>
        <Lead>{lead}</Lead>
        {cta === 'audit' ? (
          <Button to={routesPaths.freeAudit} variant="hero" size="xl">
            {button}
            <Icon name="arrow-right" />
          </Button>
        ) : (
          <Button href={bookingUrl} external variant="hero" size="xl">
            {button}
            <Icon name="external" />
          </Button>
        )}
      </Inner>
    </DarkBand>
  );
}
