import { existsSync } from 'node:fs';
import path from 'node:path';
import { generateContent } from '../../scripts/lib/generate-content';

/**
 * Site constants, the visibility probe's questions, page words and platforms, and the full audit's words and sources come from content/ through shared/generated/:
 * written here on a fresh clone, or one whose last build predates a module the unit tests read.
 */
export default function unitSetup(): void {
  const root = path.resolve(__dirname, '..', '..');
  const read = ['site.ts', 'probe-prompts.ts', 'probe-page-words.ts', 'probe-platforms.ts', 'audit-report.ts', 'audit-sources.ts'];
  if (read.some((file) => !existsSync(path.join(root, 'shared', 'generated', file)))) generateContent(root);
}
