import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { routesPaths } from '../../../shared/site';
import { color, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { Container } from '../ui/layout-primitives';
import { DarkBand } from './dark-band';
import { SectionIntro } from './section-intro';

const Centre = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: ${space.md};
  text-align: center;
`;

const Note = styled.p`
  margin: 0;
  color: ${color.onDarkMuted};
  font-size: ${text.sm};
`;

export function ClosingCtaSection({ cta }: { cta: HomeContent['closingCta'] }) {
  return (
    <DarkBand aria-labelledby="closing-cta-title">
      <Container $narrow>
        <Centre>
          <SectionIntro id="closing-cta-title" title={cta.title} lead={cta.lead} centred onDark />
          <Button to={routesPaths.freeAudit} variant="hero" size="xl">
            {cta.button}
            <Icon name="arrow-right" />
          </Button>
          <Note>{cta.note}</Note>
        </Centre>
      </Container>
    </DarkBand>
  );
}
