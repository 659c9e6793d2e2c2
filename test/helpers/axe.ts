import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';

/*
 * axe-core with the WCAG 2.1 A and AA rules and its best practices. axe is injected as a script
 * file, which the site's CSP would refuse: pages checked with it come from a browser context
 * opened with bypassCSP (site.test.ts checks the CSP itself on a normal context).
 */
const AXE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Every page of the route table, and one that is not (the not-found page). */
export const everyPagePath = [...appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path), '/no-such-page'];

export interface Violation {
  rule: string;
  impact: string | null | undefined;
  help: string;
  elements: string[];
}

/** What axe finds on the page as it is now, reduced to what a reader of a failure needs. */
export async function violations(page: Page): Promise<Violation[]> {
  // What a visitor looks at is the state after a transition, not its middle: a toast fading in
  // has, for a moment, too little contrast. Finite animations end first (a looping one never
  // would, and is left running).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const results = await page.evaluate(
    (tags) => (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }),
    AXE_TAGS,
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    elements: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.html.slice(0, 160)}`),
  }));
}
