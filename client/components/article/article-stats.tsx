import styled from 'styled-components';
import { color, radius, space, text } from '../../theme/theme';

const List = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 10rem), 1fr));
  gap: ${space.lg};
  margin: 0;
  padding: ${space.xl} ${space.lg};
  list-style: none;
  border-radius: ${radius.lg};
  background: linear-gradient(135deg, ${color.surfaceDark}, ${color.surfaceDarkAlt});
  color: ${color.onDark};
`;

const Figure = styled.span`
  display: block;
  margin-bottom: ${space.xs};
  color: ${color.electric};
  font-size: clamp(2rem, 1.6rem + 1.5vw, 2.75rem);
  font-weight: 800;
  line-height: 1.1;
  letter-spacing: -0.02em;
  font-variant-numeric: tabular-nums;
`;

const Label = styled.span`
  display: block;
  color: ${color.onDarkMuted};
  font-size: ${text.sm};
  line-height: 1.5;
`;

/** A `:::stats` block: big figures, each with the label that says what it measures. */
export function ArticleStats({ items }: { items: { stat: string; label: string }[] }) {
  return (
    <List>
      {items.map((item) => (
        <li key={`${item.stat} ${item.label}`}>
          <Figure>{item.stat}</Figure>
          <Label>{item.label}</Label>
        </li>
      ))}
    </List>
  );
}
