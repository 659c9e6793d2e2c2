import { existsSync } from 'node:fs';
import path from 'node:path';
import { generateContent } from '../../scripts/lib/generate-content';

/** Site constants come from content/ through shared/generated/: written here on a fresh clone. */
export default function unitSetup(): void {
  const root = path.resolve(__dirname, '..', '..');
  if (!existsSync(path.join(root, 'shared', 'generated', 'site.ts'))) generateContent(root);
}
