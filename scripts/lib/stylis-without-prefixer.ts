import type { Plugin } from 'esbuild';

/**
 * styled-components 6 adds vendor prefixes only when a StyleSheetManager sets
 * `enableVendorPrefixes` (off by default; the site targets browsers that need none), yet its
 * bundle keeps stylis's prefixer, dead weight in every page's JavaScript budget. The client
 * build swaps stylis's Prefixer module for one that leaves values as they are.
 *
 * The server renders with the real stylis; as long as prefixes stay off, the prefixer never
 * runs on either side and both produce the same CSS. Turning `enableVendorPrefixes` on would
 * need this plugin removed (scripts/build.ts), or the client would insert unprefixed rules.
 */
export function stylisWithoutPrefixer(): Plugin {
  return {
    name: 'stylis-without-prefixer',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]stylis[\\/]src[\\/]Prefixer\.js$/ }, () => ({
        contents: '/** Prefixing is off (scripts/lib/stylis-without-prefixer.ts). */\nexport function prefix(value) { return value }\n',
        loader: 'js',
      }));
    },
  };
}
