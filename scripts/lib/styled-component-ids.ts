import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * Gives every styled component a componentId fixed by its file and its place in that file, the
 * job babel-plugin-styled-components does in Babel builds.
 *
 * Without it, styled-components numbers components in the order their modules run. The server
 * runs every page's modules in one order, the browser only the chunks a page needs, in another;
 * the same component then gets other class names on each side. Hydration keeps the server's
 * class names in the DOM, while the client injects a second copy of the rules under its own
 * names (about a hundred rules a page), and any re-render switches the element's classes.
 * With fixed ids both sides produce the same names, and the client reuses the server's rules.
 *
 * It rewrites `styled.tag`, `styled(Component)` (before `<Props>`, a template or `.attrs(`) to
 * `styled.tag.withConfig({ componentId })`. Both esbuild builds (client and server) use it, so
 * the names always agree; test/browser/site.test.ts checks that hydration adds no CSS rule.
 */
const STYLED_FACTORY = /\bstyled(?:\.[a-z][a-z0-9]*|\([A-Za-z_$][\w$.]*\))(?=\s*(?:<|`|\.attrs\())/g;

export function styledComponentIds(root: string): Plugin {
  return {
    name: 'styled-component-ids',
    setup(build) {
      const prefixes = new Map<string, string>();
      build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        const relative = path.relative(root, args.path).split(path.sep).join('/');
        if (!relative.startsWith('client/')) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('styled')) return undefined;
        const prefix = `sc${createHash('sha256').update(relative).digest('hex').slice(0, 6)}`;
        const owner = prefixes.get(prefix);
        if (owner && owner !== relative) throw new Error(`styled-component-ids: ${relative} and ${owner} hash to the same prefix`);
        prefixes.set(prefix, relative);
        let index = 0;
        const contents = source.replace(STYLED_FACTORY, (factory) => `${factory}.withConfig({ componentId: '${prefix}-${(index++).toString(36)}' })`);
        return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
      });
    },
  };
}
