import { createHash } from 'node:crypto';
import { parse, type HTMLElement } from 'node-html-parser';
import request from 'supertest';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import { AUDIT_REPORT_PATH } from '../../server/reports/private-addresses';
import { newCheckToken } from '../../server/site-check/check-store';
import { auditDocument } from '../fixtures/audit-document';
import { handWrittenAudit } from '../fixtures/hand-written-audit';
import { capturingLogger } from '../helpers/capturing-logger';
import { checkHtml } from '../helpers/html-checker';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * The free audit's report at its private address, as the prospect and the agency get it: the
 * headers that keep it private, the rule that an address holding no report looks exactly like one
 * still being written, each section with the figures of a known report, the charts' words equal to
 * their tables', names holding markup shown as words, and valid HTML.
 */

jest.setTimeout(120_000);

const reports = new Map<string, AuditDocument>();
let app: TestApp;
beforeAll(() => {
  app = createTestApp({ auditReports: reports });
});
afterAll(() => app?.close());

/** A report at a fresh link, as the run mints them; `change` edits a copy of the known report first. */
function publish(change: (document: AuditDocument) => void = () => undefined): { token: string; document: AuditDocument } {
  const document = handWrittenAudit();
  change(document);
  const token = newCheckToken();
  reports.set(token, document);
  return { token, document };
}

/** The report the composition writes from a realistic run (an incomplete one: one answer did not come back), at a fresh link; `change` edits a copy first. */
function publishComposed(change: (document: AuditDocument) => void = () => undefined): string {
  const token = newCheckToken();
  const document = structuredClone(auditDocument);
  change(document);
  reports.set(token, document);
  return token;
}

/** What the assistants say, of a composed report's copy: it has it. */
function saidOf(document: AuditDocument): NonNullable<AuditDocument['said']> {
  if (!document.said) throw new Error('the fixture says nothing about the business');
  return document.said;
}

const get = (path: string) => request(app.app).get(path).buffer(true);
/** An element's words as a reader sees them: block elements apart, spaces collapsed. */
const words = (element: HTMLElement | null | undefined) => (element?.structuredText ?? '').replace(/\s+/g, ' ').trim();

async function page(token: string): Promise<{ html: string; main: HTMLElement; root: HTMLElement }> {
  const response = await get(`${AUDIT_REPORT_PATH}/${token}`);
  expect(response.status).toBe(200);
  const root = parse(response.text);
  const main = root.querySelector('main');
  if (!main) throw new Error('no <main>');
  return { html: response.text, main, root };
}

/** A table's rows as words: [row heading, cell, cell...], and its column headings. */
function table(main: HTMLElement, id: string): { columns: string[]; rows: string[][] } {
  const element = main.querySelector(`table#${id}`);
  if (!element) throw new Error(`no table #${id}`);
  return {
    columns: element.querySelectorAll('thead th').map(words),
    rows: element.querySelectorAll('tbody tr').map((row) => row.querySelectorAll('th, td').map(words)),
  };
}

/** Every word a chart shows (its <text> elements, in order), and its name and description. */
function chart(main: HTMLElement, id: string): { texts: string[]; title: string; desc: string; svg: HTMLElement } {
  const title = main.querySelector(`#${id}-title`);
  const svg = title?.parentNode;
  if (!svg || svg.tagName !== 'SVG') throw new Error(`no chart #${id}`);
  return { texts: svg.querySelectorAll('text').map(words), title: words(title), desc: words(svg.querySelector('desc')), svg };
}

describe('the headers and the token rules', () => {
  it('a report is private: no cache, no index, no referrer, the strict CSP, and not one script', async () => {
    const { token } = publish();
    for (const path of [`${AUDIT_REPORT_PATH}/${token}`, `${AUDIT_REPORT_PATH}/${newCheckToken()}`]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.text).toContain('<meta name="robots" content="noindex, follow"');
      // No script of any kind, not even structured data; the CSP allows no inline script.
      expect(response.text).not.toMatch(/<script/i);
      expect(response.text).not.toContain('modulepreload');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
      expect(csp).toContain("default-src 'none'");
      // The one inline style is allowed by its hash, and nothing else inline is.
      const styles = parse(response.text).querySelectorAll('style');
      expect(styles).toHaveLength(1);
      const hash = `'sha256-${createHash('sha256').update(styles[0]?.textContent ?? '', 'utf8').digest('base64')}'`;
      expect(csp.match(/style-src ([^;]+)/)?.[1]?.split(' ')).toContain(hash);
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('an address that holds no report answers exactly as a report still being written: same status, headers and bytes', async () => {
    const { token } = publish();
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const erased = publish().token;
    reports.delete(erased);
    const addresses = [
      newCheckToken(), // a guess, or a run not finished: the store finds no report for it
      erased, // a report erased with its request
      flipped, // one character off a real link
      token.toLowerCase(),
      'x'.repeat(65), // longer than any link: not looked up
      encodeURIComponent('<script>alert(1)</script>'),
      encodeURIComponent('../../etc/passwd'),
    ];
    for (const encoding of ['identity', 'gzip', 'br']) {
      const answers = await Promise.all(
        addresses.map(async (address) => {
          // The body as sent, decompressed: its compressed length is in the headers compared.
          const response = await get(`${AUDIT_REPORT_PATH}/${address}`).set('Accept-Encoding', encoding);
          const { date: _date, 'x-request-id': _id, ...headers } = response.headers;
          return { status: response.status, headers, body: response.text };
        }),
      );
      for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
      expect(answers[0]?.status).toBe(200);
      expect(answers[0]?.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(answers[0]?.body).toContain('This report is being written');
    }
    const { main, root } = await page(newCheckToken());
    expect(words(main.querySelector('h1'))).toBe('This report is being written');
    expect(words(main)).toContain('Reload this page in a few minutes.');
    expect(words(root.querySelector('title'))).toBe('This report is being written | Citewise');
    // Nothing of a real report leaks into it.
    expect(words(main)).not.toContain('Okafor');
    // HEAD answers the same, without the page.
    const head = await request(app.app).head(`${AUDIT_REPORT_PATH}/${newCheckToken()}`);
    expect([head.status, head.headers['cache-control'], head.text]).toEqual([200, 'private, no-store', undefined]);
  });

  it('a document of a version this page does not know is shown as being written, and the error logged', async () => {
    const { logger, lines } = capturingLogger();
    const logged = createTestApp({ auditReports: reports, logger });
    try {
      const { token } = publish((document) => {
        (document as unknown as { version: number }).version = 2;
      });
      const response = await request(logged.app).get(`${AUDIT_REPORT_PATH}/${token}`);
      expect(response.status).toBe(200);
      expect(words(parse(response.text).querySelector('h1'))).toBe('This report is being written');
      expect(lines).toContainEqual(expect.objectContaining({ level: 50, version: 2, msg: 'An audit report of an unknown version was asked for: answered as being written' }));
    } finally {
      logged.close();
    }
  });

  it('a link\'s token never reaches the log, however its path is written', async () => {
    const { logger, lines } = capturingLogger();
    const logged = createTestApp({ auditReports: reports, logger });
    try {
      const { token } = publish();
      // As sent, with a campaign tag, in capitals (no report: 404), and with the slash a mail program may add (sent on to the report).
      for (const path of [`${AUDIT_REPORT_PATH}/${token}`, `${AUDIT_REPORT_PATH}/${token}?utm_source=mail`, `/AUDIT/${token}`, `${AUDIT_REPORT_PATH}/${token}/`]) {
        await request(logged.app).get(path);
      }
      const requests = lines.filter((line) => line.msg === 'request completed').map((line) => [(line.req as { url: string }).url, (line.res as { statusCode: number }).statusCode]);
      expect(requests).toEqual([
        ['/audit/[redacted]', 200],
        ['/audit/[redacted]?utm_source=mail', 200],
        ['/AUDIT/[redacted]', 404],
        ['/audit/[redacted]', 301],
      ]);
      expect(lines.filter((line) => line.msg === 'Page not found').map((line) => line.path)).toEqual(['/AUDIT/[redacted]']);
      expect(JSON.stringify(lines)).not.toContain(token);
    } finally {
      logged.close();
    }
  });

  it('waits behind the bound on one address like the thank-you results: a flood of made-up links is refused', async () => {
    const bounded = createTestApp({ env: { TRUST_PROXY: '1' }, auditReports: reports, formRequestsPerAddress: { burst: 2, perSecond: 0.001, maxWaitMs: 1, maxWaiting: 100 } });
    try {
      const from = (address: string) => request(bounded.app).get(`${AUDIT_REPORT_PATH}/${newCheckToken()}`).set('X-Forwarded-For', address);
      expect((await from('203.0.113.5')).status).toBe(200);
      expect((await from('203.0.113.5')).status).toBe(200);
      const refused = await from('203.0.113.5');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect((await from('198.51.100.7')).status).toBe(200);
    } finally {
      bounded.close();
    }
  });
});

describe('the report of a known audit', () => {
  it('has one h1 naming the business, a contents list, and the sections in the report\'s order', async () => {
    const { token, document } = publish();
    const { main, root } = await page(token);
    expect(root.querySelectorAll('h1').map(words)).toEqual(['AI visibility audit: Okafor Plumbing & Heating']);
    expect(words(root.querySelector('title'))).toBe('AI visibility audit: Okafor Plumbing & Heating | Citewise');
    const order = ['summary', 'visibility', 'competitors', 'keywords', 'recommendations', 'plan', 'readiness', 'about'];
    expect(main.querySelectorAll('section').map((section) => section.id)).toEqual(order);
    expect(main.querySelectorAll('section').map((section) => words(section.querySelector('h2')))).toEqual([
      'Summary',
      'Current AI visibility',
      'Competitor analysis',
      'Keyword opportunities',
      'Recommendations for ChatGPT, Claude, Gemini and Perplexity',
      'Action plan',
      'How AI crawlers see your website',
      'About this report',
    ]);
    expect(main.querySelectorAll('nav li a').map((link) => link.getAttribute('href'))).toEqual(order.map((id) => `#${id}`));
    const facts = words(main.querySelector('dl'));
    expect(facts).toContain('Website okaforplumbing.co.uk');
    expect(facts).toContain('Made on 27 November 2026');
    expect(facts).toContain(`Questions ${document.questionsPerAssistant} put to each of ChatGPT, Claude, Gemini and Perplexity`);
  });

  it('Summary: both scores with their sentences, and the three top actions linked to the plan', async () => {
    const { token, document } = publish();
    const { main } = await page(token);
    const summary = main.querySelector('#summary');
    expect(words(summary)).toContain(`AI visibility score 21/100 ${document.summary.visibilitySentence}`);
    expect(words(summary)).toContain(`AI-readiness score 62/100 ${document.summary.readinessSentence}`);
    const links = summary?.querySelectorAll('ol a') ?? [];
    expect(links.map((link) => [link.getAttribute('href'), words(link)])).toEqual([
      ['#action-robots-blocks-gptbot', 'Let GPTBot read your website'],
      ['#action-no-organization', 'Say who you are in structured data'],
      ['#action-directory-checkatrade', 'Complete your Checkatrade profile'],
    ]);
    for (const link of links) expect(main.querySelector(`#plan li${link.getAttribute('href')}`)).not.toBeNull();
  });

  it('Current AI visibility: per assistant named in N of M with the range as a person reads it, citations, position, model and when', async () => {
    const { token } = publish((document) => {
      const chatgpt = document.visibility[0];
      if (chatgpt) chatgpt.named = { count: 12, of: 50, low: 8, high: 22 };
    });
    const { main } = await page(token);
    const { columns, rows } = table(main, 'visibility-table');
    expect(columns).toEqual(['Assistant', 'Named you', 'Cited your website', 'Average position when named', 'Visibility score', 'Model and answers']);
    expect(rows).toEqual([
      ['ChatGPT', '12 of 50 (between 8 and 22 of 50)', '4 of 50 (between 1 and 10 of 50)', '2.4', '31/100', 'gpt-5-mini-2025-08-07: 50 of 50 questions answered'],
      ['Claude', '7 of 50 (between 3 and 14 of 50)', '0 of 50 (between 0 and 4 of 50)', '3.1', '14/100', 'claude-sonnet-4-6: 50 of 50 questions answered'],
      ['Gemini', '15 of 50 (between 9 and 22 of 50)', '9 of 50 (between 4 and 16 of 50)', '1.9', '40/100', 'gemini-2.5-flash: 50 of 50 questions answered'],
      ['Perplexity', '0 of 50 (between 0 and 4 of 50)', '0 of 50 (between 0 and 4 of 50)', 'never named', '0/100', 'sonar: 50 of 50 questions answered'],
    ]);
    expect(words(main.querySelector('#visibility'))).toContain('The questions were asked between 14:02 and 14:20 on 27 November 2026 (UK time).');
  });

  it('an assistant cut short says why, and a report with fewer answers than planned says so at the top', async () => {
    const { token } = publish((document) => {
      document.incomplete = 'The day\'s calls to the assistants ran out before Perplexity was asked.';
      const perplexity = document.visibility[3];
      if (perplexity) Object.assign(perplexity, { answered: 0, named: { count: 0, of: 0, low: null, high: null }, cited: { count: 0, of: 0, low: null, high: null }, score: null, error: 'the day\'s calls ran out', models: [] });
    });
    const { main } = await page(token);
    expect(words(main)).toContain('This report has fewer answers than we planned. The day\'s calls to the assistants ran out before Perplexity was asked. Its figures cover the answers we received, with ranges to match.');
    expect(table(main, 'visibility-table').rows[3]).toEqual(['Perplexity', 'no answers', 'no answers', 'no answers', 'Not measured', 'Perplexity: 0 of 50 questions answered Stopped early: the day\'s calls ran out']);
    // An assistant that gave no answer has no share of voice to chart.
    expect(chart(main, 'share-chart').texts).not.toContain('Perplexity');
  });

  it('Competitor analysis: share of voice per assistant against the top competitors, and the sites cited with their kind', async () => {
    const { token } = publish();
    const { main } = await page(token);
    const share = table(main, 'share-table');
    expect(share.columns).toEqual(['Business', 'All assistants', 'ChatGPT', 'Claude', 'Gemini', 'Perplexity', 'Answers naming it']);
    expect(share.rows).toEqual([
      ['Okafor Plumbing & Heating (you)', '11%', '14%', '8%', '19%', '0%', '34'],
      ['Bristol Plumbing Co', '31%', '33%', '29%', '25%', '38%', '98'],
      ['Clifton Heating Ltd', '19%', '18%', '22%', '15%', '23%', '61'],
      ['PipeWise Bristol', '13%', '13%', '12%', '11%', '15%', '40'],
      ['Avon Boiler Care', '7%', '7%', '10%', '5%', '5%', '22'],
    ]);
    expect(table(main, 'cited-table').rows).toEqual([
      ['checkatrade.com', 'Directory', '41', 'ChatGPT, Gemini and Perplexity'],
      ['bristolplumbingco.co.uk', 'A competitor\'s own site', '19', 'ChatGPT and Perplexity'],
      ['trustpilot.com', 'Review site', '15', 'Claude, Gemini and Perplexity'],
      ['okaforplumbing.co.uk', 'Your own website', '13', 'ChatGPT and Gemini'],
      ['reddit.com', 'Forum', '9', 'Perplexity'],
      ['bristolpost.co.uk', 'Press', '6', 'Gemini'],
      ['which.co.uk', 'Review site', '5', 'ChatGPT'],
    ]);
    // A cited site came from an assistant's answer: it is shown, never made a link.
    expect(main.querySelectorAll('#competitors a')).toHaveLength(0);
  });

  it('Keyword opportunities: each search in the document\'s order, and where the business already wins', async () => {
    const { token } = publish();
    const { main } = await page(token);
    expect(table(main, 'keywords-table').rows).toEqual([
      ['boiler repair Bristol', '80', '6', '61', 'Claude and Perplexity', 'Bristol Plumbing Co, Clifton Heating Ltd'],
      ['emergency plumber Bristol', '80', '14', '52', 'Perplexity', 'Bristol Plumbing Co, PipeWise Bristol'],
      ['landlord gas safety certificate', '40', '22', '9', 'None', 'Avon Boiler Care'],
    ]);
    expect(main.querySelectorAll('#keywords ul li').map(words)).toEqual(['landlord gas safety certificate']);
  });

  it('Recommendations: per assistant, its crawlers as robots.txt treats them and what to do', async () => {
    const { token, document } = publish();
    const { main } = await page(token);
    const cards = main.querySelectorAll('#recommendations h3').flatMap((heading) => (heading.parentNode ? [heading.parentNode] : []));
    expect(cards.map((card) => words(card.querySelector('h3')))).toEqual(['ChatGPT', 'Claude', 'Gemini', 'Perplexity']);
    const [crawlers, items] = cards[0]?.querySelectorAll('ul') ?? [];
    expect(crawlers?.querySelectorAll('li').map(words)).toEqual(['GPTBot: blocked', 'OAI-SearchBot: allowed', 'ChatGPT-User: allowed']);
    expect(items?.querySelectorAll('li').map(words)).toEqual(document.recommendations[0]?.items.map((item) => item.text));
    expect(words(cards[2])).toContain('Google-Extended: allowed');
    expect(words(cards[2])).toContain('Nothing to change from what we measured.');
  });

  it('Action plan: every action in the document\'s order, each with what, why linked to its section, who, effect and effort', async () => {
    const { token, document } = publish();
    const { main } = await page(token);
    const items = main.querySelectorAll('#plan ol > li');
    expect(items.map((item) => item.id)).toEqual(document.actions.map((action) => action.id));
    const first = items[0];
    expect(words(first?.querySelector('h3'))).toBe('Let GPTBot read your website');
    expect(first?.querySelectorAll('dt').map(words)).toEqual(['What to do', 'Why', 'Who', 'Expected effect', 'Effort']);
    expect(first?.querySelectorAll('dd').map(words)).toEqual([
      'Remove the Disallow rule for GPTBot from your robots.txt.',
      'Your robots.txt blocks GPTBot, so ChatGPT cannot learn from your pages; it named you in 12 of 50 answers. Where we measured it: Recommendations for ChatGPT, Claude, Gemini and Perplexity',
      'Your web developer',
      'High',
      'Low',
    ]);
    for (const [index, action] of document.actions.entries()) {
      const link = items[index]?.querySelector('dd a');
      expect(link?.getAttribute('href')).toBe(`#${action.section}`);
      expect(main.querySelector(`section#${action.section}`)).not.toBeNull();
    }
    expect(items.map((item) => words(item.querySelectorAll('dd')[2]))).toEqual(['Your web developer', 'Your web developer', 'You', 'Citewise', 'Your web developer', 'Citewise', 'Your web developer']);
  });

  it('the readiness findings, and when it was made with the caveat that answers vary from day to day', async () => {
    const { token } = publish();
    const { main } = await page(token);
    const { rows } = table(main, 'readiness-table');
    expect(rows.slice(0, 4)).toEqual([
      ['AI crawlers allowed by robots.txt', 'Partly: 16.9 of 20 points', 'robots.txt found; it blocks GPTBot, CCBot'],
      ['Readable text in the HTML', 'Pass: 20 of 20 points', '412 words of text in the HTML as served'],
      ['Open to indexing', 'Pass: 10 of 10 points', 'no noindex in a robots meta tag or X-Robots-Tag header'],
      ['Says who the business is (structured data)', 'To fix: 0 of 10 points', 'no JSON-LD structured data'],
    ]);
    expect(rows).toHaveLength(14);
    const about = words(main.querySelector('#about'));
    expect(about).toContain('Made on 27 November 2026.');
    expect(about).toContain('AI assistants answer the same question differently from one day to the next');
  });

  it('a site that could not be checked: no readiness score, and the section says why it is empty', async () => {
    const { token } = publish((document) => {
      document.readiness = [];
      document.summary.readinessScore = null;
    });
    const { main } = await page(token);
    expect(words(main.querySelector('#summary'))).toContain('AI-readiness score Not measured');
    expect(words(main.querySelector('#readiness'))).toContain('We could not check your website this time');
    expect(main.querySelector('#readiness svg')).toBeNull();
  });
});

describe('the charts', () => {
  it('each is an image with a title and a description, and shows exactly the words of the table beside it', async () => {
    const { token } = publish();
    const { main } = await page(token);

    const visibility = chart(main, 'visibility-chart');
    expect(visibility.svg.getAttribute('role')).toBe('img');
    expect(visibility.svg.getAttribute('aria-labelledby')).toBe('visibility-chart-title');
    expect(visibility.title).toBe('Answers naming Okafor Plumbing & Heating, per assistant');
    const visibilityRows = table(main, 'visibility-table').rows;
    expect(visibility.texts).toEqual(visibilityRows.flatMap((row) => [row[0], row[1]]));
    expect(visibility.desc).toBe(`${visibilityRows.map((row) => `${row[0]}: ${row[1]}`).join('; ')}.`);

    // Share of voice: a group per assistant (the table's columns), a bar per business (its rows).
    const share = chart(main, 'share-chart');
    const shareTable = table(main, 'share-table');
    const assistantColumns = shareTable.columns.slice(2, -1);
    expect(share.texts).toEqual(assistantColumns.flatMap((assistant, index) => [assistant, ...shareTable.rows.flatMap((row) => [row[0], row[index + 2]])]));

    const readiness = chart(main, 'readiness-chart');
    expect(readiness.texts).toEqual(table(main, 'readiness-table').rows.flatMap((row) => [row[0], row[1]]));
    for (const { svg } of [visibility, share, readiness]) {
      expect(svg.getAttribute('role')).toBe('img');
      expect(svg.querySelector('title')).not.toBeNull();
      expect(svg.querySelector('desc')).not.toBeNull();
    }
  });
});

describe('names that hold markup', () => {
  it('are shown as the words they are, in the page and its charts, and never become elements', async () => {
    const { token } = publish((document) => {
      document.business.name = '<script>alert("owned")</script> & Sons';
      const first = document.competitors.shareOfVoice[0];
      if (first) first.name = document.business.name;
      const rival = document.competitors.shareOfVoice[1];
      if (rival) rival.name = '<img src=x onerror="alert(1)">Rival';
      const site = document.competitors.citedSites[0];
      if (site) site.domain = 'evil.example"><a href="https://evil.example/win">win</a>';
      const keyword = document.keywords[0];
      if (keyword) keyword.keyword = '</table><h1>boiler repair</h1>';
      const action = document.actions[0];
      if (action) action.why = 'See <a href="https://evil.example/x">this</a>.';
    });
    const { html, main, root } = await page(token);
    expect(html).not.toMatch(/<script|<img|<a href="https:\/\/evil/i);
    expect(root.querySelectorAll('h1')).toHaveLength(1);
    expect(words(main.querySelector('h1'))).toBe('AI visibility audit: <script>alert("owned")</script> & Sons');
    expect(table(main, 'share-table').rows[1]?.[0]).toBe('<img src=x onerror="alert(1)">Rival');
    expect(chart(main, 'share-chart').texts).toContain('<img src=x onerror="alert(1)">Rival');
    expect(chart(main, 'visibility-chart').title).toBe('Answers naming <script>alert("owned")</script> & Sons, per assistant');
    expect(table(main, 'cited-table').rows[0]?.[0]).toBe('evil.example"><a href="https://evil.example/win">win</a>');
    expect(table(main, 'keywords-table').rows[0]?.[0]).toBe('</table><h1>boiler repair</h1>');
    expect(words(main.querySelector('#plan li dd:nth-of-type(2)'))).toContain('See <a href="https://evil.example/x">this</a>.');
    expect(words(root.querySelector('title'))).toBe('AI visibility audit: <script>alert("owned")</script> & Sons | Citewise');
  });
});

describe('a report as a run composes it', () => {
  it('reads as sentences: the business by its name, every section, no doubled stops where the agency\'s words meet the figures', async () => {
    const { main } = await page(publishComposed());
    const text = words(main);
    expect(words(main.querySelector('h1'))).toBe('AI visibility audit: Acme Plumbing Ltd');
    for (const id of ['summary', 'visibility', 'said', 'competitors', 'keywords', 'recommendations', 'plan', 'readiness']) expect(words(main.querySelector(`#${id}`)).length).toBeGreaterThan(100);
    expect(text).toContain('This report has fewer answers than we planned. Only 163 of the 164 answers we asked for came back');
    expect(text).not.toMatch(/\.\.(?!\.)|: \./);
    // Gemini named the business in 11 answers, never in a list: it has no place, but it was named.
    expect(table(main, 'visibility-table').rows[2]?.slice(0, 4)).toEqual(['Gemini', '11 of 41 (between 6 and 18 of 41)', '11 of 41 (between 6 and 18 of 41)', 'named, never in a list']);
  });
});

describe('what the assistants say about the business', () => {
  it('follows the visibility section, in the contents too, and each action found there links to it', async () => {
    const { main } = await page(publishComposed());
    const order = ['summary', 'visibility', 'said', 'competitors', 'keywords', 'recommendations', 'plan', 'readiness', 'about'];
    expect(main.querySelectorAll('section').map((section) => section.id)).toEqual(order);
    expect(main.querySelectorAll('nav li a').map((link) => [link.getAttribute('href'), words(link)])[2]).toEqual(['#said', 'What the assistants say about you']);
    const links = main.querySelectorAll('#plan dd a[href="#said"]');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(words(link)).toBe('Where we measured it: What the assistants say about you');
  });

  it('per assistant: how it describes the business, its tone, and the facts it gets wrong beside the site\'s', async () => {
    const { main } = await page(publishComposed());
    const section = main.querySelector('#said');
    expect(words(section?.querySelector('p'))).toBe(
      'What each assistant tells a buyer who already knows the name: we asked each of them 3 questions about Acme Plumbing Ltd directly, and read those answers and every other answer that names you against what your website says (its home page and contact page).',
    );
    expect(section?.querySelectorAll('h2, h3, h4').map((heading) => `${heading.tagName} ${words(heading)}`).slice(0, 4)).toEqual(['H2 What the assistants say about you', 'H3 ChatGPT', 'H4 How it describes you', 'H4 Its tone']);
    const chatgpt = section?.querySelector('[data-assistant="chatgpt"]');
    expect(words(chatgpt?.querySelector('blockquote'))).toBe('Acme Plumbing Ltd is a well-reviewed, Gas Safe registered firm offering boiler servicing and emergency call-outs across Leeds.');
    expect(words(chatgpt)).toContain('Positive in 2, neutral in 1, mixed in 0 and negative in 0 of the 3 answers we read closely, of its 21 about you.');
    const wrong = table(main, 'said-chatgpt-table');
    expect(words(main.querySelector('#said-chatgpt-table caption'))).toBe('What ChatGPT gets wrong about you');
    expect(wrong.columns).toEqual(['Fact', 'Your website says', 'ChatGPT says']);
    expect(wrong.rows).toEqual([['Phone number', '+44 113 496 0001', 'You can reach Acme Plumbing Ltd on 0113 496 0000 or at hello@acmeplumbing.co.uk.']]);
    expect(main.querySelector('#said-chatgpt-table td q strong')?.text).toBe('0113 496 0000');
    expect(table(main, 'said-claude-table').rows).toEqual([['Where you are', 'Acme Plumbing Ltd: family-run plumbing and heating engineers in Leeds since 1998.', 'Acme Plumbing Ltd is a plumbing and heating firm based in Harrogate, serving North Yorkshire.']]);
    expect(table(main, 'said-gemini-table').rows).toEqual([['Website it sends people to', 'acmeplumbing.co.uk', 'Website: pipeprosleeds.co.uk']]);
    expect(table(main, 'said-perplexity-table').rows).toEqual([['Whether you are open', 'Nothing of the kind: your website is up and trading', 'Acme Plumbing Ltd appears to have permanently closed [1].']]);
    const closing = main.querySelectorAll('#said > p').map(words).slice(-2);
    expect(closing).toEqual([
      'Phone numbers, e-mail and web addresses and postcodes are compared exactly with your website\'s, however each is written.',
      'Tone and claims were read by gpt-5-nano-2025-08-07, up to 8 answers of each assistant. A verdict is kept only when the words it rests on are found, word for word, in the answer (and, where we say your website disagrees, in your website\'s text): we set aside 1 for that reason.',
    ]);
  });

  it('says so where nothing was asked directly, nothing described, judged or wrong, a rival\'s website, and where the site could not be read', async () => {
    const { main } = await page(
      publishComposed((document) => {
        const said = saidOf(document);
        said.questions = [];
        said.judge = null;
        const [chatgpt, claude, gemini] = said.assistants;
        if (!chatgpt || !claude || !gemini) throw new Error('four assistants expected');
        chatgpt.describes = null;
        chatgpt.judged = 0;
        claude.wrong = [];
        for (const fact of gemini.wrong) fact.whose = 'Pipe Pros Leeds';
      }),
    );
    const section = main.querySelector('#said');
    expect(words(section?.querySelector('p'))).toBe('What each assistant tells a buyer about Acme Plumbing Ltd: we read every answer that names you against what your website says (its home page and contact page).');
    const chatgpt = words(section?.querySelector('[data-assistant="chatgpt"]'));
    expect(chatgpt).toContain('How it describes you It wrote no sentence of its own about you.');
    expect(chatgpt).toContain('Its tone Its tone was not read this time.');
    expect(section?.querySelector('[data-assistant="chatgpt"] blockquote')).toBeNull();
    expect(words(section?.querySelector('[data-assistant="claude"]'))).toContain('Nothing we could check against your website was wrong in its 3 answers about you.');
    expect(section?.querySelector('#said-claude-table')).toBeNull();
    expect(table(main, 'said-gemini-table').rows[0]?.[2]).toBe('Website: pipeprosleeds.co.uk (the website of Pipe Pros Leeds)');
    expect(words(section)).toContain('Tone and claims were not read this time: only the facts that can be compared exactly were checked.');

    const unread = (await page(publishComposed((document) => {
      const said = saidOf(document);
      said.factsFrom = null;
      for (const part of said.assistants) part.wrong = [];
    }))).main.querySelector('#said');
    expect(words(unread?.querySelector('p'))).toBe('We could not read the website of Acme Plumbing Ltd this time, so nothing the assistants say could be checked against it: we will check it again before we talk.');
    // Nothing was compared: no "nothing was wrong", and no word on how facts are compared.
    expect(words(unread)).not.toContain('Nothing we could check');
    expect(words(unread)).not.toContain('compared exactly');
  });

  it('a report made without it has no such section, nor a line in the contents', async () => {
    const { main } = await page(publishComposed((document) => delete document.said));
    expect(main.querySelector('#said')).toBeNull();
    expect(main.querySelector('nav a[href="#said"]')).toBeNull();
  });

  it('an assistant\'s words holding markup are shown as words, never elements; Markdown\'s marks are taken out', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const { html, main } = await page(
      publishComposed((document) => {
        const [chatgpt, claude] = saidOf(document).assistants;
        if (!chatgpt || !claude) throw new Error('four assistants expected');
        claude.describes = `Acme ${hostile} <script>alert(2)</script> is in Harrogate.`;
        chatgpt.wrong = [{ kind: 'phone', said: '0113 496 0000', says: `Call **Acme** on 0113 496 0000 ${hostile}`, siteSays: `+44 113 496 0001 ${hostile}`, whose: null, by: 'compared' }];
      }),
    );
    expect(html).not.toMatch(/<img|<script/i);
    expect(main.querySelectorAll('img, script')).toHaveLength(0);
    expect(words(main.querySelector('#said [data-assistant="claude"] blockquote'))).toBe(`Acme ${hostile} <script>alert(2)</script> is in Harrogate.`);
    expect(table(main, 'said-chatgpt-table').rows).toEqual([['Phone number', `+44 113 496 0001 ${hostile}`, `Call Acme on 0113 496 0000 ${hostile}`]]);
  });
});

describe('valid HTML', () => {
  it('the W3C Nu checker finds no error in a report, an incomplete one, one with markup in its names, one composed from a run (with what the assistants say, and that part with markup and nothing checked), or the page being written', async () => {
    const documents = new Map<string, string>();
    documents.set('report', (await page(publish().token)).html);
    documents.set(
      'incomplete, unchecked site',
      (
        await page(
          publish((document) => {
            document.incomplete = 'Claude refused our key.';
            document.readiness = [];
            document.summary.readinessScore = null;
            document.keywords = [];
            document.actions = [];
            document.summary.topActions = [];
            document.competitors.citedSites = [];
          }).token,
        )
      ).html,
    );
    documents.set('markup in names', (await page(publish((document) => (document.business.name = '<b>Bold & "Sons"</b>')).token)).html);
    documents.set('composed from a run', (await page(publishComposed())).html);
    documents.set(
      'what the assistants say, with markup and nothing checked',
      (
        await page(
          publishComposed((document) => {
            const said = saidOf(document);
            said.questions = [];
            said.factsFrom = null;
            said.judge = null;
            const [chatgpt, claude] = said.assistants;
            if (chatgpt) chatgpt.describes = null;
            if (claude) claude.wrong = [{ kind: 'website', said: 'x.example', says: '<b>Website</b>: x.example', siteSays: null, whose: '<i>Rival</i> & Co', by: 'compared' }];
          }),
        )
      ).html,
    );
    documents.set('being written', (await page(newCheckToken())).html);
    expect(await checkHtml(documents)).toEqual([]);
  });
});
