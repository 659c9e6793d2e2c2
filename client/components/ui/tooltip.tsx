import {
  cloneElement,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import styled, { css, keyframes } from 'styled-components';
import { color, radius, text } from '../../theme/theme';

/**
 * A tooltip opens once the pointer has rested 700 ms on its trigger; within 300 ms of one closing,
 * the next opens at once (Radix's delayDuration and skipDelayDuration).
 */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
const OFFSET_PX = 8;
const EDGE_PX = 8;

/**
 * Shared by every tooltip on the page: one is open at a time, and a pointer that moves on to the
 * next trigger within the skip delay of the last one closing opens it at once.
 */
let lastClosedAt = Number.NEGATIVE_INFINITY;
let closeCurrent: (() => void) | null = null;

type Side = 'top' | 'bottom';
type Align = 'center' | 'start' | 'end';

const Anchor = styled.span`
  position: relative;
  display: inline-flex;
`;

const appear = keyframes`
  from { opacity: 0; scale: 0.96; }
  to { opacity: 1; scale: 1; }
`;

const sides: Record<Side, ReturnType<typeof css>> = {
  top: css`
    bottom: calc(100% + ${OFFSET_PX}px);
    &::before { top: 100%; }
  `,
  bottom: css`
    top: calc(100% + ${OFFSET_PX}px);
    &::before { bottom: 100%; }
  `,
};

const aligns: Record<Align, ReturnType<typeof css>> = {
  center: css`left: 50%; translate: -50% 0;`,
  start: css`left: 0;`,
  end: css`right: 0;`,
};

/*
 * Absolutely placed against the trigger, so that showing it moves nothing else; which side and
 * edge it takes are classes (no style attribute under our CSP), chosen so it stays on screen.
 */
const Bubble = styled.span<{ $side: Side; $align: Align }>`
  position: absolute;
  z-index: 60;
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
  animation: ${appear} 120ms ease-out;
  /* Bridges the gap to the trigger, so the pointer can move onto the text (WCAG 1.4.13). */
  &::before { content: ''; position: absolute; left: 0; right: 0; height: ${OFFSET_PX}px; }
  ${(p) => sides[p.$side]}
  ${(p) => aligns[p.$align]}
  &[hidden] { display: none; }
  @media (prefers-reduced-motion: reduce) { animation: none; }
`;

export interface TooltipProps {
  /** A short description of the trigger; it becomes the trigger's accessible description. */
  content: ReactNode;
  /** One element that takes focus (a button or link) and passes aria-describedby on. */
  children: ReactElement<{ 'aria-describedby'?: string }>;
}

/**
 * A tooltip in the WAI-ARIA pattern (https://www.w3.org/WAI/ARIA/apg/patterns/tooltip/): shown
 * after a pointer rests on the trigger for 700 ms, or at once on keyboard focus; hidden on
 * Escape, blur, pointer leave and press. The text is always in the document (hidden while
 * closed), so screen readers get the description whether or not it is shown.
 */
export function Tooltip({ content, children }: TooltipProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [placement, setPlacement] = useState<{ side: Side; align: Align }>({ side: 'top', align: 'center' });
  const anchorRef = useRef<HTMLSpanElement>(null);
  const bubbleRef = useRef<HTMLSpanElement>(null);
  const openRef = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const hide = useCallback(() => {
    clearTimeout(timer.current);
    if (!openRef.current) return;
    openRef.current = false;
    lastClosedAt = Date.now();
    if (closeCurrent === hide) closeCurrent = null;
    setOpen(false);
  }, []);

  const show = useCallback(() => {
    clearTimeout(timer.current);
    if (openRef.current) return;
    if (closeCurrent && closeCurrent !== hide) closeCurrent();
    closeCurrent = hide;
    openRef.current = true;
    setOpen(true);
  }, [hide]);

  useEffect(() => () => {
    clearTimeout(timer.current);
    if (closeCurrent === hide) closeCurrent = null;
  }, [hide]);

  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') hide();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, hide]);

  // Measured before paint: above the trigger when there is room, else below; centred unless
  // that would cross the viewport's edge.
  useLayoutEffect(() => {
    const anchor = anchorRef.current;
    const bubble = bubbleRef.current;
    if (!open || !anchor || !bubble) return;
    const trigger = anchor.getBoundingClientRect();
    const { width, height } = bubble.getBoundingClientRect();
    const side: Side = trigger.top - height - OFFSET_PX < 0 ? 'bottom' : 'top';
    const left = trigger.left + trigger.width / 2 - width / 2;
    const align: Align = left < EDGE_PX ? 'start' : left + width > document.documentElement.clientWidth - EDGE_PX ? 'end' : 'center';
    setPlacement((current) => (current.side === side && current.align === align ? current : { side, align }));
  }, [open]);

  const onPointerEnter = (event: PointerEvent) => {
    // A touch has no hover; its tap would show and hide the tooltip in one go.
    if (event.pointerType === 'touch') return;
    clearTimeout(timer.current);
    if (Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS || closeCurrent) show();
    else timer.current = setTimeout(show, TOOLTIP_DELAY_MS);
  };

  const onFocus = (event: FocusEvent) => {
    // Keyboard focus only: a click focuses the trigger too, and then the tooltip is in the way.
    if (event.target instanceof Element && event.target.matches(':focus-visible')) show();
  };

  const onBlur = (event: FocusEvent) => {
    if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) hide();
  };

  const describedBy = [children.props['aria-describedby'], id].filter(Boolean).join(' ');

  return (
    <Anchor ref={anchorRef} onPointerEnter={onPointerEnter} onPointerLeave={hide} onPointerDown={hide} onFocus={onFocus} onBlur={onBlur}>
      {cloneElement(children, { 'aria-describedby': describedBy })}
      <Bubble ref={bubbleRef} id={id} role="tooltip" hidden={!open} $side={placement.side} $align={placement.align}>
        {content}
      </Bubble>
    </Anchor>
  );
}
