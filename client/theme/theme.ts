/**
 * The design tokens, in one place. Components read them as CSS custom properties (declared once by
 * GlobalStyle), so a token change is one edit and costs no JavaScript at run time.
 */
export const palette = {
  ink: '#0f172a',
  inkMuted: '#475569',
  inkSubtle: '#586478',
  surface: '#ffffff',
  surfaceAlt: '#f5f7fb',
  surfaceDark: '#0b1026',
  surfaceDarkAlt: '#141a3a',
  onDark: '#f8fafc',
  onDarkMuted: '#cbd5e1',
  border: '#e2e8f0',
  borderDark: '#2b3463',
  primary: '#5b21b6',
  primaryHover: '#4c1d95',
  primarySoft: '#ede9fe',
  accent: '#1d4ed8',
  accentBright: '#60a5fa',
  electric: '#22d3ee',
  success: '#047857',
  destructive: '#b91c1c',
  destructiveSoft: '#fef2f2',
  focus: '#f59e0b',
  blue: '#1d4ed8',
  violet: '#6d28d9',
  teal: '#0f766e',
  amber: '#b45309',
  rose: '#be123c',
} as const;

export type PaletteName = keyof typeof palette;

const cssVar = <K extends string>(prefix: string, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, `var(--${prefix}-${key})`])) as Record<K, string>;

export const color = cssVar('color', Object.keys(palette) as PaletteName[]);

export const space = {
  xs: '0.25rem',
  sm: '0.5rem',
  md: '1rem',
  lg: '1.5rem',
  xl: '2rem',
  xxl: '3rem',
  section: 'clamp(3.5rem, 8vw, 6rem)',
} as const;

export const radius = { sm: '0.375rem', md: '0.75rem', lg: '1.25rem', pill: '999px' } as const;

export const font = {
  body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
} as const;

/** A fluid type scale: sizes grow with the viewport between the small and large screen values. */
export const text = {
  xs: '0.8125rem',
  sm: '0.9375rem',
  base: '1.0625rem',
  lg: 'clamp(1.125rem, 1rem + 0.4vw, 1.25rem)',
  xl: 'clamp(1.25rem, 1.1rem + 0.6vw, 1.5rem)',
  h3: 'clamp(1.25rem, 1.1rem + 0.6vw, 1.5rem)',
  h2: 'clamp(1.75rem, 1.4rem + 1.5vw, 2.5rem)',
  h1: 'clamp(2.125rem, 1.5rem + 3vw, 3.75rem)',
} as const;

export const breakpoint = { sm: 640, md: 768, lg: 1024, xl: 1280 } as const;
export const mediaUp = (name: keyof typeof breakpoint) => `@media (min-width: ${breakpoint[name]}px)`;
export const mediaDown = (name: keyof typeof breakpoint) => `@media (max-width: ${breakpoint[name] - 0.02}px)`;

export const shadow = {
  card: '0 1px 2px rgba(15, 23, 42, 0.06), 0 8px 24px rgba(15, 23, 42, 0.06)',
  raised: '0 12px 40px rgba(15, 23, 42, 0.14)',
} as const;

export const layout = { maxWidth: '76rem', proseWidth: '44rem', headerHeight: '4rem' } as const;
