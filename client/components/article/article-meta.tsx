import type { ReactNode } from 'react';
import styled from 'styled-components';
import { color, space, text } from '../../theme/theme';
import { Icon } from '../ui/icon';
import { softPill } from '../ui/layout-primitives';

const Badge = styled.p`
  align-self: flex-start;
  margin-bottom: ${space.sm};
  padding: 0.2rem 0.7rem;
  ${softPill}
  font-size: ${text.xs};
  font-weight: 700;
`;

/** An article's category as a pill, the same on the blog's cards and in related reading. */
export function CategoryBadge({ children }: { children: ReactNode }) {
  return (
    <Badge>
      <span className="visually-hidden">Category: </span>
      {children}
    </Badge>
  );
}

const Minutes = styled.p<{ $compact: boolean }>`
  display: inline-flex;
  align-items: center;
  gap: 0.375rem;
  margin: 0;
  color: ${color.inkMuted};
  font-size: ${(p) => (p.$compact ? text.xs : text.sm)};
  font-weight: ${(p) => (p.$compact ? 600 : 400)};
  svg { width: 1rem; height: 1rem; }
`;

/** "N min read" with a clock; `compact` where it sits under a small card's excerpt. */
export function ReadTime({ minutes, compact = false }: { minutes: number; compact?: boolean }) {
  return (
    <Minutes $compact={compact}>
      <Icon name="clock" />
      {minutes} min read
    </Minutes>
  );
}
