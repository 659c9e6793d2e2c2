import { parse } from 'node-html-parser';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppConfigProvider } from '../../client/app-config';
import { composeTrend } from '../../server/reports/monitor/compose-trend';
import { MonitorReportPage } from '../../server/reports/monitor/monitor-page';
import type { TrendDocument } from '../../server/reports/monitor/trend-document';
import type { Reply } from '../helpers/audit-inputs';
import { trendClient, trendRun } from '../fixtures/trend-document';
import { namedFirst, notNamed } from '../fixtures/visibility-probe-answers';

/*
 * The monitoring page's first section as a person reads it: the changes since the run before, the
 * real ones first and in bold, whether they are rises or falls. The page is drawn as the server
 * draws it (MonitorReportPage), from a trend composed from two runs of the fixture's 41 questions.
 */

const namedFor =
  (named: (index: number) => boolean) =>
  (_question: unknown, index: number): Reply =>
    named(index) ? namedFirst : notNamed;

/** What the "What changed" list shows: each line's words, and whether they are bold. */
function changesShown(document: TrendDocument): { sentence: string; bold: boolean }[] {
  const html = renderToStaticMarkup(
    <StaticRouter location="/monitor/a-token">
      <AppConfigProvider value={{ siteUrl: 'https://www.example.co.uk', bookingUrl: 'https://www.example.co.uk/book', year: 2026 }}>
        <MonitorReportPage document={document} />
      </AppConfigProvider>
    </StaticRouter>,
  );
  return parse(html)
    .querySelectorAll('#changes li')
    .map((item) => ({ sentence: item.text.replace(/\s+/g, ' ').trim(), bold: item.querySelector('strong')?.text === item.text }));
}

describe('the monitoring page: what changed since the last run', () => {
  it('shows a real fall first and in bold, as a real rise, before the changes within the usual variation', () => {
    const trend = composeTrend({
      client: trendClient,
      runs: [
        // ChatGPT: 10 then 11 (one question more); Claude: 10 then none (a real fall); Gemini: none both times; Perplexity: none then 8 (a real rise).
        trendRun(1, 1, '2026-09-20T10:09:30.000Z', { chatgpt: namedFor((index) => index < 10), claude: namedFor((index) => index < 10), gemini: () => notNamed, perplexity: () => notNamed }),
        trendRun(2, 1, '2026-10-20T10:09:30.000Z', { chatgpt: namedFor((index) => index < 11), claude: () => notNamed, gemini: () => notNamed, perplexity: namedFor((index) => index < 8) }),
      ],
    });
    expect(changesShown(trend)).toEqual([
      { sentence: 'Claude named you in 0 of 41, down from 10 of 41: a real fall.', bold: true },
      { sentence: 'Perplexity named you in 8 of 41, up from 0 of 41: a real rise.', bold: true },
      { sentence: 'ChatGPT named you in 11 of 41 (was 10 of 41): within the usual variation.', bold: false },
      { sentence: 'Gemini named you in 0 of 41 (was 0 of 41): within the usual variation.', bold: false },
    ]);
  });
});
