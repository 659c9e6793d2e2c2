import { composeAgencyMail, type FinishedClientRun, type MailedClient } from '../../server/reports/monitor/monitor-mail';
import type { AssistantChange, TrendDocument } from '../../server/reports/monitor/trend-document';

const settings = { mailFrom: 'monitoring@citewise.example', mailTo: 'leads@citewise.example', siteUrl: 'https://www.citewise.example', brand: 'Citewise' };
const client: MailedClient = { id: 3, label: 'Okafor Plumbing', site: 'https://okaforplumbing.example/', email: null };
const count = (n: number) => ({ count: n, of: 50, low: null, high: null });
const change = (assistant: AssistantChange['assistant'], verdict: AssistantChange['verdict'], sentence: string): AssistantChange => ({ assistant, label: assistant, verdict, before: count(10), now: count(12), pValue: 0.5, sentence });

/** The trend as the composition gives it: its changes in its own order, which need not put the real ones first. */
const trend = {
  version: 1,
  client: { label: 'Okafor Plumbing', name: 'Okafor Plumbing', site: 'okaforplumbing.example' },
  latest: null,
  series: { number: 1, since: '2030-01-04T09:00:00.000Z', earlierRuns: 0 },
  runs: [],
  changes: [
    change('chatgpt', 'same', 'ChatGPT named you in 17 of 50 (was 12 of 50): within the usual variation.'),
    change('claude', 'rise', 'Claude named you in 21 of 50, up from 6 of 50: a real rise.'),
    change('gemini', 'fall', 'Gemini named you in 2 of 50, down from 14 of 50: a real fall.'),
  ],
  shareOfVoice: [],
  competitorsNew: [{ name: 'Aire Valley Heating', answers: 7 }],
  competitorsGone: [],
  questionsWon: [],
  questionsLost: [],
} satisfies TrendDocument;

const finished: FinishedClientRun = {
  client,
  run: { id: 9, attempts: 1, series: 1 },
  result: { status: 'done', reason: null, visibilityScore: 41, readinessScore: 70, summary: '', document: '{}' },
  trend,
  before: { visibilityScore: 30, madeAt: '2030-02-03T09:00:00.000Z' },
  goesOnAt: null,
  alarm: null,
  agencyLink: 'https://www.citewise.example/monitor/token-for-the-agency',
  clientLink: null,
};

describe("the agency's mail after a client's run", () => {
  const mail = composeAgencyMail(finished, settings);

  it('names the client, its score and its change, and how many real changes, in the subject', () => {
    expect(mail.subject).toBe('AI visibility monitoring of Okafor Plumbing: visibility 41/100 (was 30/100), 2 real changes');
    expect(mail.to).toBe(settings.mailTo);
    expect(mail.text).toContain('Visibility score: 41/100 (was 30/100 on 2030-02-03). Readiness score: 70/100.');
  });

  it('says the real changes first, then those within the usual variation, then the new competitors and the link', () => {
    const at = (text: string) => mail.text.indexOf(text);
    expect(at('Real changes:\nClaude named you in 21 of 50, up from 6 of 50: a real rise.\nGemini named you in 2 of 50, down from 14 of 50: a real fall.')).toBeGreaterThan(-1);
    expect(at('Within the usual variation:\nChatGPT named you in 17 of 50 (was 12 of 50): within the usual variation.')).toBeGreaterThan(at('Real changes:'));
    expect(at('New competitors named: Aire Valley Heating (7 answers).')).toBeGreaterThan(at('Within the usual variation:'));
    expect(at(finished.agencyLink)).toBeGreaterThan(at('New competitors named'));
    // Each change said once, in its own part.
    for (const { sentence } of trend.changes) expect(mail.text.split(sentence)).toHaveLength(2);
  });

  it('leads with an assistant giving a wrong phone number or saying the client has closed, in the subject and before every figure', () => {
    const phone = composeAgencyMail({ ...finished, alarm: { assistant: 'Gemini', kind: 'phone', says: 'Call Okafor Plumbing on 0113 496 0000.', siteSays: '+44 113 496 0001' } }, settings);
    expect(phone.subject).toBe('AI visibility monitoring of Okafor Plumbing: wrong phone number from Gemini, visibility 41/100 (was 30/100), 2 real changes');
    expect(phone.text.startsWith('Gemini gives a wrong phone number for Okafor Plumbing: “Call Okafor Plumbing on 0113 496 0000.” Its website gives +44 113 496 0001.\n\nThe monitoring run #9')).toBe(true);
    const closed = composeAgencyMail({ ...finished, alarm: { assistant: 'ChatGPT', kind: 'closed', says: 'Okafor Plumbing has permanently closed.', siteSays: null } }, settings);
    expect(closed.subject).toContain('Okafor Plumbing: ChatGPT says it has closed, visibility 41/100');
    expect(closed.text.split('\n\n')[0]).toBe('ChatGPT tells buyers that Okafor Plumbing has closed: “Okafor Plumbing has permanently closed.”');
    expect(mail.text).not.toContain('wrong phone number');
  });

  it('says when a run begins a new series, and that nothing before it is compared', () => {
    const newSeries = composeAgencyMail({ ...finished, run: { ...finished.run, series: 2 }, before: null, trend: { ...trend, changes: [], series: { number: 2, since: '2030-03-04T09:00:00.000Z', earlierRuns: 2 }, runs: [{ id: 9, madeAt: '2030-03-04T09:00:00.000Z', visibilityScore: 41, readinessScore: 70, perAssistant: [] }] } }, settings);
    expect(newSeries.text).toContain('Its questions changed before this run: series 2 begins here, and is not compared with the 2 run(s) before.');
    expect(newSeries.text).toContain('Visibility score: 41/100 (the first run of its series).');
  });
});
