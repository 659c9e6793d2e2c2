import type { FixtureAnswer } from './fixture-sites';

/**
 * What a site that means harm sends the site check: each the worst of its kind for a reader, at
 * the size the checker reads (1 MB a file, 500 KiB of robots.txt). The tests check against them,
 * and `npm run bench` measures what each costs and what the pages keep meanwhile.
 */

const MB = 1024 * 1024;
const page = (body: string): FixtureAnswer => ({ headers: { 'Content-Type': 'text/html; charset=utf-8' }, body });
const head = '<!doctype html><html lang="en"><head><title>Hostile</title></head><body>';

/** A path of this many characters, which robots.txt rules are matched against. */
export const LONG_PATH = `/${'a'.repeat(1999)}`;

export const hostileSites = {
  /** 1 MB of nested unclosed tags: a tree builder's cost grows with the square of them. */
  'nested unclosed tags': {
    path: '/',
    paths: (): Record<string, FixtureAnswer> => ({ '/': page(head + '<i>'.repeat(Math.floor((MB - head.length) / 3))) }),
  },
  /** One robots.txt rule of 400,000 `*` against a 2,000-character path: pattern times path for a naive matcher, for each agent. */
  'a robots.txt rule of 400,000 *': {
    path: LONG_PATH,
    paths: (): Record<string, FixtureAnswer> => ({
      '/robots.txt': { headers: { 'Content-Type': 'text/plain' }, body: `User-agent: *\nDisallow: /${'*'.repeat(400_000)}b\n` },
      [LONG_PATH]: page(`${head}<p>A page at the end of a long path.</p>`),
    }),
  },
  /** About 140,000 sibling elements: a reader that spreads a child list onto a stack overflows. */
  '140,000 sibling elements': {
    path: '/',
    paths: (): Record<string, FixtureAnswer> => ({ '/': page(`${head}<div>${'<b></b>'.repeat(140_000)}</div>`) }),
  },
  /** One tag of 130,000 attributes (0.9 MB): a tokenizer that looks for each new name among those before it costs their square. */
  'a tag of 130,000 attributes': {
    path: '/',
    paths: (): Record<string, FixtureAnswer> => ({ '/': page(`${head}<div ${Array.from({ length: 130_000 }, (_, index) => `a${index}`).join(' ')}></div><p>After the tag.</p></body></html>`) }),
  },
  /** 20,000 distinct JSON-LD types: a list searched for each new one costs their square. */
  '20,000 JSON-LD types': {
    path: '/',
    paths: (): Record<string, FixtureAnswer> => ({
      '/': page(
        `<!doctype html><html lang="en"><head><title>Types</title><script type="application/ld+json">${JSON.stringify({
          '@context': 'https://schema.org',
          '@graph': [...Array.from({ length: 20_000 }, (_, index) => ({ '@type': `Thing${index}` })), { '@type': 'LocalBusiness', name: 'Hostile Ltd' }],
        })}</script></head><body><p>Types.</p></body></html>`,
      ),
    }),
  },
  /**
   * 1 MB of unclosed list items under a services heading, linking a contact page of one endless
   * run of digits and spaces that never repeats: the most reading the business's facts costs, on
   * both pages a check reads them from (libphonenumber-js given the whole run took 6 s of the
   * check; in windows of 96 characters, the check takes under a second).
   */
  'facts without end, on the page and its contact page': {
    path: '/',
    paths: (): Record<string, FixtureAnswer> => {
      const start = `${head}<a href="/contact">Contact us</a><h2>Our services</h2>`;
      let seed = 7;
      const digits = Array.from({ length: Math.floor((MB - head.length) / 2) }, () => ((seed = (seed * 48271) % 2147483647), seed % 10)).join(' ');
      return {
        '/': page(start + '<ul><li>Roofing'.repeat(Math.floor((MB - start.length) / 15))),
        '/contact': page(head + digits),
      };
    },
  },
  /**
   * Runs of text without a space, as long as a file may be: on the page, punctuation that is no
   * word (each character looked at apart); in llms.txt, a title, a summary and a link never ended.
   * A pattern such as /\S+/ over such a run can exhaust the regular-expression engine's stack.
   */
  'runs without a space, in the page and its llms.txt': {
    path: '/',
    paths: (): Record<string, FixtureAnswer> => {
      const end = '</p><p>Read to the end.</p></body></html>';
      const line = (start: string) => start + 'a'.repeat(Math.floor(MB / 4));
      return {
        '/': page(`${head}<p>${'—'.repeat(Math.floor((MB - head.length - end.length) / 3) - 4)}${end}`),
        '/llms.txt': { headers: { 'Content-Type': 'text/plain' }, body: [line('# '), line('> '), '## Links', line('- [')].join('\n') },
      };
    },
  },
} satisfies Record<string, { path: string; paths: () => Record<string, FixtureAnswer> }>;
