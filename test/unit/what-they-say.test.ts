import type { BusinessFacts } from '../../server/business/business-facts';
import { composeAudit } from '../../server/reports/audit/compose-audit';
import { factAlarm, whatTheySay } from '../../server/reports/audit/what-they-say';
import { composeTrend } from '../../server/reports/monitor/compose-trend';
import type { TrendRunInput } from '../../server/reports/monitor/trend-document';
import type { AnswerJudgement, ProbeAnswer, ProbeReport } from '../../server/visibility-probe/probe-report';
import { checkedSite } from '../helpers/audit-inputs';
import { assistantPart, doneReport, probeAnswer } from '../helpers/probe-reports';

/*
 * What the report says the assistants say about the business: the contact facts compared with
 * its site's, the judge's kept verdicts, the section's figures, the actions they call for, the
 * agency's alarm, and the trend's "put right".
 */

const BUSINESS = { brand: 'Okafor Plumbing', domain: 'okaforplumbing.co.uk' };

const site = (text: string, value: string) => ({ value, source: { page: 'home page' as const, from: text as 'text' } });

const FACTS: BusinessFacts = {
  phones: [site('structured data', '+44 113 496 0001')],
  emails: [site('link', 'hello@okaforplumbing.co.uk')],
  addresses: [site('structured data', '12 Park Row, Leeds')],
  postcodes: [site('structured data', 'LS1 5HD')],
  towns: [site('structured data', 'Leeds')],
  openingHours: [],
  services: [site('text', 'Boiler servicing')],
  contactPage: null,
  text: 'Okafor Plumbing: Gas Safe registered plumbers in Leeds since 2009. Boiler servicing, repairs and emergency call-outs. Call us on 0113 496 0001.',
};

const ABOUT = ['How do I contact Okafor Plumbing in Leeds?', 'What does Okafor Plumbing in Leeds offer?'];

const about = (prompt: string, text: string, judgement?: AnswerJudgement): ProbeAnswer => ({ ...probeAnswer(BUSINESS, prompt, text), ...(judgement ? { judgement } : {}) });

const judged = (tone: 'positive' | 'neutral' | 'mixed' | 'negative', quote: string, claims: Extract<AnswerJudgement, { tone: unknown }>['claims'] = [], dropped = 0): AnswerJudgement => ({ tone: { value: tone, quote }, claims, dropped, model: 'gpt-5-nano-2025-08-07' });

/** A run's probe: each assistant's direct answers, and its other answers (to a search). */
function probe(parts: { id: 'chatgpt' | 'claude' | 'gemini' | 'perplexity'; about: ProbeAnswer[]; asked?: ProbeAnswer[] }[]): ProbeReport {
  return {
    ...doneReport(BUSINESS, parts.map((part) => ({ ...assistantPart(part.id, part.asked ?? []), aboutAnswers: part.about }))),
    prompts: ['Who is the best emergency plumber in Leeds?'],
    aboutPrompts: ABOUT,
  };
}

describe('what the assistants say about the business', () => {
  it('shows a wrong number given in another format, with its sentence and the site’s number; not the right number written otherwise, nor a competitor’s beside it', () => {
    const said = whatTheySay(
      probe([
        { id: 'chatgpt', about: [about(ABOUT[0] ?? '', 'You can reach **Okafor Plumbing** on 0113 496 0000 or by e-mail.')] },
        { id: 'claude', about: [about(ABOUT[0] ?? '', 'Okafor Plumbing can be reached on (0113) 4960001.')] },
        {
          id: 'gemini',
          about: [],
          asked: [probeAnswer(BUSINESS, 'Who is the best emergency plumber in Leeds?', '1. **Pipe Pros Leeds** – call 0113 496 0999.\n2. **Okafor Plumbing** – call 0113 496 0001.')],
        },
      ]),
      FACTS,
    );
    expect(said?.assistants.map((part) => [part.label, part.wrong])).toEqual([
      ['ChatGPT', [{ kind: 'phone', said: '0113 496 0000', says: 'You can reach **Okafor Plumbing** on 0113 496 0000 or by e-mail.', siteSays: '+44 113 496 0001', whose: null, by: 'compared' }]],
      ['Claude', []],
      ['Gemini', []],
    ]);
    expect(said?.factsFrom).toBe('home page');
    expect(said?.questions).toEqual(ABOUT);
  });

  it('shows the judge’s contradicted claims with both quotes, counts the tone of each answer judged, and the verdicts it set aside', () => {
    const said = whatTheySay(
      probe([
        {
          id: 'chatgpt',
          about: [
            about(ABOUT[1] ?? '', 'Okafor Plumbing is a trusted Gas Safe plumber. It is based in Harrogate.', judged('positive', 'Okafor Plumbing is a trusted Gas Safe plumber.', [{ about: 'place', claim: 'based in Harrogate', verdict: 'contradicted', quote: 'It is based in Harrogate.', siteQuote: 'Gas Safe registered plumbers in Leeds since 2009.' }], 2)),
            about(ABOUT[0] ?? '', 'Reviews of Okafor Plumbing are mixed: some complain of late arrivals.', judged('mixed', 'Reviews of Okafor Plumbing are mixed: some complain of late arrivals.')),
          ],
        },
      ]),
      FACTS,
    );
    const chatgpt = said?.assistants[0];
    expect(chatgpt?.tone).toEqual({ positive: 1, neutral: 0, mixed: 1, negative: 0 });
    expect(chatgpt?.judged).toBe(2);
    expect(chatgpt?.answers).toBe(2);
    expect(chatgpt?.describes).toBe('Okafor Plumbing is a trusted Gas Safe plumber.');
    expect(chatgpt?.wrong).toEqual([{ kind: 'place', said: null, says: 'It is based in Harrogate.', siteSays: 'Gas Safe registered plumbers in Leeds since 2009.', whose: null, by: 'judge' }]);
    expect(said?.dropped).toBe(2);
    expect(said?.judge).toBe('gpt-5-nano-2025-08-07');
  });

  it('puts the wrong phone number and the mixed tone into the action plan and the assistant’s recommendations, first where they cost customers', () => {
    const run = probe([
      { id: 'chatgpt', about: [about(ABOUT[0] ?? '', 'Call Okafor Plumbing on 0113 496 0000.', judged('mixed', 'Call Okafor Plumbing on 0113 496 0000.'))] },
      { id: 'perplexity', about: [about(ABOUT[0] ?? '', 'Okafor Plumbing has permanently closed.')] },
    ]);
    const document = composeAudit({ business: { targetKeywords: 'emergency plumber Leeds', idealCustomer: '', businessDescription: '', currentProducts: '' }, check: null, probe: run, madeAt: new Date('2026-11-20T10:05:00Z') });
    // Without a site read, nothing can be compared: the section says so, and no contact fact is called wrong.
    expect(document.said?.factsFrom).toBeNull();
    expect(document.actions.map((action) => action.finding)).not.toContain('wrongContact');

    const checked = checkedSite();
    const planned = composeAudit({
      business: { targetKeywords: 'emergency plumber Leeds', idealCustomer: '', businessDescription: '', currentProducts: '' },
      check: { ...checked, facts: checked.facts ? { ...checked.facts, business: FACTS } : null },
      probe: run,
      madeAt: new Date('2026-11-20T10:05:00Z'),
    });
    // Saying it has closed costs the most for the least work: first; then the wrong number; the tone after.
    const findings = planned.actions.map((action) => action.finding);
    expect(findings.slice(0, 2)).toEqual(['saysClosed', 'wrongContact']);
    expect(findings).toContain('toneNegative');
    expect(planned.actions.find((action) => action.finding === 'wrongContact')).toMatchObject({ section: 'said', why: 'ChatGPT gave the wrong phone number for Okafor Plumbing: a buyer who calls or writes reaches someone else, or no one.' });
    expect(planned.recommendations.find((part) => part.assistant === 'chatgpt')?.items.map((item) => item.text)).toContain('ChatGPT gives the wrong phone number for Okafor Plumbing: correct it wherever assistants read it.');
    expect(planned.summary.topActions[0]).toBe('action-says-closed');

    const withSite = whatTheySay(run, FACTS);
    expect(factAlarm(withSite ?? undefined)).toEqual({ assistant: 'Perplexity', kind: 'closed', says: 'Okafor Plumbing has permanently closed.', siteSays: null });
    const phoneOnly = whatTheySay(probe([{ id: 'chatgpt', about: [about(ABOUT[0] ?? '', 'Call Okafor Plumbing on 0113 496 0000.')] }]), FACTS);
    expect(factAlarm(phoneOnly ?? undefined)).toMatchObject({ assistant: 'ChatGPT', kind: 'phone', siteSays: '+44 113 496 0001' });
    expect(factAlarm(whatTheySay(probe([{ id: 'chatgpt', about: [about(ABOUT[0] ?? '', 'Call Okafor Plumbing on 0113 496 0001.')] }]), FACTS) ?? undefined)).toBeNull();
  });

  it('is no section at all for a run that asked no direct question and judged nothing', () => {
    expect(whatTheySay({ ...probe([{ id: 'chatgpt', about: [] }]), aboutPrompts: [] }, FACTS)).toBeNull();
  });
});

describe('the trend of what the assistants say', () => {
  const base = composeAudit({
    business: { targetKeywords: 'emergency plumber Leeds', idealCustomer: '', businessDescription: '', currentProducts: '' },
    check: null,
    probe: probe([{ id: 'chatgpt', about: [] }]),
    madeAt: new Date('2026-10-01T10:00:00Z'),
  });
  const runWith = (id: number, madeAt: string, text: string, tone: 'positive' | 'negative'): TrendRunInput => {
    const said = whatTheySay(probe([{ id: 'chatgpt', about: [about(ABOUT[0] ?? '', text, judged(tone, text))] }]), FACTS);
    return { id, series: 1, madeAt, document: { ...base, ...(said ? { said } : {}) }, facts: { questions: [], competitors: [] } };
  };

  it('counts wrong facts and tone run by run, and says a wrong number was put right once the assistant, asked again, no longer gives it', () => {
    const wrong = runWith(1, '2026-10-01T10:00:00Z', 'Call Okafor Plumbing on 0113 496 0000.', 'negative');
    const fixed = runWith(2, '2026-11-01T10:00:00Z', 'Call Okafor Plumbing on 0113 496 0001.', 'positive');
    const trend = composeTrend({ client: { label: 'Okafor Plumbing', name: 'Okafor Plumbing', site: 'okaforplumbing.co.uk' }, runs: [wrong, fixed] });
    expect(trend.said?.perRun).toEqual([
      { wrong: 1, tone: { positive: 0, neutral: 0, mixed: 0, negative: 1 }, judged: 1 },
      { wrong: 0, tone: { positive: 1, neutral: 0, mixed: 0, negative: 0 }, judged: 1 },
    ]);
    expect(trend.said?.putRight).toEqual([{ assistant: 'chatgpt', label: 'ChatGPT', kind: 'phone', said: '0113 496 0000', says: 'Call Okafor Plumbing on 0113 496 0000.', siteSays: '+44 113 496 0001' }]);
    expect(trend.said?.wrongNow).toEqual([]);

    // Still wrong the next month: not put right, and not new.
    const again = composeTrend({ client: { label: 'Okafor Plumbing', name: 'Okafor Plumbing', site: 'okaforplumbing.co.uk' }, runs: [wrong, runWith(3, '2026-11-01T10:00:00Z', 'Ring Okafor Plumbing: 0113 496 0000.', 'positive')] });
    expect(again.said?.putRight).toEqual([]);
    expect(again.said?.wrongNow).toMatchObject([{ kind: 'phone', said: '0113 496 0000', new: false }]);
  });

  it('puts nothing right for an assistant not asked about the client again', () => {
    const wrong = runWith(1, '2026-10-01T10:00:00Z', 'Call Okafor Plumbing on 0113 496 0000.', 'negative');
    const silent: TrendRunInput = { ...wrong, id: 2, madeAt: '2026-11-01T10:00:00Z', document: { ...wrong.document, said: { ...(wrong.document.said ?? { questions: [], factsFrom: null, judge: null, dropped: 0, assistants: [] }), assistants: [{ assistant: 'chatgpt', label: 'ChatGPT', describes: null, answers: 0, judged: 0, tone: { positive: 0, neutral: 0, mixed: 0, negative: 0 }, wrong: [] }] } } };
    expect(composeTrend({ client: { label: 'Okafor Plumbing', name: null, site: null }, runs: [wrong, silent] }).said?.putRight).toEqual([]);
  });
});
