import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileContent, ContentError } from '../../scripts/lib/content';
import type { AuditDocument } from '../../server/reports/audit/audit-document';
import type { SiteCheckReport } from '../../server/site-check/check-report';
import { composeAudit } from '../../server/reports/audit/compose-audit';
import type { BusinessDetails } from '../../server/visibility-probe/prompts';
import { ACTION_LEVELS, AUDIT_FINDINGS } from '../../shared/audit-findings';
import { fillCopy } from '../../shared/copy-template';
import { auditReport } from '../../shared/generated/audit-report';
import { auditBusiness, auditDocument, auditInput, bathroomRivals } from '../fixtures/audit-document';
import { namedFirst, namedThird, notNamed, type RecordedAnswer } from '../fixtures/visibility-probe-answers';
import { auditRun, checkedSite, probeOf } from '../helpers/audit-inputs';

/*
 * The full audit's report as composeAudit writes it from a run's site check and answers: each
 * section's figures, the findings and the plan they make, and the words of
 * content/audit-report.yaml, which the build checks. The runs are made by hand as the run makes
 * them (test/helpers/audit-inputs.ts): no site fetched, no assistant called.
 */

/** Two searches and nothing else: the questions alternate between them, boiler repair first. */
const twoSearches: BusinessDetails = { targetKeywords: 'boiler repair, bathroom fitting', idealCustomer: '', businessDescription: '', currentProducts: '' };
const isBoilerRepair = (index: number) => index % 2 === 0;

/**
 * ChatGPT names the business first (citing its site) in three of the five boiler repair answers;
 * Claude names it third for boiler repair and names only bathroom firms for bathroom fitting;
 * Perplexity never names it, and its last call failed.
 */
const mixedRun = (check: SiteCheckReport | null = checkedSite()) =>
  auditRun(
    twoSearches,
    {
      chatgpt: (_question, index) => ([0, 2, 4].includes(index) ? namedFirst : notNamed),
      claude: (_question, index) => (isBoilerRepair(index) ? namedThird : bathroomRivals),
      perplexity: (_question, index) => (index === 9 ? 'no answer' : notNamed),
    },
    check,
  );

/** The business first, its own page cited, no one else named. */
const onlyTheBusiness: RecordedAnswer = {
  text: '1. **Acme Plumbing Ltd** – Gas Safe registered, 24/7 call-outs across Leeds.',
  sources: [{ url: 'https://www.acmeplumbing.co.uk/boilers', title: 'Boiler repair | Acme Plumbing' }],
};

/** Every string in a document, wherever it is. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

const fill = (sentence: string, figures: Record<string, string | number>) => fillCopy(sentence, { business: 'Acme Plumbing Ltd', ...figures });

describe('the full audit: current AI visibility', () => {
  const document = composeAudit(mixedRun());

  it('gives each assistant its count of answers naming the business and citing its site, each with the range a sample of its size allows, in whole answers', () => {
    expect(document.questionsPerAssistant).toBe(10);
    expect(document.visibility.map(({ assistant, asked, answered, named, cited, averagePosition }) => ({ assistant, asked, answered, named, cited, averagePosition }))).toEqual([
      // 3 of 10: the 95% Wilson interval is 0.108 to 0.603, so between 1 and 7 (rounded outwards).
      { assistant: 'chatgpt', asked: 10, answered: 10, named: { count: 3, of: 10, low: 1, high: 7 }, cited: { count: 3, of: 10, low: 1, high: 7 }, averagePosition: 1 },
      // 5 of 10: 0.237 to 0.763; 0 of 10: 0 to 0.278.
      { assistant: 'claude', asked: 10, answered: 10, named: { count: 5, of: 10, low: 2, high: 8 }, cited: { count: 0, of: 10, low: 0, high: 3 }, averagePosition: 3 },
      // The failed call is asked but not answered: 0 of 9, 0 to 0.299.
      { assistant: 'perplexity', asked: 10, answered: 9, named: { count: 0, of: 9, low: 0, high: 3 }, cited: { count: 0, of: 9, low: 0, high: 3 }, averagePosition: null },
    ]);
  });

  it('says which model answered and when the questions were asked, and scores each assistant as the probe scores it', () => {
    const { probe } = mixedRun();
    expect(document.visibility.map((part) => [part.label, part.models])).toEqual([
      ['ChatGPT', ['gpt-5-mini-2025-08-07']],
      ['Claude', ['claude-sonnet-4-6']],
      ['Perplexity', ['sonar']],
    ]);
    expect(document.visibility.map((part) => [part.score, part.shareOfVoice])).toEqual(probe.assistants.map((part) => [part.score, part.shareOfVoice]));
    // Thirty questions, three seconds apart, the first at 10:00.
    expect([document.askedFrom, document.askedTo]).toEqual(['2026-11-20T10:00:00.000Z', '2026-11-20T10:01:27.000Z']);
    expect(document.madeAt).toBe('2026-11-20T10:09:30.000Z');
    expect(document.business).toEqual({ name: 'Acme Plumbing Ltd', site: 'acmeplumbing.co.uk', nameSigns: ['structured data'] });
  });
});

describe('the full audit: competitor analysis', () => {
  const document = composeAudit(mixedRun());

  it('gives the business and the five competitors named most their share of voice per assistant, each business once an answer however it is written', () => {
    // Names per answer: ChatGPT 3 in each of 10 (30); Claude 3 in each of 10 (30); Perplexity 3 in each of 9 (27).
    expect(document.competitors.shareOfVoice).toEqual([
      {
        name: 'Acme Plumbing Ltd',
        isBusiness: true,
        answers: 8,
        share: 0.092,
        perAssistant: [
          { assistant: 'chatgpt', answers: 3, share: 0.1 },
          { assistant: 'claude', answers: 5, share: 0.167 },
          { assistant: 'perplexity', answers: 0, share: 0 },
        ],
      },
      {
        name: 'Pipe Pros Leeds',
        isBusiness: false,
        answers: 29,
        share: 0.333,
        perAssistant: [
          { assistant: 'chatgpt', answers: 10, share: 0.333 },
          { assistant: 'claude', answers: 10, share: 0.333 },
          { assistant: 'perplexity', answers: 9, share: 0.333 },
        ],
      },
      {
        name: 'FlowFix Plumbing & Heating',
        isBusiness: false,
        answers: 24,
        share: 0.276,
        perAssistant: [
          { assistant: 'chatgpt', answers: 10, share: 0.333 },
          { assistant: 'claude', answers: 5, share: 0.167 },
          { assistant: 'perplexity', answers: 9, share: 0.333 },
        ],
      },
      {
        name: 'Boiler Doctors',
        isBusiness: false,
        answers: 16,
        share: 0.184,
        perAssistant: [
          { assistant: 'chatgpt', answers: 7, share: 0.233 },
          { assistant: 'claude', answers: 0, share: 0 },
          { assistant: 'perplexity', answers: 9, share: 0.333 },
        ],
      },
      expect.objectContaining({ name: 'Leeds Bathroom Studio', answers: 5, share: 0.057 }),
      expect.objectContaining({ name: 'Tile & Tap', answers: 5, share: 0.057 }),
    ]);
  });

  it('counts a competitor written differently in another answer as the same business, shown as first written', () => {
    const shouting: RecordedAnswer = { text: '1. **PIPE PROS LEEDS** – the fastest call-outs in Leeds.\n2. **Boiler Doctors** – boilers only.', sources: [] };
    const rows = composeAudit(auditRun(twoSearches, { chatgpt: (_question, index) => (index < 5 ? notNamed : shouting) })).competitors.shareOfVoice;
    expect(rows.map((row) => [row.name, row.answers])).toEqual([
      ['Acme Plumbing Ltd', 0],
      ['Pipe Pros Leeds', 10],
      ['Boiler Doctors', 10],
      ['FlowFix Plumbing & Heating', 5],
    ]);
  });

  it('knows a competitor\'s own site however many other businesses the answers name before it', () => {
    const longList: RecordedAnswer = {
      text: Array.from({ length: 22 }, (_, index) => `${index + 1}. **Rival Firm ${index + 1} Leeds** – local, well reviewed.`).join('\n'),
      sources: [{ url: 'https://www.rivalfirm22leeds.co.uk/', title: 'Rival Firm 22 Leeds' }],
    };
    const sites = composeAudit(auditRun(twoSearches, { chatgpt: () => longList })).competitors.citedSites;
    expect(sites).toEqual([{ domain: 'rivalfirm22leeds.co.uk', kind: 'competitor', answers: 10, assistants: ['chatgpt'] }]);
  });

  it('lists the sites cited most, with their kind: directory, review site, a competitor\'s own site, the business\'s own', () => {
    expect(document.competitors.citedSites).toEqual([
      { domain: 'checkatrade.com', kind: 'directory', answers: 19, assistants: ['chatgpt', 'perplexity'] },
      // A subdomain listed apart is its own kind: Which? Trusted Traders is a directory, which.co.uk a review site.
      { domain: 'trustedtraders.which.co.uk', kind: 'directory', answers: 16, assistants: ['chatgpt', 'perplexity'] },
      // Its address names FlowFix Plumbing & Heating, which the answers name.
      { domain: 'flowfix.co.uk', kind: 'competitor', answers: 5, assistants: ['claude'] },
      { domain: 'houzz.co.uk', kind: 'directory', answers: 5, assistants: ['claude'] },
      { domain: 'leedsbathroomstudio.co.uk', kind: 'competitor', answers: 5, assistants: ['claude'] },
      { domain: 'pipepros-leeds.co.uk', kind: 'competitor', answers: 5, assistants: ['claude'] },
      { domain: 'trustpilot.com', kind: 'reviews', answers: 5, assistants: ['claude'] },
      { domain: 'acmeplumbing.co.uk', kind: 'own site', answers: 3, assistants: ['chatgpt'] },
    ]);
  });
});

describe('the full audit: keyword opportunities', () => {
  it('gives each search its answers, those naming the business and those naming only rivals, the most missed first', () => {
    expect(composeAudit(mixedRun()).keywords).toEqual([
      // ChatGPT 5, Claude 5, Perplexity 4 (its fifth call failed): rivals only, from all three.
      { keyword: 'bathroom fitting', answers: 14, named: 0, rivalsOnly: 14, assistantsMissing: ['chatgpt', 'claude', 'perplexity'], rivals: ['Pipe Pros Leeds', 'FlowFix Plumbing & Heating', 'Boiler Doctors'], wins: false },
      // ChatGPT named it in 3 of 5 (first), Claude in 5 of 5 (third); Perplexity never: 8 of 15, not first in most.
      { keyword: 'boiler repair', answers: 15, named: 8, rivalsOnly: 7, assistantsMissing: ['perplexity'], rivals: ['Pipe Pros Leeds', 'FlowFix Plumbing & Heating', 'Boiler Doctors'], wins: false },
    ]);
  });

  it('puts first the search the most assistants miss, before one fewer assistants miss in more answers', () => {
    const noNames: RecordedAnswer = { text: 'It depends on the job: ask two or three Gas Safe registered engineers for a written quote.', sources: [] };
    const keywords = composeAudit(
      auditRun(twoSearches, {
        chatgpt: (_question, index) => (isBoilerRepair(index) ? notNamed : namedFirst),
        claude: (_question, index) => (isBoilerRepair(index) ? namedFirst : index === 1 ? bathroomRivals : noNames),
        perplexity: (_question, index) => (isBoilerRepair(index) ? namedFirst : index === 3 ? bathroomRivals : noNames),
      }),
    ).keywords;
    expect(keywords.map(({ keyword, rivalsOnly, assistantsMissing }) => ({ keyword, rivalsOnly, assistantsMissing }))).toEqual([
      { keyword: 'bathroom fitting', rivalsOnly: 2, assistantsMissing: ['claude', 'perplexity'] },
      { keyword: 'boiler repair', rivalsOnly: 5, assistantsMissing: ['chatgpt'] },
    ]);
  });

  it('says where the business already wins: named in most of a search\'s answers, first in most of those', () => {
    const keywords = composeAudit(auditRun(twoSearches, { chatgpt: (_question, index) => (isBoilerRepair(index) ? namedFirst : namedThird), claude: () => namedFirst })).keywords;
    expect(keywords.map(({ keyword, named, answers, wins }) => ({ keyword, named, answers, wins }))).toEqual([
      { keyword: 'boiler repair', named: 10, answers: 10, wins: true },
      // Named in all 10, but third in ChatGPT's 5: first in 5 of 10 is not most.
      { keyword: 'bathroom fitting', named: 10, answers: 10, wins: false },
    ]);
  });

  it('takes the searches from the request\'s keywords and products as its questions put them', () => {
    expect(auditDocument.keywords.map((keyword) => keyword.keyword).sort()).toEqual(
      ['bathroom fitting', 'Boiler servicing', 'boiler repair Leeds', 'emergency call-outs', 'emergency plumber Leeds', 'landlord gas certificates', 'landlord gas safety certificate'].sort(),
    );
  });
});

describe('the full audit: recommendations per assistant', () => {
  it('gives each assistant asked the robots.txt verdict of each of its crawlers, and its lines from the findings that concern it', () => {
    const document = composeAudit(mixedRun(checkedSite({ blocked: ['GPTBot', 'ClaudeBot', 'Claude-User', 'CCBot', 'Google-Extended'] })));
    expect(document.recommendations.map(({ label, crawlers }) => [label, crawlers])).toEqual([
      ['ChatGPT', [{ agent: 'GPTBot', allowed: false }, { agent: 'OAI-SearchBot', allowed: true }, { agent: 'ChatGPT-User', allowed: true }]],
      ['Claude', [{ agent: 'ClaudeBot', allowed: false }, { agent: 'Claude-SearchBot', allowed: true }, { agent: 'Claude-User', allowed: false }]],
      ['Perplexity', [{ agent: 'PerplexityBot', allowed: true }, { agent: 'Perplexity-User', allowed: true }]],
    ]);
    const lines = Object.fromEntries(document.recommendations.map((part) => [part.assistant, Object.fromEntries(part.items.map((item) => [item.finding, item.text]))]));
    const words = auditReport.findings;
    expect(lines.chatgpt).toEqual({
      crawlersBlocked: fill(words.crawlersBlocked.recommendation, { assistant: 'ChatGPT', crawlers: 'GPTBot' }),
      rivalsForKeywords: fill(words.rivalsForKeywords.recommendation, { assistant: 'ChatGPT', keywords: '‘bathroom fitting’', rivals: 'Pipe Pros Leeds, FlowFix Plumbing & Heating and Boiler Doctors' }),
      citedSites: fill(words.citedSites.recommendation, { assistant: 'ChatGPT', sites: 'checkatrade.com and trustedtraders.which.co.uk' }),
    });
    expect(lines.claude).toEqual({
      crawlersBlocked: fill(words.crawlersBlocked.recommendation, { assistant: 'Claude', crawlers: 'ClaudeBot and Claude-User' }),
      rivalsForKeywords: fill(words.rivalsForKeywords.recommendation, { assistant: 'Claude', keywords: '‘bathroom fitting’', rivals: 'Leeds Bathroom Studio, Tile & Tap and Pipe Pros Leeds' }),
      citedSites: fill(words.citedSites.recommendation, { assistant: 'Claude', sites: 'trustpilot.com and houzz.co.uk' }),
      namedNotCited: fill(words.namedNotCited.recommendation, { assistant: 'Claude', named: 5, answers: 10 }),
      namedLow: fill(words.namedLow.recommendation, { assistant: 'Claude', position: 3, named: 5 }),
    });
    expect(lines.perplexity).toEqual({
      rivalsForKeywords: fill(words.rivalsForKeywords.recommendation, { assistant: 'Perplexity', keywords: '‘bathroom fitting’ and ‘boiler repair’', rivals: 'Pipe Pros Leeds, FlowFix Plumbing & Heating and Boiler Doctors' }),
      citedSites: fill(words.citedSites.recommendation, { assistant: 'Perplexity', sites: 'checkatrade.com and trustedtraders.which.co.uk' }),
      notNamed: fill(words.notNamed.recommendation, { assistant: 'Perplexity', answers: 9, high: 3 }),
    });
  });

  it('gives no crawler verdicts when the site could not be checked, rather than guessing them', () => {
    expect(composeAudit(mixedRun(null)).recommendations.map((part) => part.crawlers)).toEqual([[], [], []]);
  });
});

describe('the full audit: the action plan', () => {
  const rank = (action: AuditDocument['actions'][number]) => [ACTION_LEVELS.indexOf(action.effect), -ACTION_LEVELS.indexOf(action.effort), Object.keys(AUDIT_FINDINGS).indexOf(action.finding)];
  const inPlanOrder = (actions: AuditDocument['actions']) => actions.every((action, index) => {
    const previous = actions[index - 1];
    if (previous === undefined) return true;
    const [a, b] = [rank(previous), rank(action)];
    return a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! < b[2]!)));
  });

  it('orders every action by effect (high first), then effort (low first), then the findings table, and the summary leads with the first three', () => {
    for (const document of [composeAudit(mixedRun()), auditDocument]) {
      expect(document.actions.length).toBeGreaterThan(3);
      expect(inPlanOrder(document.actions)).toBe(true);
      expect(document.summary.topActions).toEqual(document.actions.slice(0, 3).map((action) => action.id));
    }
    expect(composeAudit(mixedRun()).actions.map((action) => action.finding).sort()).toEqual(['citedSites', 'namedLow', 'namedNotCited', 'notNamed', 'rivalsForKeywords']);
  });

  it('writes each action from its finding\'s words, with the measured figures, and links it to the section that shows them', () => {
    const actions = Object.fromEntries(composeAudit(mixedRun()).actions.map((action) => [action.finding, action]));
    const words = auditReport.findings;
    expect(actions.notNamed).toEqual({
      id: 'action-not-named',
      finding: 'notNamed',
      section: 'visibility',
      title: fill(words.notNamed.action.title, {}),
      what: fill(words.notNamed.action.what, {}),
      why: fill(words.notNamed.action.why, { assistants: 'Perplexity', answers: 9 }),
      who: words.notNamed.action.who,
      effect: words.notNamed.action.effect,
      effort: words.notNamed.action.effort,
    });
    // Answers that left the business out: ChatGPT's 7, Claude's 5 bathroom answers, Perplexity's 9; competitors' own sites are not places to be listed.
    expect(actions.citedSites).toMatchObject({ section: 'competitors', what: fill(words.citedSites.action.what, { sites: 'checkatrade.com, trustedtraders.which.co.uk, trustpilot.com and houzz.co.uk' }), why: fill(words.citedSites.action.why, { answers: 21 }) });
    expect(actions.rivalsForKeywords).toMatchObject({ section: 'keywords', why: fill(words.rivalsForKeywords.action.why, { count: 2, rivals: 'Pipe Pros Leeds, FlowFix Plumbing & Heating and Boiler Doctors' }) });
    expect(actions.namedNotCited).toMatchObject({ section: 'visibility', why: fill(words.namedNotCited.action.why, { assistants: 'Claude', named: 5 }) });
    expect(actions.namedLow).toMatchObject({ section: 'visibility', why: fill(words.namedLow.action.why, { assistants: 'Claude', position: 3 }) });
  });

  it('has no action without a finding behind it: a ready site that every answer names first, citing it, with no rival, gets none', () => {
    const document = composeAudit(auditRun(twoSearches, { chatgpt: () => onlyTheBusiness, claude: () => onlyTheBusiness, gemini: () => onlyTheBusiness, perplexity: () => onlyTheBusiness }));
    expect(document.readiness.every((finding) => finding.verdict === 'pass')).toBe(true);
    expect(document.actions).toEqual([]);
    expect(document.summary.topActions).toEqual([]);
    expect(document.recommendations.map((part) => part.items)).toEqual([[], [], [], []]);
    expect(document.keywords.every((keyword) => keyword.wins && keyword.assistantsMissing.length === 0)).toBe(true);
  });

  it('has no readiness action when the site could not be checked, and no visibility action for an assistant that gave no answer', () => {
    const document = composeAudit(
      auditRun(twoSearches, { chatgpt: () => onlyTheBusiness, claude: () => 'no answer' }, { ...checkedSite(), status: 'failed', reason: 'the site did not answer within 30 s', score: null, findings: [], facts: null }),
    );
    expect(document.actions).toEqual([]);
    expect(document.readiness).toEqual([]);
    expect(document.visibility.map((part) => [part.label, part.answered, part.named.low, part.named.high])).toEqual([
      ['ChatGPT', 10, 7, 10],
      ['Claude', 0, null, null],
    ]);
  });

  it('reads robots.txt per assistant: an action for the assistants\' crawlers it blocks, none for another agent it blocks', () => {
    const blockedAssistants = composeAudit(auditRun(twoSearches, { chatgpt: () => onlyTheBusiness }, checkedSite({ blocked: ['GPTBot', 'PerplexityBot', 'CCBot'] }))).actions;
    expect(blockedAssistants.map((action) => [action.finding, action.why])).toEqual([['crawlersBlocked', fill(auditReport.findings.crawlersBlocked.action.why, { crawlers: 'GPTBot and PerplexityBot', assistants: 'ChatGPT and Perplexity' })]]);
    const otherAgent = composeAudit(auditRun(twoSearches, { chatgpt: () => onlyTheBusiness }, checkedSite({ blocked: ['CCBot', 'Bytespider'] })));
    expect(otherAgent.readiness.find((finding) => finding.id === 'aiCrawlers')?.verdict).toBe('warn');
    expect(otherAgent.actions).toEqual([]);
  });

  it('gives one action for a robots.txt crawlers cannot read, and one for a home page that is no HTML page, instead of one for each check it fails', () => {
    const check = checkedSite({
      robots: { state: 'unreachable', detail: 'robots.txt answered 503, so crawlers must assume the whole site is off limits (RFC 9309)', agents: checkedSite().facts!.robots.agents.map(({ agent }) => ({ agent, allowed: false })) },
      page: { status: 404, html: false, contentType: 'text/plain' },
    });
    const document = composeAudit(auditRun(twoSearches, { chatgpt: () => onlyTheBusiness }, check));
    expect(document.readiness.filter((finding) => finding.verdict !== 'pass').length).toBeGreaterThan(8);
    expect(document.actions.map((action) => [action.finding, action.why])).toEqual([
      ['robotsUnreachable', fill(auditReport.findings.robotsUnreachable.action.why, { detail: 'robots.txt answered 503, so crawlers must assume the whole site is off limits (RFC 9309)' })],
      ['pageUnreadable', fill(auditReport.findings.pageUnreadable.action.why, { detail: 'the page answered 404' })],
    ]);
  });

  it('writes the site check\'s other findings with their measured figures', () => {
    const check = checkedSite({ page: { textWords: 30, noindex: 'meta', jsonLdTypes: [], jsonLdBlocks: 0, organizationNames: [] } });
    const actions = Object.fromEntries(composeAudit(auditRun(twoSearches, { chatgpt: () => onlyTheBusiness }, check)).actions.map((action) => [action.finding, action]));
    expect(Object.keys(actions).sort()).toEqual(['indexable', 'organization', 'textInHtml']);
    expect(actions.textInHtml?.why).toBe(
      fill(auditReport.findings.textInHtml.action.why, { words: 30, detail: 'only 30 words without running JavaScript: the page looks like an empty shell that a script fills in', points: 0, maxPoints: 20 }),
    );
    expect(actions.indexable?.why).toBe(fill(auditReport.findings.indexable.action.why, { detail: 'a robots meta tag says noindex' }));
    // No JSON-LD at all fails "structured data parses" too; the one action for it is the Organization's.
    expect(actions.organization?.why).toBe(fill(auditReport.findings.organization.action.why, { detail: 'no JSON-LD structured data' }));
  });
});

describe('the full audit: the summary and how complete it is', () => {
  const bandFor = (bands: readonly { from: number; sentence: string }[], score: number) => bands.filter((band) => band.from <= score).at(-1)?.sentence ?? '';

  it('gives both scores, each with the sentence of its band and the counts behind it', () => {
    const input = mixedRun();
    const { summary, incomplete } = composeAudit(input);
    expect(summary.visibilityScore).toBe(input.probe.score);
    // 8 of 29 answers: the Wilson interval is 0.147 to 0.457 of 29, between 4 and 14.
    expect(summary.visibilitySentence).toBe(
      fill(bandFor(auditReport.scores.visibility.bands, input.probe.score ?? -1), { score: input.probe.score ?? -1, named: 8, answers: 29, low: 4, high: 14, assistants: 'ChatGPT, Claude and Perplexity' }),
    );
    expect(summary.readinessScore).toBe(100);
    expect(summary.readinessSentence).toBe(fill(bandFor(auditReport.scores.readiness.bands, 100), { score: 100, toFix: 0, site: 'acmeplumbing.co.uk' }));
    // 29 of the 30 answers asked for.
    expect(incomplete).toBe(fill(auditReport.incomplete.partial, { answers: 29, planned: 30 }));
  });

  it('says so when the answers are too few for a band to mean anything', () => {
    const document = composeAudit(auditRun(twoSearches, { chatgpt: (_question, index) => (index < 4 ? namedFirst : notNamed) }));
    expect(document.summary.visibilitySentence).toBe(fill(auditReport.scores.visibility.fewAnswers, { score: document.summary.visibilityScore ?? -1, named: 4, answers: 10, low: 1, high: 7, assistants: 'ChatGPT' }));
    expect(document.incomplete).toBe(fill(auditReport.incomplete.fewAnswers, { answers: 10 }));
  });

  it('uses the score band from 20 answers, and says the answers are too few below 20 only', () => {
    const run = (questions: number) => composeAudit(auditRun(auditBusiness, { chatgpt: (_question, index) => (index < 4 ? namedFirst : notNamed) }, checkedSite(), { count: questions }));
    // 20 answers, every question answered: the band's sentence, and nothing said of the report resting on few answers.
    const twenty = run(20);
    expect(twenty.visibility.map((part) => [part.answered, part.named.count])).toEqual([[20, 4]]);
    expect(twenty.summary.visibilitySentence).toBe(
      fill(bandFor(auditReport.scores.visibility.bands, twenty.summary.visibilityScore ?? -1), { score: twenty.summary.visibilityScore ?? -1, named: 4, answers: 20, low: 1, high: 9, assistants: 'ChatGPT' }),
    );
    expect(twenty.incomplete).toBeNull();
    // 19 answers: too few, in the summary and in what the report says of itself.
    const nineteen = run(19);
    expect(nineteen.visibility.map((part) => [part.answered, part.named.count])).toEqual([[19, 4]]);
    expect(nineteen.summary.visibilitySentence).toBe(fill(auditReport.scores.visibility.fewAnswers, { score: nineteen.summary.visibilityScore ?? -1, named: 4, answers: 19, low: 1, high: 9, assistants: 'ChatGPT' }));
    expect(nineteen.incomplete).toBe(fill(auditReport.incomplete.fewAnswers, { answers: 19 }));
  });

  it('says a run that stopped part way rests on fewer answers than it asked for', () => {
    const input = auditRun(twoSearches, { chatgpt: (_question, index) => (index < 6 ? notNamed : 'not asked'), claude: (_question, index) => (index < 6 ? notNamed : 'not asked') }, checkedSite(), {
      ended: { status: 'stopped', reason: 'daily call limit (PROBE_DAILY_CALLS) reached' },
    });
    const document = composeAudit(input);
    expect(document.visibility.map((part) => [part.asked, part.answered])).toEqual([
      [6, 6],
      [6, 6],
    ]);
    expect(document.incomplete).toBe(fill(auditReport.incomplete.partial, { answers: 12, planned: 20 }));
    // The reason is the agency's to read (its mail); the prospect reads the agency's words.
    expect(stringsOf(document).some((text) => text.includes('PROBE_DAILY_CALLS'))).toBe(false);
  });

  it('has no visibility figures, and says why, when no assistant answered; no readiness score when the site was not checked', () => {
    const document = composeAudit({ business: twoSearches, check: null, probe: probeOf([], [], { status: 'skipped', reason: 'not configured' }), madeAt: new Date('2026-11-20T10:00:00.000Z') });
    expect(document.summary).toEqual({
      visibilityScore: null,
      visibilitySentence: fill(auditReport.scores.visibility.none, {}),
      readinessScore: null,
      readinessSentence: fill(auditReport.scores.readiness.notChecked, { site: 'acmeplumbing.co.uk' }),
      topActions: [],
    });
    expect(document.incomplete).toBe(fill(auditReport.incomplete.noAnswers, {}));
    expect([document.visibility, document.keywords, document.recommendations, document.actions, document.readiness, document.competitors.citedSites]).toEqual([[], [], [], [], [], []]);
    expect([document.askedFrom, document.askedTo]).toEqual(['2026-11-20T10:00:00.000Z', '2026-11-20T10:09:00.000Z']);
  });
});

describe('the full audit: its words', () => {
  /** Runs that, between them, find everything a report can find. */
  const everythingWrong = [
    auditInput,
    mixedRun(checkedSite({ blocked: ['GPTBot'], page: { textWords: 30, noindex: 'header', title: null, metaDescription: null, canonical: null, lang: null, jsonLdTypes: ['WebSite'], jsonLdInvalid: 1, jsonLdErrors: ['Unexpected token } in JSON'], openGraph: { title: false, description: false, image: false } }, sitemap: { urls: null, parses: false, detail: 'no sitemap: https://www.acmeplumbing.co.uk/sitemap.xml answered 404' } })),
    mixedRun(
      checkedSite({
        robots: { state: 'unreachable', detail: 'robots.txt answered 500, so crawlers must assume the whole site is off limits (RFC 9309)', agents: checkedSite().facts!.robots.agents.map(({ agent }) => ({ agent, allowed: false })) },
        page: { status: 500, https: false, url: 'http://www.acmeplumbing.co.uk/' },
      }),
    ),
  ].map(composeAudit);

  it('has words for every finding a report can hold, and the measurements find each of them', () => {
    const found = new Set(everythingWrong.flatMap((document) => [...document.actions.map((action) => action.finding), ...document.recommendations.flatMap((part) => part.items.map((item) => item.finding))]));
    expect([...found].sort()).toEqual(Object.keys(AUDIT_FINDINGS).sort());
  });

  it('fills every placeholder: no sentence of a report shows one', () => {
    for (const document of everythingWrong) {
      expect(stringsOf(document).filter((text) => /\{[a-zA-Z]+\}/.test(text))).toEqual([]);
    }
  });

  it('keeps every string as text, for the page to escape: a name with "&" stays "&"', () => {
    expect(auditDocument.competitors.shareOfVoice.map((row) => row.name)).toContain('FlowFix Plumbing & Heating');
    expect(stringsOf(auditDocument).filter((text) => /&(amp|lt|gt|quot|#\d+);/.test(text))).toEqual([]);
  });

  it('is complete for the fixture others build on: every section holds something', () => {
    expect(auditInput.business).toBe(auditBusiness);
    expect(auditDocument.visibility).toHaveLength(4);
    expect(auditDocument.competitors.shareOfVoice.length).toBeGreaterThan(3);
    expect(auditDocument.competitors.citedSites.map((site) => site.kind)).toEqual(expect.arrayContaining(['directory', 'reviews', 'competitor', 'own site']));
    expect(auditDocument.keywords.some((keyword) => keyword.assistantsMissing.length > 0)).toBe(true);
    expect(auditDocument.recommendations.every((part) => part.crawlers.length > 0 && part.items.length > 0)).toBe(true);
    expect(auditDocument.actions.length).toBeGreaterThan(5);
    expect(auditDocument.readiness.length).toBeGreaterThan(10);
    expect(auditDocument.incomplete).not.toBeNull();
  });
});

describe('the full audit\'s words as the build checks them (content/audit-report.yaml, content/audit-sources.yaml)', () => {
  const CONTENT_DIR = path.resolve(__dirname, '..', '..', 'content');
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'citewise-audit-words-'));
    cpSync(CONTENT_DIR, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (name: string, change: (yaml: string) => string) => {
    const file = path.join(dir, name);
    const before = readFileSync(file, 'utf8');
    const after = change(before);
    expect(after).not.toBe(before);
    writeFileSync(file, after);
    return file;
  };

  const buildError = (): string => {
    let error: unknown;
    try {
      compileContent(dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContentError);
    return (error as Error).message;
  };

  it('compiles the words as they are', () => {
    expect(Object.keys(compileContent(dir).auditReport.findings).sort()).toEqual(Object.keys(AUDIT_FINDINGS).sort());
  });

  it.each([
    ['a figure the sentence cannot be given', (yaml: string) => yaml.replace('why: "{assistants} did not name {business}', 'why: "{assistants} did not name {business} ({rank})'), 'findings.notNamed.action.why', 'unknown placeholder {rank}'],
    ['a brace that is no placeholder', (yaml: string) => yaml.replace('title: "Publish an llms.txt"', 'title: "Publish an {llms.txt"'), 'findings.llmsTxt.action.title', 'a brace that opens or closes no placeholder'],
    ['words for a finding the code does not know', (yaml: string) => yaml.replace('\nfindings:\n', '\nfindings:\n  namedTwice:\n    recommendation: "{assistant} named {business} twice."\n'), 'findings', 'namedTwice'],
    ['a finding left without its words', (yaml: string) => yaml.replace(/\n {2}namedLow:\n(?: {4}.*\n)+/, '\n'), 'findings.namedLow', ''],
    ['a line for the assistants where the finding has none', (yaml: string) => yaml.replace('  pageUnreadable:\n', '  pageUnreadable:\n    recommendation: "{assistant} cannot read the page."\n'), 'findings.pageUnreadable', 'recommendation'],
    ['an owner the plan does not know', (yaml: string) => yaml.replace('who: business', 'who: intern'), 'findings.citedSites.action.who', ''],
    ['an effect the plan cannot order', (yaml: string) => yaml.replace('effect: low', 'effect: huge'), /findings\.\w+\.action\.effect/, ''],
    ['score bands that do not start from 0', (yaml: string) => yaml.replace('      - from: 0\n        sentence: "{site}', '      - from: 5\n        sentence: "{site}'), 'scores.readiness.bands', 'the first band must be from 0'],
  ])('refuses %s, naming the file and the field', (_what, change, field, complaint) => {
    const file = edit('audit-report.yaml', change);
    const message = buildError();
    expect(message).toContain(file);
    if (typeof field === 'string') expect(message).toContain(`audit-report field "${field}`);
    else expect(message).toMatch(field);
    expect(message).toContain(complaint);
  });

  it.each([
    ['a crawler the site check does not judge', (yaml: string) => yaml.replace('chatgpt: [GPTBot,', 'chatgpt: [GPTBot2,'), 'crawlers.chatgpt', '"GPTBot2" is not an agent of server/ledger/ai-sources.json'],
    ['a domain given two kinds', (yaml: string) => yaml.replace('    - reddit.com\n', '    - reddit.com\n    - yell.com\n'), 'kinds', 'must not give a domain two kinds'],
    ['a domain in capitals', (yaml: string) => yaml.replace('    - bark.com\n', '    - Bark.com\n'), 'kinds.directory.', 'must be a domain in lower case'],
    ['an assistant the report does not know', (yaml: string) => yaml.replace('  perplexity: [', '  copilot: [Applebot]\n  perplexity: ['), 'crawlers', 'copilot'],
  ])('refuses %s in the sources, naming the file and the field', (_what, change, field, complaint) => {
    const file = edit('audit-sources.yaml', change);
    const message = buildError();
    expect(message).toContain(file);
    expect(message).toContain(`audit-sources field "${field}`);
    expect(message).toContain(complaint);
  });
});
