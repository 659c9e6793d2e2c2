import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatFinding, launchCheck } from '../shared/launch-check';
import { ContentError, compileContent } from './lib/content';

/**
 * `npm run launch-check [-- --content DIR]`: lists, file and field, everything in content/ that is
 * still a placeholder or illustrative. Exit status 0 when nothing is left, 1 when something is,
 * 2 when the content does not even build.
 */
const { values } = parseArgs({ options: { content: { type: 'string' } } });
const contentDir = path.resolve(values.content ?? path.join(__dirname, '..', 'content'));

let findings;
try {
  findings = launchCheck(compileContent(contentDir));
} catch (error) {
  if (error instanceof ContentError) {
    console.error(`Content error in ${error.message}`);
    process.exit(2);
  }
  throw error;
}
for (const finding of findings) console.log(formatFinding(finding));
if (findings.length > 0) {
  console.log(`\n${findings.length} ${findings.length === 1 ? 'thing' : 'things'} to replace before launch. The server refuses to start on an https SITE_URL until they are gone (ALLOW_PLACEHOLDER_CONTENT=1 overrides).`);
  process.exit(1);
}
console.log('Nothing left to replace: no placeholder or illustrative content.');
