import styled from 'styled-components';
import { illustrativeLabel, illustrativeNotes } from '../../../shared/illustrative';
import { color, radius, space, text } from '../../theme/theme';
import { labelText } from './layout-primitives';

const Note = styled.p`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: ${space.xs} ${space.sm};
  margin: 0;
  color: ${color.inkMuted};
  font-size: ${text.sm};
  font-style: normal;
`;

const Label = styled.strong`
  padding: 0.125rem ${space.sm};
  border: 1px solid ${color.amber};
  border-radius: ${radius.md};
  color: ${color.ink};
  ${labelText}
`;

/**
 * The visible label of an invented testimonial or case study: plain text, so a screen reader
 * reads it where it stands, next to what it qualifies. Without `of`, the label alone (a quote
 * inside a study that is labelled already).
 */
export function IllustrativeNote({ of, className }: { of?: keyof typeof illustrativeNotes; className?: string }) {
  return (
    <Note className={className}>
      <Label>{illustrativeLabel}</Label>
      {of && <span>{illustrativeNotes[of]}</span>}
    </Note>
  );
}
