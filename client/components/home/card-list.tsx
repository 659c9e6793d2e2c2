import styled, { css } from 'styled-components';
import { space } from '../../theme/theme';
import { Card, Grid } from '../ui/layout-primitives';

const listReset = css`
  list-style: none;
  margin: 0;
  padding: 0;
`;

/** The kit's Grid as a real list, so screen readers announce how many cards there are. */
export const CardList = styled(Grid).attrs({ as: 'ul' })`${listReset}`;

/** The same, for cards whose order matters (steps, pillars). */
export const OrderedCardList = styled(Grid).attrs({ as: 'ol' })`${listReset}`;

export const CardItem = styled(Card).attrs({ as: 'li' })`
  display: flex;
  flex-direction: column;
  gap: ${space.md};
  h3 { margin: 0; }
  p { margin: 0; }
`;
