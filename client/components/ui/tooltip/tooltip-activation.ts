import { ANCHOR_ATTRIBUTE } from './tooltip-attributes';

/** What can first bring a tooltip to life: a pointer arriving, keyboard focus, a touch. */
const FIRST_EVENTS = ['pointerover', 'focusin', 'pointerdown'] as const;

/**
 * Starts the tooltips' behaviour on the first interaction with any tooltip trigger: until then
 * the page downloads none of it (most visits never touch a tooltip). The first event is handed
 * on, so that the focus or touch that started it also shows its tooltip.
 */
export function installTooltips(): void {
  const onFirst = (event: Event) => {
    if (!(event.target instanceof Element) || !event.target.closest(`[${ANCHOR_ATTRIBUTE}]`)) return;
    // A finger "arrives" just before it presses: wait for the press, which is what a touch acts on.
    if (event.type === 'pointerover' && (event as PointerEvent).pointerType === 'touch') return;
    for (const type of FIRST_EVENTS) document.removeEventListener(type, onFirst, true);
    import('./tooltip-behaviour').then(
      (behaviour) => behaviour.startTooltips(event),
      // Not fetched (a dropped connection): the next interaction tries again.
      () => installTooltips(),
    );
  };
  for (const type of FIRST_EVENTS) document.addEventListener(type, onFirst, true);
}
