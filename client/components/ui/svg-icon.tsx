/**
 * The icons' drawing, and the few icons the page frame uses (header menu, accordion). Those live
 * here, apart from the full set in icon.tsx, so that a page whose other icons are all in static
 * islands (the home page) loads no icon map at all.
 */
export const shellIconPaths = {
  message: 'M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z',
  menu: 'M3 6h18M3 12h18M3 18h18',
  close: 'M18 6 6 18M6 6l12 12',
  'arrow-right': 'M5 12h14M12 5l7 7-7 7',
};

/** Stroke icons on a 24px grid, in the style of Lucide, drawn inline so they cost no request. */
export function SvgIcon({ d, label, size = 24 }: { d: string; label?: string; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={label ? undefined : true}
      role={label ? 'img' : undefined}
      aria-label={label}
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}

/** Decorative by default (hidden from assistive technology); pass a label when it carries meaning. */
export function ShellIcon({ name, label, size }: { name: keyof typeof shellIconPaths; label?: string; size?: number }) {
  return <SvgIcon d={shellIconPaths[name]} {...(label ? { label } : {})} {...(size ? { size } : {})} />;
}
