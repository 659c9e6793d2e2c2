import { useContext, type ContextType, type ReactNode } from 'react';
import { StyleSheetContext, type ServerStyleSheet } from 'styled-components';
import { oncePerKey } from '../../shared/load-once';

type Stylis = ContextType<typeof StyleSheetContext>['stylis'];

/**
 * Far more distinct rules than the site's components produce; should a style ever interpolate a
 * visitor's value, the memo starts again here instead of growing without end.
 */
const STYLIS_MEMO_LIMIT = 10_000;

/**
 * styled-components runs its CSS preprocessor (stylis) on every rule that a new sheet has not met,
 * so each render of a page would preprocess all of the page's CSS again, a large share of the work
 * of a form page rendered for one visitor. stylis returns the same rules for the same arguments, so
 * one memo per process serves every render.
 */
const memoisedStylis = oncePerKey((stylis: Stylis): Stylis => {
  // The selector, prefix and component id hold no line break; the CSS comes last, whole.
  const rules = oncePerKey((key: string) => {
    const [selector = '', prefix = '', componentId = '', ...css] = key.split('\n');
    return stylis(css.join('\n'), selector, prefix, componentId);
  }, STYLIS_MEMO_LIMIT);
  return Object.assign((css: string, selector = '', prefix = '', componentId = '') => rules(`${selector}\n${prefix}\n${componentId}\n${css}`), { hash: stylis.hash });
});

/**
 * Collects the styles of the tree into `sheet`, as `sheet.collectStyles(tree)` does, through the
 * memoised stylis.
 */
export function CollectStyles({ sheet, children }: { sheet: ServerStyleSheet; children: ReactNode }) {
  const parent = useContext(StyleSheetContext);
  return <StyleSheetContext.Provider value={{ ...parent, styleSheet: sheet.instance, stylis: memoisedStylis(parent.stylis) }}>{children}</StyleSheetContext.Provider>;
}
