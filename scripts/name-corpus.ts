// npx tsx scripts/name-corpus.ts [--misses]
// Reads every home page of the labelled corpus (test/fixtures/business-names/home-pages.yaml) as
// the site check and the probe read a prospect's page, and prints how many names are read right,
// how many pages give none, and every page read wrongly: the figures docs/business-name.md states.
import { scoreNameCorpus } from '../test/helpers/name-corpus';

const result = scoreNameCorpus();
const { total, right, named, none, misses } = result;
console.log(`${right} of ${total} read right (${Math.round((right / total) * 100)}%): ${named.right} of ${named.total} names, ${none.right} of ${none.total} "none"`);
for (const miss of misses) console.log(`- ${miss.id} (${miss.shape}): expected ${miss.expected}, read ${miss.read === null ? 'none' : JSON.stringify(miss.read)} [${miss.signs.join(', ')}]; title ${JSON.stringify(miss.title)}`);
