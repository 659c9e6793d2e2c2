import { css } from 'styled-components';
import { color, space } from '../../theme/theme';

/** The dark "window" the home page draws code and a chat in: its frame, and its title bar. */
export const darkWindow = css`
  border: 1px solid ${color.borderDark};
  background: ${color.surfaceDark};
  overflow: hidden;
`;

export const darkTitleBar = css`
  display: flex;
  align-items: center;
  gap: ${space.sm};
  padding: ${space.sm} ${space.md};
  border-bottom: 1px solid ${color.borderDark};
  background: ${color.surfaceDarkAlt};
`;
