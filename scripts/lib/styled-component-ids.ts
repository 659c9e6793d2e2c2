import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { transformAsync } from '@babel/core';
import type { Plugin } from 'esbuild';

/**
 * Gives every styled component of the client code a componentId fixed by its file and its place
 * in that file, with styled-components' own Babel plugin (babel-plugin-styled-components, its
 * `ssr` option), run on the source before esbuild compiles it.
 *
 * Without it, styled-components numbers components in the order their modules run. The server
 * runs every page's modules in one order, the browser only the chunks a page needs, in another;
 * the same component then gets other class names on each side. Hydration keeps the server's
 * class names in the DOM, while the client injects a second copy of the rules under its own
 * names, and any re-render switches the element's classes. Both esbuild builds (client and
 * server) use this plugin, so the names always agree; test/browser/site.test.ts checks that
 * hydration adds no CSS rule.
 *
 * Babel only parses the TypeScript here (the syntax plugin); esbuild still compiles it.
 */
export function styledComponentIds(root: string): Plugin {
  return {
    name: 'styled-component-ids',
    setup(build) {
      build.onLoad({ filter: /[\\/]client[\\/].*\.tsx?$/ }, async (args) => {
        if (!path.relative(root, args.path).startsWith(`client${path.sep}`)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('styled-components')) return undefined;
        const result = await transformAsync(source, {
          filename: args.path,
          cwd: root,
          root,
          babelrc: false,
          configFile: false,
          sourceMaps: false,
          plugins: [
            ['@babel/plugin-syntax-typescript', { isTSX: args.path.endsWith('.tsx') }],
            ['babel-plugin-styled-components', { ssr: true, displayName: false, fileName: false, minify: true, transpileTemplateLiterals: true, pure: true }],
          ],
        });
        if (!result?.code) throw new Error(`styled-component-ids: Babel returned nothing for ${args.path}`);
        return { contents: result.code, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      });
    },
  };
}
