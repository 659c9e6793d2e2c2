import styled from 'styled-components';
import { space } from '../../theme/theme';
import { Card, Grid, plainList } from '../ui/layout-primitives';

/** The kit's Grid as a real list, so screen readers announce how many cards there are. */
export const CardList = styled(Grid).attrs({ as: 'ul' })`${plainList}`;

/** The same, for cards whose order matters (steps, pillars). */
export const OrderedCardList = styled(Grid).attrs({ as: 'ol' })`${plainList}`;

export const CardItem = styled(Card).attrs({ as: 'li' })`
  display: flex;
  flex-direction: column;
  gap: ${space.md};
  h3 { margin: 0; }
  p { margin: 0; }
`;
