import { ANCHOR_ATTRIBUTE, OFFSET_PX, OPEN_ATTRIBUTE } from './tooltip-attributes';

/**
 * A tooltip opens once the pointer has rested 700 ms on its trigger; within 300 ms of one closing,
 * the next opens at once (Radix's delayDuration and skipDelayDuration). Keyboard focus opens it at
 * once; a touch on the trigger toggles it, a touch anywhere else closes it; Escape, blur, the
 * pointer leaving and a mouse press close it. One tooltip is open at a time.
 */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
const EDGE_PX = 8;

let openAnchor: HTMLElement | null = null;
let lastClosedAt = Number.NEGATIVE_INFINITY;
let timer: ReturnType<typeof setTimeout> | undefined;

const anchorOf = (target: EventTarget | null): HTMLElement | null =>
  target instanceof Element ? target.closest<HTMLElement>(`[${ANCHOR_ATTRIBUTE}]`) : null;

const leaves = (anchor: HTMLElement, next: EventTarget | null) => !(next instanceof Node && anchor.contains(next));

function show(anchor: HTMLElement) {
  clearTimeout(timer);
  if (openAnchor === anchor) return;
  if (openAnchor) hide();
  openAnchor = anchor;
  const bubble = anchor.querySelector<HTMLElement>('[role="tooltip"]');
  if (bubble) {
    delete bubble.dataset.side;
    delete bubble.dataset.align;
  }
  anchor.setAttribute(OPEN_ATTRIBUTE, '');
  if (bubble) place(anchor, bubble);
}

function hide() {
  clearTimeout(timer);
  if (!openAnchor) return;
  openAnchor.removeAttribute(OPEN_ATTRIBUTE);
  openAnchor = null;
  lastClosedAt = Date.now();
}

/** Above the trigger when there is room, else below; centred unless that would cross the viewport's edge. */
function place(anchor: HTMLElement, bubble: HTMLElement) {
  const trigger = anchor.getBoundingClientRect();
  const { width, height } = bubble.getBoundingClientRect();
  if (trigger.top - height - OFFSET_PX < 0) bubble.dataset.side = 'bottom';
  const left = trigger.left + trigger.width / 2 - width / 2;
  if (left < EDGE_PX) bubble.dataset.align = 'start';
  else if (left + width > document.documentElement.clientWidth - EDGE_PX) bubble.dataset.align = 'end';
}

const handlers = {
  pointerover(event: PointerEvent) {
    // A touch has no hover: its tap is handled on pointerdown.
    if (event.pointerType === 'touch') return;
    const anchor = anchorOf(event.target);
    if (!anchor || anchor === openAnchor || !leaves(anchor, event.relatedTarget)) return;
    clearTimeout(timer);
    if (Date.now() - lastClosedAt < TOOLTIP_SKIP_DELAY_MS || openAnchor) show(anchor);
    // The pointer may have moved on while the delay ran (or while this module loaded).
    else timer = setTimeout(() => anchor.matches(':hover') && show(anchor), TOOLTIP_DELAY_MS);
  },
  pointerout(event: PointerEvent) {
    // A touch pointer leaves when the finger lifts: the tapped tooltip stays until the next touch.
    if (event.pointerType === 'touch') return;
    const anchor = anchorOf(event.target);
    if (!anchor || !leaves(anchor, event.relatedTarget)) return;
    clearTimeout(timer);
    if (anchor === openAnchor) hide();
  },
  pointerdown(event: PointerEvent) {
    const anchor = anchorOf(event.target);
    if (event.pointerType === 'touch' && anchor) {
      if (anchor === openAnchor) hide();
      else show(anchor);
      return;
    }
    // A mouse press on the trigger acts on it, and the tooltip would be in the way; a press or a
    // touch elsewhere closes it.
    hide();
  },
  focusin(event: FocusEvent) {
    // Keyboard focus only: a click or a tap focuses the trigger too.
    const anchor = anchorOf(event.target);
    if (anchor && event.target instanceof Element && event.target.matches(':focus-visible')) show(anchor);
  },
  focusout(event: FocusEvent) {
    const anchor = anchorOf(event.target);
    if (anchor && anchor === openAnchor && leaves(anchor, event.relatedTarget)) hide();
  },
  keydown(event: KeyboardEvent) {
    if (event.key === 'Escape') hide();
  },
};

type Handled = keyof typeof handlers;
const handle = (event: Event) => (handlers[event.type as Handled] as (event: Event) => void)(event);

/** Listens for the whole document, then acts on the event that started the tooltips. */
export function startTooltips(first: Event): void {
  for (const type of Object.keys(handlers)) document.addEventListener(type, handle, true);
  handle(first);
}
