import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { nameFromPage, type NameSign } from '../../server/business/business-name';
import { nameKey, siteOf } from '../../server/business/names';
import { analyseHomePage } from '../../server/site-check/analysers/home-page';

/**
 * The labelled corpus of home pages in the shapes UK small firms use, read as the site check reads
 * a page and the probe reads the name from it; shared by its test and by scripts/name-corpus.ts,
 * which prints the score docs/business-name.md states.
 */

interface CorpusPage {
  id: string;
  shape: string;
  site: string;
  keywords: string;
  products?: string;
  html: string;
  /** The name a careful person reads, or "none". */
  name: string;
  accept?: string[];
  why: string;
}

export interface CorpusMiss {
  id: string;
  shape: string;
  expected: string;
  read: string | null;
  signs: NameSign[];
  title: string | null;
}

const CORPUS = path.resolve(__dirname, '..', 'fixtures', 'business-names', 'home-pages.yaml');

export function corpusPages(): CorpusPage[] {
  return parse(readFileSync(CORPUS, 'utf8')) as CorpusPage[];
}

/** What the code reads from one page of the corpus. */
export function readCorpusPage(page: CorpusPage) {
  const analysis = analyseHomePage({ status: 200, url: page.site, contentType: 'text/html', text: page.html, truncated: false }, {});
  return nameFromPage(analysis, siteOf(page.site), { keywords: page.keywords, products: page.products ?? '' });
}

/** Whether a name read is the labelled one, or one of the forms a person equally accepts (compared as names are). */
export function readRight(page: CorpusPage, read: string | null): boolean {
  if (page.name === 'none') return read === null;
  return read !== null && [page.name, ...(page.accept ?? [])].some((name) => nameKey(name) === nameKey(read));
}

export function scoreNameCorpus() {
  const pages = corpusPages();
  const misses: CorpusMiss[] = [];
  let namedRight = 0;
  let noneRight = 0;
  for (const page of pages) {
    const read = readCorpusPage(page);
    if (readRight(page, read.name)) {
      if (page.name === 'none') noneRight += 1;
      else namedRight += 1;
    } else {
      misses.push({ id: page.id, shape: page.shape, expected: page.name === 'none' ? 'none' : JSON.stringify(page.name), read: read.name, signs: read.signs, title: read.title });
    }
  }
  const noneTotal = pages.filter((page) => page.name === 'none').length;
  return {
    total: pages.length,
    right: namedRight + noneRight,
    named: { right: namedRight, total: pages.length - noneTotal },
    none: { right: noneRight, total: noneTotal },
    misses,
  };
}
