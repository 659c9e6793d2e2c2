import type { ReactNode } from 'react';
import styled from 'styled-components';
import { color, space, text } from '../../theme/theme';
import { Container, Eyebrow, Lead } from '../ui/layout-primitives';

const Band = styled.section`
  padding-block: ${space.section};
  background: linear-gradient(180deg, ${color.primarySoft}, ${color.surface});
  border-bottom: 1px solid ${color.border};
`;

const Title = styled.h1`
  font-size: ${text.h1};
  max-width: 48rem;
  margin-bottom: ${space.md};
`;

const Centred = styled(Container)`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  p:last-child { margin-bottom: 0; }
`;

/**
 * The opening band of an inner page: the page's only <h1>. The section is labelled by that
 * heading so that it is a named region for screen-reader users.
 */
export function PageIntro({
  id,
  eyebrow,
  title,
  lead,
  children,
}: {
  id: string;
  eyebrow?: string;
  title: string;
  lead: string;
  children?: ReactNode;
}) {
  return (
    <Band aria-labelledby={id}>
      <Centred>
        {eyebrow && <Eyebrow>{eyebrow}</Eyebrow>}
        <Title id={id}>{title}</Title>
        <Lead>{lead}</Lead>
        {children}
      </Centred>
    </Band>
  );
}
