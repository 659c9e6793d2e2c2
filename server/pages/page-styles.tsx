import { useContext, type ContextType, type ReactNode } from 'react';
import { StyleSheetContext, type ServerStyleSheet } from 'styled-components';
import { boundedMemo } from './bounded-memo';

type Stylis = ContextType<typeof StyleSheetContext>['stylis'];

/**
 * Far more distinct rules than the site's components produce; should a style ever interpolate a
 * visitor's value, the memo starts again here instead of growing without end.
 */
export const STYLIS_MEMO_LIMIT = 10_000;

const memos = new WeakMap<Stylis, Stylis>();

/**
 * styled-components runs its CSS preprocessor (stylis) on every rule that a new sheet has not met,
 * so each render of a page would preprocess all of the page's CSS again, a large share of the work
 * of a form page rendered for one visitor. stylis returns the same rules for the same arguments, so
 * one memo per process serves every render.
 */
export function memoisedStylis(stylis: Stylis): Stylis {
  const known = memos.get(stylis);
  if (known) return known;
  const rules = boundedMemo<string[]>(STYLIS_MEMO_LIMIT);
  const memoised = Object.assign(
    (css: string, selector = '', prefix = '', componentId = '') =>
      rules(`${selector}\n${prefix}\n${componentId}\n${css}`, () => stylis(css, selector, prefix, componentId)),
    { hash: stylis.hash },
  );
  memos.set(stylis, memoised);
  return memoised;
}

/**
 * Collects the styles of the tree into `sheet`, as `sheet.collectStyles(tree)` does, through the
 * memoised stylis.
 */
export function CollectStyles({ sheet, children }: { sheet: ServerStyleSheet; children: ReactNode }) {
  const parent = useContext(StyleSheetContext);
  return <StyleSheetContext.Provider value={{ ...parent, styleSheet: sheet.instance, stylis: memoisedStylis(parent.stylis) }}>{children}</StyleSheetContext.Provider>;
}
