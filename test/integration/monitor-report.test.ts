import { parse, type HTMLElement } from 'node-html-parser';
import request from 'supertest';
import { MONITOR_REPORT_PATH } from '../../server/reports/private-addresses';
import { composeTrend } from '../../server/reports/monitor/compose-trend';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import { newCheckToken } from '../../server/site-check/check-store';
import { trendClient, trendDocument, trendRun, trendRuns } from '../fixtures/trend-document';
import { notNamed } from '../fixtures/visibility-probe-answers';
import { capturingLogger } from '../helpers/capturing-logger';
import { checkHtml } from '../helpers/html-checker';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * A client's monitoring report at its private address: private like the audit's report, an
 * address holding nothing to show answers exactly as a client with no finished run, the changes
 * in their sentences (real ones first), the line charts' words equal to their tables', the
 * competitors and questions that changed, what the assistants say run by run, the series note,
 * the latest run in full, tokens kept out of the log, and valid HTML.
 */

jest.setTimeout(120_000);

const reports = new Map<string, TrendDocument>();
let app: TestApp;
beforeAll(() => {
  app = createTestApp({ monitorReports: reports });
});
afterAll(() => app?.close());

function publish(document: TrendDocument = trendDocument): string {
  const token = newCheckToken();
  reports.set(token, document);
  return token;
}

const get = (path: string) => request(app.app).get(path).buffer(true);
const words = (element: HTMLElement | null | undefined) => (element?.structuredText ?? '').replace(/\s+/g, ' ').trim();

async function page(token: string): Promise<{ html: string; main: HTMLElement; root: HTMLElement }> {
  const response = await get(`${MONITOR_REPORT_PATH}/${token}`);
  expect(response.status).toBe(200);
  const root = parse(response.text);
  const main = root.querySelector('main');
  if (!main) throw new Error('no <main>');
  return { html: response.text, main, root };
}

function table(main: HTMLElement, id: string): { columns: string[]; rows: string[][] } {
  const element = main.querySelector(`table#${id}`);
  if (!element) throw new Error(`no table #${id}`);
  return { columns: element.querySelectorAll('thead th').map(words), rows: element.querySelectorAll('tbody tr').map((row) => row.querySelectorAll('th, td').map(words)) };
}

function chart(main: HTMLElement, id: string): { texts: string[]; title: string; desc: string; svg: HTMLElement } {
  const title = main.querySelector(`#${id}-title`);
  const svg = title?.parentNode;
  if (!svg || svg.tagName !== 'SVG') throw new Error(`no chart #${id}`);
  return { texts: svg.querySelectorAll('text').map(words), title: words(title), desc: words(svg.querySelector('desc')), svg };
}

describe('the headers and the token rules', () => {
  it('is private: no cache, no index, no referrer, the strict CSP, and not one script', async () => {
    for (const path of [`${MONITOR_REPORT_PATH}/${publish()}`, `${MONITOR_REPORT_PATH}/${newCheckToken()}`]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.text).toContain('<meta name="robots" content="noindex, follow"');
      expect(response.text).not.toMatch(/<script/i);
      expect(String(response.headers['content-security-policy'])).toContain("default-src 'none'");
    }
  });

  it('an unknown token answers byte for byte like a client with no finished run yet', async () => {
    const noRunYet = publish(composeTrend({ client: trendClient, runs: [] }));
    const removed = publish();
    reports.delete(removed);
    const answers = await Promise.all(
      [noRunYet, newCheckToken(), removed, 'x'.repeat(65), encodeURIComponent('<script>')].map(async (token) => {
        const response = await get(`${MONITOR_REPORT_PATH}/${token}`).set('Accept-Encoding', 'gzip');
        const { date: _date, 'x-request-id': _id, ...headers } = response.headers;
        return { status: response.status, headers, body: response.text };
      }),
    );
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.body).toContain('Your monitoring report is on its way');
    expect(answers[0]?.body).not.toContain('Acme');
  });

  it('a token never reaches the log, and a document of an unknown version is not shown', async () => {
    const { logger, lines } = capturingLogger();
    const logged = createTestApp({ monitorReports: reports, logger });
    try {
      const token = publish();
      const newer = publish({ ...trendDocument, version: 2 as 1 });
      for (const path of [`${MONITOR_REPORT_PATH}/${token}`, `${MONITOR_REPORT_PATH}/${token}?utm_source=mail`, `/MONITOR/${token}`]) await request(logged.app).get(path);
      const response = await request(logged.app).get(`${MONITOR_REPORT_PATH}/${newer}`);
      expect(words(parse(response.text).querySelector('h1'))).toBe('Your monitoring report is on its way');
      const requests = lines.filter((line) => line.msg === 'request completed').map((line) => [(line.req as { url: string }).url, (line.res as { statusCode: number }).statusCode]);
      expect(requests).toEqual([
        ['/monitor/[redacted]', 200],
        ['/monitor/[redacted]?utm_source=mail', 200],
        ['/MONITOR/[redacted]', 404],
        ['/monitor/[redacted]', 200],
      ]);
      expect(lines).toContainEqual(expect.objectContaining({ level: 50, version: 2, msg: 'A monitoring report of an unknown version was asked for: answered as not made yet' }));
      expect(JSON.stringify(lines)).not.toContain(token);
      expect(JSON.stringify(lines)).not.toContain(newer);
    } finally {
      logged.close();
    }
  });
});

describe('the report after three runs', () => {
  it('names the client, lists the sections, then the latest run in the audit report\'s sections', async () => {
    const { main, root } = await page(publish());
    expect(root.querySelectorAll('h1').map(words)).toEqual(['AI visibility, month by month: Acme Plumbing Ltd']);
    expect(words(main.querySelector('dl'))).toContain('Runs compared 3 since 20 September 2026');
    expect(words(main.querySelector('dl'))).toContain('Latest run 20 November 2026');
    expect(main.querySelectorAll('section').map((section) => section.id)).toEqual([
      'changes',
      'visibility-trend',
      'said-trend',
      'share-trend',
      'competitor-changes',
      'question-changes',
      'latest-run',
      'summary',
      'visibility',
      'said',
      'competitors',
      'keywords',
      'recommendations',
      'plan',
      'readiness',
      'about',
    ]);
    expect(main.querySelector('#series-note')).toBeNull();
  });

  it('says the changes in their sentences, the real rise first and marked out', async () => {
    const { main } = await page(publish());
    const items = main.querySelectorAll('#changes li');
    expect(items.map(words)).toEqual([
      'Claude named you in 24 of 41, up from 6 of 41: a real rise.',
      'ChatGPT named you in 11 of 41 (was 14 of 41): within the usual variation.',
      'Gemini named you in 11 of 41 (was 11 of 41): within the usual variation.',
      'Perplexity named you in 21 of 41 (was 21 of 41): within the usual variation.',
    ]);
    expect(items.map((item) => item.querySelector('strong') !== null)).toEqual([true, false, false, false]);
  });

  it('draws visibility per assistant as lines whose key, axis and description are the table\'s words', async () => {
    const { main } = await page(publish());
    const { columns, rows } = table(main, 'visibility-trend-table');
    expect(columns).toEqual(['Run', 'Visibility score', 'AI-readiness score', 'ChatGPT', 'Claude', 'Gemini', 'Perplexity']);
    expect(rows.map((row) => row[0])).toEqual(['20 Sept 2026', '20 Oct 2026', '20 Nov 2026']);
    expect(rows.map((row) => row[4])).toEqual(['3 of 41', '6 of 41', '24 of 41']);
    expect(rows.map((row) => row[1])).toEqual(trendDocument.runs.map((run) => `${run.visibilityScore}/100`));
    const drawn = chart(main, 'visibility-trend-chart');
    expect(drawn.svg.getAttribute('role')).toBe('img');
    expect(drawn.title).toBe('Share of answers naming Acme Plumbing Ltd, per assistant, run by run');
    // The axis: the runs as the table's rows name them; the key: the table's assistant columns.
    expect(drawn.texts).toEqual(['0%', '25%', '50%', '75%', '100%', ...rows.map((row) => row[0]), ...columns.slice(3)]);
    const described = columns.slice(3).map((assistant, index) => `${assistant}: ${rows.map((row) => `${row[0]} ${row[index + 3]}`).join(', ')}`);
    expect(drawn.desc).toBe(`${described.join('; ')}.`);
    // One line per assistant, with a point per run.
    expect(drawn.svg.querySelectorAll('path[fill="none"]')).toHaveLength(4);
  });

  it('draws the share of voice over the runs, the business first, with the table\'s words', async () => {
    const { main } = await page(publish());
    const { columns, rows } = table(main, 'share-trend-table');
    expect(columns).toEqual(['Business', '20 Sept 2026', '20 Oct 2026', '20 Nov 2026']);
    expect(rows[0]).toEqual(['Acme Plumbing Ltd (you)', '10%', '12%', '14%']);
    expect(rows.map((row) => row[0])).toEqual(['Acme Plumbing Ltd (you)', 'Pipe Pros Leeds', 'FlowFix Plumbing & Heating', 'Boiler Doctors', 'Leeds Bathroom Studio', 'Tile & Tap']);
    const drawn = chart(main, 'share-trend-chart');
    expect(drawn.texts.slice(-rows.length)).toEqual(rows.map((row) => row[0]));
    expect(drawn.desc).toBe(`${rows.map((row) => `${row[0]}: ${columns.slice(1).map((run, index) => `${run} ${row[index + 1]}`).join(', ')}`).join('; ')}.`);
  });

  it('lists the competitor new and the one gone, and the questions won and lost', async () => {
    const { main } = await page(publish());
    expect(table(main, 'competitors-new-table').rows).toEqual([['Aire Valley Heating', '28']]);
    expect(table(main, 'competitors-gone-table').rows).toEqual([['Kirkstall Gas Services', '17']]);
    const won = table(main, 'questions-won-table');
    expect(won.columns).toEqual(['Question', 'Named you']);
    expect(won.rows).toEqual(trendDocument.questionsWon.map((item) => [item.question, expect.stringContaining('Claude')]));
    expect(table(main, 'questions-lost-table').rows.map((row) => row[0])).toEqual(trendDocument.questionsLost.map((item) => item.question));
  });

  it('shows the latest run in full, with its own figures', async () => {
    const { main } = await page(publish());
    const visibility = table(main, 'visibility-table');
    expect(visibility.rows.find((row) => row[0] === 'Claude')?.[1]).toMatch(/^24 of 41 \(between \d+ and \d+ of 41\)$/);
  });
});

describe('what the assistants say, run by run', () => {
  it('a row per run, then what was put right since the run before, what is still wrong, and what is new', async () => {
    const { main } = await page(publish());
    expect(words(main.querySelector('#said-trend h2'))).toBe('What the assistants say about you, run by run');
    expect(main.querySelector('nav a[href="#said-trend"]')).not.toBeNull();
    const perRun = table(main, 'said-trend-table');
    expect(perRun.columns).toEqual(['Run', 'Facts given wrong', 'Tone']);
    expect(perRun.rows).toEqual([
      ['20 Sept 2026', 'not checked in this run', 'not checked in this run'],
      ['20 Oct 2026', '2', '2 positive, 3 neutral and 1 mixed, of 6 read closely'],
      ['20 Nov 2026', '2', '2 positive, 3 neutral and 1 negative, of 6 read closely'],
    ]);
    expect(table(main, 'said-put-right-table')).toEqual({
      columns: ['Assistant', 'Fact', 'What it said the run before', 'Your website says'],
      rows: [['ChatGPT', 'Phone number', 'You can reach Acme Plumbing Ltd on 0113 496 0000.', '+44 113 496 0001']],
    });
    expect(table(main, 'said-still-table').rows).toEqual([['Claude', 'Where you are', 'Acme Plumbing Ltd is a plumbing and heating firm based in Harrogate, serving North Yorkshire.', 'Acme Plumbing Ltd: family-run plumbing and heating engineers in Leeds since 1998.']]);
    expect(table(main, 'said-new-table').rows).toEqual([['Perplexity', 'Whether you are open', 'Acme Plumbing Ltd appears to have permanently closed [1].', 'Nothing of the kind: your website is up and trading']]);
    // The latest run's own section, in full, below.
    expect(main.querySelector('#said [data-assistant="claude"] table')).not.toBeNull();
  });

  it('says when there is nothing to compare: the run before not checked, one run, the latest not checked; and nothing of it in a trend made without it', async () => {
    const [first, second, third] = trendRuns;
    if (!first || !second || !third) throw new Error('three runs expected');
    const notBefore = (await page(publish(composeTrend({ client: trendClient, runs: [first, second] })))).main;
    expect(words(notBefore.querySelector('#said-trend'))).toContain('The run before did not check what the assistants say, so there is nothing to compare yet: this is what they get wrong now.');
    expect(words(notBefore.querySelector('#said-wrong-table caption'))).toBe('Wrong in the latest run');
    expect(table(notBefore, 'said-wrong-table').rows.map((row) => row.slice(0, 2))).toEqual([
      ['ChatGPT', 'Phone number'],
      ['Claude', 'Where you are'],
    ]);
    expect(notBefore.querySelector('#said-put-right-table')).toBeNull();

    const one = (await page(publish(composeTrend({ client: trendClient, runs: [third] })))).main;
    expect(words(one.querySelector('#said-trend'))).toContain('With one run there is nothing to compare yet: this is what the assistants get wrong now.');

    const latestUnchecked = trendRun(4, 1, '2026-12-20T10:09:30.000Z', { chatgpt: () => notNamed, claude: () => notNamed });
    const unchecked = (await page(publish(composeTrend({ client: trendClient, runs: [second, third, latestUnchecked] })))).main;
    expect(table(unchecked, 'said-trend-table').rows[2]).toEqual(['20 Dec 2026', 'not checked in this run', 'not checked in this run']);
    expect(words(unchecked.querySelector('#said-trend'))).toContain('The latest run did not check what the assistants say about you.');
    expect(unchecked.querySelector('#said-trend table#said-still-table')).toBeNull();

    const without = (await page(publish(composeTrend({ client: trendClient, runs: [first] })))).main;
    expect(without.querySelector('#said-trend')).toBeNull();
    expect(without.querySelector('nav a[href="#said-trend"]')).toBeNull();
  });

  it('an assistant\'s words holding markup are shown as words, never elements', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const document = structuredClone(trendDocument);
    const fact = document.said?.wrongNow[0];
    if (!fact) throw new Error('the fixture has nothing wrong now');
    fact.says = `Based in **Harrogate** ${hostile}.`;
    fact.siteSays = `<script>alert(2)</script> Leeds`;
    const { html, main } = await page(publish(document));
    expect(html).not.toMatch(/<img|<script/i);
    expect(table(main, 'said-still-table').rows[0]?.slice(2)).toEqual([`Based in Harrogate ${hostile}.`, '<script>alert(2)</script> Leeds']);
  });
});

describe('a client with fewer runs, or new questions', () => {
  it('one run: the latest in full, and nothing compared yet', async () => {
    const { main } = await page(publish(composeTrend({ client: trendClient, runs: trendRuns.slice(0, 1) })));
    expect(words(main.querySelector('#changes'))).toContain('This is the first run of these questions: the next run will show what changed.');
    expect(words(main.querySelector('#competitor-changes'))).toContain('With one run there is nothing to compare yet.');
    expect(main.querySelector('#summary')).not.toBeNull();
  });

  it('new questions: the trend starts with them, and the page says so', async () => {
    const fourth = trendRun(4, 2, '2026-12-20T10:09:30.000Z', { chatgpt: () => notNamed, claude: () => notNamed });
    const { main } = await page(publish(composeTrend({ client: trendClient, runs: [...trendRuns, fourth] })));
    expect(words(main.querySelector('#series-note'))).toBe(
      'Your questions changed on 20 December 2026, so this trend starts then: 3 earlier runs asked other questions and are not compared with these.',
    );
    expect(table(main, 'visibility-trend-table').rows).toHaveLength(1);
  });
});

describe('valid HTML', () => {
  it('the W3C Nu checker finds no error in the report after three runs (with what the assistants say), after one, after two of which only the second checked what they say, or the page of no run yet', async () => {
    const documents = new Map<string, string>();
    documents.set('three runs', (await page(publish())).html);
    documents.set('one run', (await page(publish(composeTrend({ client: trendClient, runs: trendRuns.slice(0, 1) })))).html);
    documents.set('what the assistants say first compared', (await page(publish(composeTrend({ client: trendClient, runs: trendRuns.slice(0, 2) })))).html);
    documents.set('no run yet', (await page(newCheckToken())).html);
    expect(await checkHtml(documents)).toEqual([]);
  });
});
