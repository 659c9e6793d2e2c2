import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * react-router 7 ships one large ES module per build, and its package exports point bundlers at
 * the development build. Two things then keep nearly all of it in the client bundle, whatever
 * the app imports:
 *   - the development build's warnings (the production build sets ENABLE_DEV_WARNINGS = false);
 *   - module-level statements esbuild must assume have side effects: `React.createContext()`,
 *     `React.forwardRef()` and `React.memo()` calls without a pure annotation, and
 *     `Link.displayName = "Link"` assignments, which keep every component and context alive.
 * This plugin resolves react-router to its production build, marks those calls pure and drops
 * the displayName lines (React DevTools labels only). With the router, location and navigate
 * hooks the app uses, only those and what they need stay in the bundle.
 *
 * Both edits are pattern-based: if a future release changes its output the patterns simply stop
 * matching, the bundle grows back, and the JavaScript budgets in the build report it.
 */
export function reactRouterProduction(root: string): Plugin {
  const productionEntry = path.join(root, 'node_modules', 'react-router', 'dist', 'production', 'index.mjs');
  return {
    name: 'react-router-production',
    setup(build) {
      build.onResolve({ filter: /^react-router$/ }, () => ({ path: productionEntry }));
      build.onLoad({ filter: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/].*\.mjs$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const contents = source
          .replace(/(=\s*)(React\d*\.(?:createContext|forwardRef|memo)\()/g, '$1/* @__PURE__ */ $2')
          .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm, '');
        return { contents, loader: 'js' };
      });
    },
  };
}
