import { createGlobalStyle } from 'styled-components';
import { color, font, palette, text } from './theme';

const declarations = Object.entries(palette)
  .map(([name, value]) => `--color-${name}: ${value};`)
  .join('\n');

export const GlobalStyle = createGlobalStyle`
  :root {
    ${declarations}
    color-scheme: light;
  }
  *, *::before, *::after { box-sizing: border-box; }
  /* A static island's wrapper (components/static-island.tsx) takes no part in layout. */
  [data-island] { display: contents; }
  /* Clears the sticky header when the browser scrolls to an anchor or an invalid field. */
  html { -webkit-text-size-adjust: 100%; scroll-padding-top: 7rem; }
  body {
    margin: 0;
    font-family: ${font.body};
    font-size: ${text.base};
    line-height: 1.65;
    color: ${color.ink};
    background: ${color.surface};
    text-rendering: optimizeLegibility;
    -webkit-font-smoothing: antialiased;
  }
  h1, h2, h3, h4 { line-height: 1.2; margin: 0 0 0.5em; letter-spacing: -0.015em; }
  p { margin: 0 0 1em; }
  img, svg { display: block; max-width: 100%; }
  a { color: ${color.accent}; text-underline-offset: 0.18em; }
  a:hover { color: ${color.primary}; }
  button, input, select, textarea { font: inherit; color: inherit; }
  :focus-visible { outline: 3px solid ${color.focus}; outline-offset: 2px; border-radius: 2px; }
  .visually-hidden {
    position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
    overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after {
      animation-duration: 0.01ms !important; animation-iteration-count: 1 !important;
      transition-duration: 0.01ms !important; scroll-behavior: auto !important;
    }
  }
`;
