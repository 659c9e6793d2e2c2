import styled from 'styled-components';
import { color } from '../../theme/theme';
import { Lead, Section } from '../ui/layout-primitives';

/**
 * A dark section with the brand's violet glow. The glow stays in the violet family on purpose:
 * every text colour used on it (onDark, onDarkMuted, electric) keeps at least 4.5:1 against
 * each stop, which a blue stop would break for the electric accents.
 */
export const DarkBand = styled(Section)`
  position: relative;
  color: ${color.onDark};
  overflow: hidden;
  background:
    radial-gradient(ellipse 70% 60% at 100% 0%, ${color.primary}, transparent 70%),
    radial-gradient(ellipse 50% 50% at 0% 100%, ${color.primaryHover}, transparent 70%),
    linear-gradient(160deg, ${color.surfaceDark} 0%, ${color.surfaceDarkAlt} 100%);
`;

export const DarkLead = styled(Lead)`
  color: ${color.onDarkMuted};
`;
