import styled from 'styled-components';
import { color, space } from '../../theme/theme';
import { Eyebrow, Lead, SectionHeading } from '../ui/layout-primitives';

const Wrap = styled.div<{ $centred: boolean; $onDark: boolean }>`
  margin-bottom: ${space.xl};
  text-align: ${(p) => (p.$centred ? 'center' : 'start')};
  ${SectionHeading}, ${Lead} { margin-inline: ${(p) => (p.$centred ? 'auto' : '0')}; }
  ${SectionHeading} { color: ${(p) => (p.$onDark ? color.onDark : color.ink)}; }
  ${Lead} { color: ${(p) => (p.$onDark ? color.onDarkMuted : color.inkMuted)}; margin-bottom: 0; }
`;

interface SectionIntroProps {
  /** The heading's id, for the enclosing section's aria-labelledby. */
  id: string;
  title: string;
  lead?: string;
  eyebrow?: string;
  centred?: boolean;
  onDark?: boolean;
}

/** The h2 and lead paragraph that open every home section. */
export function SectionIntro({ id, title, lead, eyebrow, centred = false, onDark = false }: SectionIntroProps) {
  return (
    <Wrap $centred={centred} $onDark={onDark}>
      {eyebrow && <Eyebrow>{eyebrow}</Eyebrow>}
      <SectionHeading id={id}>{title}</SectionHeading>
      {lead && <Lead>{lead}</Lead>}
    </Wrap>
  );
}
