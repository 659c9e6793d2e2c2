import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';
import styled, { keyframes } from 'styled-components';
import { color, radius, text } from '../../../theme/theme';
import { ANCHOR_ATTRIBUTE, OFFSET_PX, OPEN_ATTRIBUTE } from './tooltip-attributes';

const EDGE_PX = 8;

const appear = keyframes`
  from { opacity: 0; scale: 0.96; }
  to { opacity: 1; scale: 1; }
`;

const Anchor = styled.span`
  position: relative;
  display: inline-flex;
`;

/*
 * Absolutely placed against the trigger, so that showing it moves nothing else. Shown while the
 * anchor carries the open attribute; the side and edge it takes are attributes too, chosen by the
 * behaviour so it stays on screen (no style attribute under the site's CSP).
 */
const Bubble = styled.span`
  position: absolute;
  bottom: calc(100% + ${OFFSET_PX}px);
  left: 50%;
  translate: -50% 0;
  z-index: 60;
  display: none;
  width: max-content;
  max-width: min(18rem, calc(100vw - ${2 * EDGE_PX}px));
  padding: 0.375rem 0.625rem;
  border-radius: ${radius.sm};
  background: ${color.ink};
  color: #fff;
  font-size: ${text.xs};
  font-weight: 500;
  line-height: 1.4;
  text-align: center;
  white-space: normal;
  box-shadow: 0 4px 14px rgba(15, 23, 42, 0.2);
  /* Bridges the gap to the trigger, so the pointer can move onto the text (WCAG 1.4.13). */
  &::before { content: ''; position: absolute; top: 100%; left: 0; right: 0; height: ${OFFSET_PX}px; }
  [${OPEN_ATTRIBUTE}] > & { display: block; animation: ${appear} 120ms ease-out; }
  &[data-side='bottom'] { top: calc(100% + ${OFFSET_PX}px); bottom: auto; }
  &[data-side='bottom']::before { top: auto; bottom: 100%; }
  &[data-align='start'] { left: 0; translate: none; }
  &[data-align='end'] { left: auto; right: 0; translate: none; }
  @media (prefers-reduced-motion: reduce) { [${OPEN_ATTRIBUTE}] > & { animation: none; } }
`;

export interface TooltipProps {
  /** A short description of the trigger; it becomes the trigger's accessible description. */
  content: ReactNode;
  /** One element that takes focus (a button or link) and passes aria-describedby on. */
  children: ReactElement<{ 'aria-describedby'?: string }>;
}

/**
 * A tooltip in the WAI-ARIA pattern (https://www.w3.org/WAI/ARIA/apg/patterns/tooltip/). This is
 * its markup only: the text is always in the document (hidden while closed), so screen readers
 * get the description whether or not it is shown and whether or not any script runs. What shows
 * and hides it (pointer rest, keyboard focus, touch, Escape) is one delegated behaviour for the
 * whole document, started on the first interaction with any tooltip (tooltip-activation.ts), so
 * that a tooltip inside a static island, whose HTML React never hydrates, works as well.
 */
export function Tooltip({ content, children }: TooltipProps) {
  const id = useId();
  const describedBy = [children.props['aria-describedby'], id].filter(Boolean).join(' ');
  return (
    <Anchor {...{ [ANCHOR_ATTRIBUTE]: '' }}>
      {cloneElement(children, { 'aria-describedby': describedBy })}
      <Bubble id={id} role="tooltip">
        {content}
      </Bubble>
    </Anchor>
  );
}
