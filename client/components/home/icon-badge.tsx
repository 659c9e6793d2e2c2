import styled from 'styled-components';
import type { IconName } from '../../../shared/content-schema';
import { color, radius } from '../../theme/theme';
import { Icon } from '../ui/icon';

const Badge = styled.span`
  display: inline-grid;
  place-items: center;
  flex-shrink: 0;
  width: 3rem;
  height: 3rem;
  border-radius: ${radius.md};
  background: linear-gradient(135deg, ${color.primary}, ${color.accent});
  color: ${color.onDark};
`;

/** A decorative icon tile for cards; the card's text carries the meaning. */
export function IconBadge({ name }: { name: IconName }) {
  return (
    <Badge aria-hidden="true">
      <Icon name={name} size={24} />
    </Badge>
  );
}
