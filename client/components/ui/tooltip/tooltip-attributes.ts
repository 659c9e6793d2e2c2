/** The markup contract between the tooltip's markup (tooltip.tsx) and its behaviour. */
export const ANCHOR_ATTRIBUTE = 'data-tooltip';
/** Set on the anchor while its tooltip is shown. */
export const OPEN_ATTRIBUTE = 'data-tooltip-open';
/** The gap between trigger and tooltip. */
export const OFFSET_PX = 8;
