import { useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react';
import styled, { css, keyframes } from 'styled-components';
import { color, radius, shadow, space, text } from '../../../theme/theme';
import { Icon } from '../icon';
import { announcementId } from './toaster';
import { dismissToast, type ToastRecord, type ToastVariant } from './toast-store';
import { plainList } from '../layout-primitives';

/**
 * The visible toasts: cards, timers, swipe to dismiss. Loaded only once a page raises its first
 * toast (or a form page warms it up), so that pages that never show one do not carry it; the
 * region and its live regions stay in the shell (toaster.tsx) and announce at once.
 */

/** Toasts sit 14 px apart and go after a 20 px swipe to the right. */
const TOAST_GAP_PX = 14;
const SWIPE_THRESHOLD_PX = 20;

const List = styled.ol`
  display: flex;
  flex-direction: column;
  gap: ${TOAST_GAP_PX}px;
  ${plainList}
  /* The gaps belong to the list, so moving from one toast to the next does not resume the timers. */
  pointer-events: auto;
`;

const enter = keyframes`
  from { opacity: 0; transform: translateY(1rem); }
  to { opacity: 1; transform: none; }
`;

const variantStyles: Record<ToastVariant, ReturnType<typeof css>> = {
  default: css`
    background: ${color.surface};
    color: ${color.ink};
    border-color: ${color.border};
  `,
  success: css`
    background: ${color.surface};
    color: ${color.ink};
    border-color: ${color.border};
    border-left: 4px solid ${color.success};
    > svg { color: ${color.success}; }
  `,
  destructive: css`
    background: ${color.destructive};
    color: #fff;
    border-color: ${color.destructive};
  `,
};

const Card = styled.li<{ $variant: ToastVariant }>`
  position: relative;
  display: flex;
  align-items: flex-start;
  gap: ${space.sm};
  padding: ${space.md} 3rem ${space.md} ${space.md};
  border: 1px solid;
  border-radius: ${radius.md};
  box-shadow: ${shadow.raised};
  font-size: ${text.sm};
  line-height: 1.45;
  /* Horizontal drags are ours (swipe to dismiss); vertical ones still scroll the page. */
  touch-action: pan-y;
  animation: ${enter} 220ms ease-out;
  &[data-swiping] { user-select: none; cursor: grabbing; }
  > svg { flex-shrink: 0; width: 1.25rem; height: 1.25rem; margin-top: 0.05rem; }
  ${(p) => variantStyles[p.$variant]}
  @media (prefers-reduced-motion: reduce) { animation: none; }
`;

const Body = styled.div`
  display: grid;
  gap: 0.125rem;
  min-width: 0;
  overflow-wrap: anywhere;
`;

const Title = styled.p`
  margin: 0;
  font-weight: 700;
`;

const Description = styled.p`
  margin: 0;
`;

const CloseButton = styled.button`
  position: absolute;
  top: 0.5rem;
  right: 0.5rem;
  display: inline-grid;
  place-items: center;
  width: 2rem;
  height: 2rem;
  padding: 0;
  border: 0;
  border-radius: ${radius.sm};
  background: transparent;
  color: inherit;
  cursor: pointer;
  opacity: 0.8;
  &:hover { opacity: 1; background: rgba(15, 23, 42, 0.08); }
  svg { width: 1rem; height: 1rem; }
`;

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Moves the toast with the finger. The Web Animations API changes how it looks without a style
 * attribute, which our CSP (no 'unsafe-inline' in style-src) and house rules leave out.
 */
function useSwipe(onDismiss: () => void) {
  const drag = useRef<{ startX: number; offset: number; frame: Animation | null } | null>(null);

  const follow = (element: HTMLElement, offset: number) => {
    const state = drag.current;
    if (!state) return;
    const frame = element.animate({ transform: [`translateX(${offset}px)`], opacity: [String(Math.max(0.4, 1 - offset / 200))] }, { duration: 0, fill: 'forwards' });
    state.frame?.cancel();
    state.frame = frame;
    state.offset = offset;
  };

  const end = (event: ReactPointerEvent<HTMLElement>) => {
    const state = drag.current;
    if (!state) return;
    drag.current = null;
    const element = event.currentTarget;
    delete element.dataset.swiping;
    if (event.type === 'pointerup' && state.offset > SWIPE_THRESHOLD_PX) {
      onDismiss();
      return;
    }
    // Short of the threshold: it slides back where it was.
    if (state.offset > 0 && !prefersReducedMotion()) {
      element.animate({ transform: [`translateX(${state.offset}px)`, 'none'] }, { duration: 150, easing: 'ease-out' });
    }
    state.frame?.cancel();
  };

  return {
    onPointerDown(event: ReactPointerEvent<HTMLElement>) {
      if (event.button !== 0 || (event.target instanceof Element && event.target.closest('button'))) return;
      drag.current = { startX: event.clientX, offset: 0, frame: null };
      event.currentTarget.setPointerCapture(event.pointerId);
    },
    onPointerMove(event: ReactPointerEvent<HTMLElement>) {
      const state = drag.current;
      if (!state) return;
      // Only rightwards: the toasts sit against the right edge, so that is the way out.
      const offset = Math.max(0, event.clientX - state.startX);
      if (offset > 0) event.currentTarget.dataset.swiping = '';
      follow(event.currentTarget, offset);
    },
    onPointerUp: end,
    onPointerCancel: end,
  };
}

function ToastCard({ record, paused }: { record: ToastRecord; paused: boolean }) {
  const remaining = useRef(record.duration);
  const dismiss = () => dismissToast(record.id);
  const swipe = useSwipe(dismiss);

  // The clock only runs while nothing holds the toasts: what was left is kept across a pause.
  useEffect(() => {
    if (paused) return undefined;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(record.id), Math.max(0, remaining.current));
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused, record.id]);

  return (
    <Card $variant={record.variant} data-variant={record.variant} {...swipe}>
      {record.variant === 'success' && <Icon name="check" />}
      {/* Assistive technology reads this text from the live region (announcement), not twice. */}
      <Body aria-hidden="true">
        <Title>{record.title}</Title>
        {record.description && <Description>{record.description}</Description>}
      </Body>
      <CloseButton type="button" aria-label="Close notification" aria-describedby={announcementId(record)} onClick={dismiss}>
        <Icon name="close" />
      </CloseButton>
    </Card>
  );
}

export default function ToastList({ toasts, paused, onHoverChange }: { toasts: readonly ToastRecord[]; paused: boolean; onHoverChange: (hovered: boolean) => void }) {
  return (
    <List onPointerEnter={() => onHoverChange(true)} onPointerLeave={() => onHoverChange(false)}>
      {toasts.map((record) => (
        <ToastCard key={record.id} record={record} paused={paused} />
      ))}
    </List>
  );
}
