import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { StructuredTextItem } from 'unpdf';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import { composeAudit } from '../../server/reports/audit/compose-audit';
import { auditReportUrl } from '../../server/reports/private-addresses';
import { analyseSitemap } from '../../server/site-check/analysers/sitemap';
import { newCheckToken } from '../../server/site-check/check-store';
import { scoreFindings } from '../../server/site-check/scoring';
import { auditInput } from '../fixtures/audit-document';
import { ROOT } from '../helpers/locations';
import { sharedBrowser } from '../helpers/shared-site';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * The full audit's report on paper: Chromium prints a report a run composes to an A4 PDF, as
 * "Save as PDF" does, and the PDF itself is read back page by page (pdf.js, through unpdf) to
 * check what a reader gets: not too many pages, no page left nearly empty, each heading on the
 * page of what it introduces, nothing wider than the paper, every table's every cell printed,
 * and the words as sentences. Beside it, the page as print lays it out, at the paper's width.
 *
 * On 2026-11-29, before the print rules of docs/audit-report.md ("On paper"), this report
 * printed as 18 pages; a page held only the competitor section's heading and two paragraphs, and
 * the share-of-voice table was wider than the paper.
 */

/** A4 less the report's @page margins (18 mm 16 mm 20 mm): its width in CSS pixels, and its edges in PDF points (from the bottom left). */
const mm = (length: number) => (length / 25.4) * 72;
const PRINTABLE_PX = Math.floor(((210 - 16 - 16) / 25.4) * 96);
const RIGHT_EDGE_PT = mm(210 - 16);
const TOP_PT = mm(297 - 18);
const PRINTABLE_HEIGHT_PT = mm(297 - 18 - 20);
/**
 * Pages before the print rules (2026-11-29), and the most the report may take now: 10 on that day;
 * 12 once its run's answers about the business added their actions to the plan, 14 with the section
 * of what the assistants say (two pages: its four assistants, each kept whole); and a page for
 * words that grow.
 */
const PAGES_BEFORE = 18;
const MOST_PAGES = 15;
/** A page (but the last) with fewer words than this, or whose words end before this share of its height, is nearly empty. */
const NEARLY_EMPTY = 40;
const FILLED_AT_LEAST = 1 / 3;

/** One page of the PDF: its text as pdf.js reads it (a line a "\n"), how far down the page its words reach (0 to 1 of the printable height), and the right edge of its rightmost word, in points. */
interface PdfPage {
  text: string;
  filled: number;
  right: number;
}

/** unpdf (pdf.js) is an ES module, which jest's CommonJS cannot load: it reads the PDF in a Node process of its own. */
const READ_PDF = `
import { extractTextItems } from 'unpdf';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
process.stdout.write(JSON.stringify(await extractTextItems(new Uint8Array(Buffer.concat(chunks)))));
`;

async function readPdf(pdf: Buffer): Promise<PdfPage[]> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', READ_PDF], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(pdf);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`reading the PDF's pages failed (exit ${code})`);
  const { items } = JSON.parse(out) as { items: StructuredTextItem[][] };
  return items.map((page) => {
    const printed = page.filter((item) => item.str.trim() !== '');
    return {
      text: page.map((item) => item.str + (item.hasEOL ? '\n' : '')).join(''),
      filled: (TOP_PT - Math.min(TOP_PT, ...printed.map((item) => item.y))) / PRINTABLE_HEIGHT_PT,
      right: Math.max(0, ...printed.map((item) => item.x + item.width)),
    };
  });
}

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);
/** A page's words as one line: a word broken after its hyphen at a line's end joined again, spaces collapsed. */
const flat = (text: string) => text.replace(/(\S-)\n/g, '$1').replace(/\s+/g, ' ').trim();

/**
 * The report a run composes (test/fixtures/audit-document.ts), its sitemap broken as a CMS
 * plugin breaks one: the parser's message ends in a stop of its own ("3:9: incorrect syntax."),
 * which the action's words then end with another.
 */
function composedReport(): AuditDocument {
  const check = auditInput.check;
  if (check?.facts == null) throw new Error('the fixture has no site check');
  const url = 'https://www.acmeplumbing.co.uk/sitemap.xml';
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!- Generated by SEO Plugin ->\n<url><loc>https://www.acmeplumbing.co.uk/</loc></url>\n</urlset>\n`;
  const { error } = analyseSitemap({ text, truncated: false, url });
  const facts = { ...check.facts, sitemap: { url, fromRobots: true, urls: 0, parses: false, detail: `the sitemap robots.txt names (${url}) does not parse: ${error}` } };
  const { score, findings } = scoreFindings(facts);
  return composeAudit({ ...auditInput, check: { ...check, score, findings, facts } });
}

/** What the page, laid out for print at the paper's width, says it holds. */
interface Printed {
  /** Every word the page prints, where a word ends at a space or at the edge of an element that is not phrasing (a paragraph, a cell, a chart's label), never at a link's or a <strong>'s. */
  words: string[];
  /** Words that run on over a phrasing element's edge from a lower-case letter, a figure or a stop into a capital ("syntax.Where"). */
  joined: string[];
  /** Each heading and table caption, with the first words of what follows it. */
  headings: { text: string; next: string }[];
  /** Each section that has a figure: its heading, its first paragraph's first words, and the first two labels its first figure prints. */
  figures: { heading: string; lead: string; labels: string[] }[];
  /** Each table: its id and every cell's words. */
  tables: { id: string; cells: string[] }[];
  /** What is wider than the paper. */
  tooWide: string[];
  /** Tables whose column headings would not repeat on each page they run onto. */
  headersNotRepeated: string[];
  /** The smallest a chart's words print, in points. */
  smallestChartText: number;
}

async function printedLayout(page: Page): Promise<Printed> {
  return page.evaluate((printable) => {
    const PHRASING = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'I', 'KBD', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME', 'U', 'VAR']);
    const UNPRINTED = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'TITLE', 'DESC']);
    const generated = (element: Element, which: '::before' | '::after') => {
      const match = /^"((?:[^"\\]|\\.)*)"/.exec(getComputedStyle(element, which).content);
      return match?.[1]?.replace(/\\(.)/g, '$1') ?? '';
    };
    // Where a phrasing element starts or ends, in a run; taken out of the words.
    const EDGE = '\u0001';
    /** The runs of text an element prints, cut at every element that is not phrasing. */
    const runsOf = (root: Element): string[] => {
      const runs: string[] = [];
      let run = '';
      const cut = () => {
        runs.push(run);
        run = '';
      };
      const walk = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          run += (node as Text).data;
          return;
        }
        if (!(node instanceof Element)) return;
        const tag = node.tagName.toUpperCase();
        if (UNPRINTED.has(tag) || getComputedStyle(node).display === 'none') return;
        if (tag === 'BR') {
          run += ' ';
          return;
        }
        const inline = PHRASING.has(tag);
        if (inline) run += EDGE;
        else cut();
        // An ordered list's item prints its number.
        if (tag === 'LI' && node.parentElement?.tagName === 'OL' && getComputedStyle(node).listStyleType === 'decimal') run += `${[...node.parentElement.children].indexOf(node) + 1}. `;
        run += generated(node, '::before');
        for (const child of node.childNodes) walk(child);
        run += generated(node, '::after');
        if (inline) run += EDGE;
        else cut();
      };
      walk(root);
      cut();
      return runs;
    };
    const marked = (root: Element | null) => (root === null ? [] : runsOf(root).flatMap((run) => run.split(/\s+/)));
    const words = (root: Element | null) => marked(root).map((word) => word.replaceAll(EDGE, '')).filter(Boolean);
    const firstWords = (root: Element | null, count: number) => words(root).slice(0, count).join(' ');
    const main = document.querySelector('main');
    if (!main) throw new Error('no <main>');

    const all = new Set(words(document.body));
    const joined = marked(document.body).filter((word) => new RegExp(`[\\p{Ll}\\p{N}.,;:!?)]${EDGE}+\\p{Lu}`, 'u').test(word)).map((word) => word.replaceAll(EDGE, ''));

    const shown = (element: Element) => element.getClientRects().length > 0;
    const headings = [...main.querySelectorAll('h1, h2, h3, caption')].filter(shown).map((heading) => {
      // What follows a caption is its table's column headings; what follows a heading, its next sibling.
      const next = heading.tagName === 'CAPTION' ? heading.parentElement?.querySelector('thead') ?? null : heading.nextElementSibling;
      return { text: words(heading).join(' '), next: firstWords(next, 4) };
    });
    const figures = [...main.querySelectorAll('[data-report-section]')].flatMap((section) => {
      const figure = section.querySelector('figure');
      if (!figure) return [];
      const labels = [...figure.querySelectorAll('text')].filter(shown).slice(0, 2).map((label) => words(label).join(' '));
      return [{ heading: words(section.querySelector('h2')).join(' '), lead: firstWords(section.querySelector('h2 + p'), 5), labels }];
    });
    const tables = [...main.querySelectorAll('table')].map((table) => ({ id: table.id, cells: [...table.querySelectorAll('th, td')].map((cell) => words(cell).join(' ')) }));

    const tooWide: string[] = [];
    if (document.documentElement.scrollWidth > printable) {
      // Which: the innermost elements past the edge.
      const past = [...document.body.querySelectorAll('*')].filter((element) => shown(element) && (element.getBoundingClientRect().right > printable + 0.5 || element.scrollWidth > element.clientWidth + 1));
      const innermost = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
      tooWide.push(`the page: ${document.documentElement.scrollWidth}px (${innermost.slice(0, 3).map((element) => `<${element.tagName.toLowerCase()}> "${words(element).slice(0, 6).join(' ')}"`).join(', ')})`);
    }
    for (const table of main.querySelectorAll('table')) {
      const box = table.parentElement?.clientWidth ?? printable;
      if (table.scrollWidth > Math.min(box, printable) || table.getBoundingClientRect().right > printable + 0.5) tooWide.push(`table #${table.id}: ${table.scrollWidth}px in ${box}px`);
    }
    for (const element of main.querySelectorAll('figure, svg, img, pre')) {
      if (shown(element) && element.getBoundingClientRect().right > printable + 0.5) tooWide.push(`${element.tagName.toLowerCase()}: right edge at ${Math.round(element.getBoundingClientRect().right)}px`);
    }
    const headersNotRepeated = [...main.querySelectorAll('table')].filter((table) => table.tHead && getComputedStyle(table.tHead).display !== 'table-header-group').map((table) => table.id);
    // A chart is drawn to its viewBox and scaled to its box: its words print at their size times the scale.
    const sizes = [...main.querySelectorAll('figure svg')].filter(shown).flatMap((svg) => {
      const scale = svg.getBoundingClientRect().width / ((svg as SVGSVGElement).viewBox.baseVal?.width || 1);
      return [...svg.querySelectorAll('text')].map((label) => parseFloat(getComputedStyle(label).fontSize) * scale * 0.75);
    });
    const smallestChartText = Math.min(...sizes);
    return { words: [...all], joined, headings, figures, tables, tooWide, headersNotRepeated, smallestChartText };
  }, PRINTABLE_PX);
}

const TOKEN = newCheckToken();
let app: TestApp;
let server: Server;
let browser: Browser;
let pages: PdfPage[];
let printed: Printed;
/** "page 3: 72 words to 31%" (of its height), for every page: said with each failure. */
let layout: string;

beforeAll(async () => {
  app = createTestApp({ auditReports: new Map([[TOKEN, composedReport()]]) });
  server = app.app.listen(0, '127.0.0.1');
  [browser] = await Promise.all([sharedBrowser(), once(server, 'listening')]);
  const url = auditReportUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, TOKEN);
  // The paper's width, so that the page's layout in print media is the PDF's.
  const context = await browser.newContext({ viewport: { width: PRINTABLE_PX, height: 1000 } });
  const page = await context.newPage();
  await page.goto(url);
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  await page.emulateMedia({ media: 'print' });
  printed = await printedLayout(page);
  await context.close();
  // AUDIT_PRINT_PDF=FILE keeps the PDF the test reads, to look at (docs/audit-report.md, "On paper").
  if (process.env.AUDIT_PRINT_PDF) writeFileSync(process.env.AUDIT_PRINT_PDF, pdf);
  pages = await readPdf(pdf);
  layout = pages.map((one, index) => `page ${index + 1}: ${wordsOf(one.text).length} words to ${Math.round(one.filled * 100)}%`).join(', ');
});
afterAll(async () => {
  await browser?.close();
  server?.close();
  app?.close();
});

describe('the audit report printed to A4', () => {
  it(`takes at most ${MOST_PAGES} pages (it took ${PAGES_BEFORE})`, () => {
    expect({ pages: pages.length <= MOST_PAGES && pages.length < PAGES_BEFORE ? 'few enough' : `${pages.length} pages`, layout }).toEqual({ pages: 'few enough', layout });
  });

  it(`leaves no page but the last nearly empty (under ${NEARLY_EMPTY} words, or words only in its top third)`, () => {
    const nearlyEmpty = pages
      .slice(0, -1)
      .flatMap((one, index) => (wordsOf(one.text).length < NEARLY_EMPTY || one.filled < FILLED_AT_LEAST ? [`page ${index + 1}: ${flat(one.text).slice(0, 200)}`] : []));
    expect({ nearlyEmpty, layout }).toEqual({ nearlyEmpty: [], layout });
  });

  it('keeps "The questions were asked between ..." on a page with the rest of its section, not on one nearly empty', () => {
    const line = 'The questions were asked between';
    const holding = pages.flatMap((one, index) => (flat(one.text).includes(line) ? [{ one, last: index === pages.length - 1 }] : []));
    expect(holding.length).toBeGreaterThan(0);
    for (const { one, last } of holding) {
      const text = flat(one.text);
      const sentence = text.slice(text.indexOf(line)).replace(/\(UK time\)\..*$/, '');
      const withOthers = wordsOf(text).length - wordsOf(sentence).length >= NEARLY_EMPTY && (last || one.filled >= FILLED_AT_LEAST);
      expect({ withOthers, page: text.slice(0, 300) }).toEqual({ withOthers: true, page: text.slice(0, 300) });
    }
  });

  it('prints every heading and caption on the page of what follows it', () => {
    expect(printed.headings.length).toBeGreaterThan(20);
    const apart = printed.headings.filter(({ text, next }) => !pages.some((one) => flat(one.text).includes(`${text} ${next}`)));
    expect({ apart, layout }).toEqual({ apart: [], layout });
  });

  it('prints each section\'s heading on the page of its first chart (the competitors\' share of voice too)', () => {
    expect(printed.figures.map((figure) => figure.heading)).toEqual(expect.arrayContaining(['Current AI visibility', 'Competitor analysis', 'How AI crawlers see your website']));
    for (const { heading, lead, labels } of printed.figures) {
      expect(labels).toHaveLength(2);
      const page = pages.map((one) => flat(one.text)).find((text) => text.includes(`${heading} ${lead}`));
      const after = page?.slice(page.indexOf(`${heading} ${lead}`)) ?? '';
      const first = after.indexOf(labels[0] ?? '');
      expect({ heading, labels, onItsPage: first > 0 && after.indexOf(labels[1] ?? '', first) > first, layout }).toEqual({ heading, labels, onItsPage: true, layout });
    }
  });

  it('fits every table and chart to the paper\'s width, and repeats a table\'s column headings on each page it runs onto', () => {
    expect(printed.tooWide).toEqual([]);
    // Not by shrinking a chart past reading: its words at least 6.5 pt (the text is 10.5 pt, a table 8.5 pt).
    expect(printed.smallestChartText).toBeGreaterThanOrEqual(6.5);
    expect(printed.headersNotRepeated).toEqual([]);
    // Nothing in the PDF reaches past the right margin.
    expect(pages.flatMap((one, index) => (one.right > RIGHT_EDGE_PT + 1 ? [`page ${index + 1}: a word ends ${Math.round(one.right - RIGHT_EDGE_PT)} pt past the margin`] : []))).toEqual([]);
  });

  it('prints every cell of every table', () => {
    const everything = pages.map((one) => one.text).join('').replace(/\s+/g, '');
    expect(printed.tables.map((table) => table.id)).toEqual(
      expect.arrayContaining(['visibility-table', 'said-chatgpt-table', 'said-claude-table', 'said-gemini-table', 'said-perplexity-table', 'share-table', 'cited-table', 'keywords-table', 'readiness-table']),
    );
    const missing = printed.tables.flatMap((table) => table.cells.filter((cell) => !everything.includes(cell.replace(/\s+/g, ''))).map((cell) => `${table.id}: ${cell}`));
    expect(missing).toEqual([]);
  });

  it('reads as sentences: no doubled stop, the sentences whole', () => {
    const text = pages.map((one) => flat(one.text)).join(' ');
    // What the report printed before: a parser's message ending in its own stop, then the action's.
    const around = (at: number) => text.slice(Math.max(0, at - 60), at + 40);
    expect([...text.matchAll(/(?<!\.)[.!?,;:]\.(?!\.)/g)].map((match) => around(match.index))).toEqual([]);
    const sentences = [
      'When we checked: the sitemap robots.txt names (https://www.acmeplumbing.co.uk/sitemap.xml) does not parse: 3:9: incorrect syntax. Where we measured it: How AI crawlers see your website',
      'How often each assistant named Acme Plumbing Ltd when asked the questions your customers ask, with the range a sample of this size allows: ask again tomorrow and the count will likely fall within it.',
      'The questions were asked between 10:00 and 10:10 on 20 November 2026 (UK time). In every answer we looked for',
      'Tone and claims were read by gpt-5-nano-2025-08-07, up to 8 answers of each assistant.',
      'Who the assistants name instead of Acme Plumbing Ltd, and which websites they cite when they answer: those sites are where you need to be.',
      'Made on 20 November 2026. The questions were asked between 10:00 and 10:10 on 20 November 2026 (UK time).',
    ];
    expect(sentences.filter((sentence) => !text.includes(sentence))).toEqual([]);
  });

  it('runs no two elements\' words together', () => {
    // Every word printed is a word of the page: a word of the PDF that is no word of the page is
    // two elements' words run together ("syntax.Where", "HighEffort"), or words of an element
    // that should not print. A long word broken across two lines prints as two pieces of it.
    expect(printed.joined).toEqual([]);
    const known = new Set(printed.words);
    const isPiece = (word: string) => printed.words.some((whole) => whole.includes(word));
    const runTogether = pages.flatMap((one, index) =>
      one.text.split('\n').flatMap((line) => {
        const inLine = wordsOf(line);
        return inLine.filter((word, at) => !known.has(word) && !/^[•◦▪–-]$/.test(word) && !((at === 0 || at === inLine.length - 1) && isPiece(word))).map((word) => `page ${index + 1}: "${word}" in "${line}"`);
      }),
    );
    expect(runTogether).toEqual([]);
  });
});
