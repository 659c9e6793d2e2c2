import styled from 'styled-components';
import { Container } from '../ui/layout-primitives';

/** Wide enough for tables and samples; prose inside keeps its own ~70ch measure. */
export const ArticleColumn = styled(Container)`
  max-width: 50rem;
`;
