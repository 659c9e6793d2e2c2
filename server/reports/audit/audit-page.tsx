import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useAppConfig } from '../../../client/app-config';
import { plainList } from '../../../client/components/ui/layout-primitives';
import { PageHead } from '../../../client/head/page-head';
import { color, layout, mediaUp, radius, space, text } from '../../../client/theme/theme';
import { fillCopy } from '../../../shared/copy-template';
import { auditReport as copy } from '../../../shared/generated/pages/auditReport';
import { brandedTitle } from '../../../shared/search-snippet';
import { site } from '../../../shared/site';
import { JUDGED_ANSWERS_PER_ASSISTANT } from '../../answer-check/judge-sample';
import { BarChart, type BarRow } from '../bar-chart';
import { ReportFrame } from '../report-frame';
import { Contents, Facts, Figure, Hint, Intro, Notice, Section } from '../report-parts';
import { ReportTable } from '../report-table';
import type { AssistantSays, AuditAction, AuditDocument, CitedSite, SiteKind, WhatTheySay, WrongFact, WrongFactKind } from './audit-document';
import {
  askedBetween,
  assistantLabel,
  assistantList,
  averagePosition,
  businessName,
  countWithRange,
  lookedFor,
  percent,
  readinessResult,
  score,
  ukDay,
} from './audit-wording';

/**
 * The free audit's report, as the prospect and the agency read it at its private address: the
 * stored AuditDocument laid out in the report's order, every figure from the document, every word
 * either the document's or the page's own (content/pages.yaml). Rendered once on the server and
 * sent as it is: no script, the charts drawn as SVG, each beside a table of the same figures.
 */

type SectionId = 'summary' | 'visibility' | 'said' | 'competitors' | 'keywords' | 'recommendations' | 'plan' | 'readiness' | 'about';

const SECTION_ORDER: SectionId[] = ['summary', 'visibility', 'said', 'competitors', 'keywords', 'recommendations', 'plan', 'readiness', 'about'];

/** The sections a report has: what the assistants say only when its run kept it (a report made before has none). */
const sectionsOf = (document: AuditDocument) => SECTION_ORDER.filter((id) => id !== 'said' || document.said !== undefined);

const Scores = styled.div`
  display: grid;
  gap: ${space.md};
  margin-bottom: ${space.lg};
  ${mediaUp('sm')} { grid-template-columns: repeat(2, 1fr); }
`;

const ScoreCard = styled.div`
  break-inside: avoid;
  padding: ${space.lg};
  border: 1px solid ${color.border};
  border-radius: ${radius.md};
  h3 { margin: 0 0 ${space.xs}; font-size: ${text.base}; }
  p { margin: 0; }
`;

const ScoreValue = styled.p`
  font-size: ${text.h2};
  font-weight: 800;
  line-height: 1.1;
  && { margin-bottom: ${space.sm}; }
`;

const Assistants = styled.div`
  display: grid;
  gap: ${space.lg};
  ${mediaUp('md')} { grid-template-columns: repeat(2, 1fr); }
  /* On paper one card under another, the width of the page: side by side, a long card leaves the other's column empty. */
  @media print { grid-template-columns: minmax(0, 1fr); gap: 4mm; }
`;

const AssistantCard = styled.div`
  padding: ${space.lg};
  border: 1px solid ${color.border};
  border-radius: ${radius.md};
  h3 { margin: 0 0 ${space.sm}; }
  ul { margin: 0 0 ${space.sm}; padding-left: 1.25rem; }
  p { margin-bottom: ${space.xs}; }
  @media print { padding: 3mm 4mm; }
`;

const Crawlers = styled.ul`
  && { ${plainList} margin-bottom: ${space.md}; }
  display: flex;
  flex-wrap: wrap;
  gap: ${space.xs} ${space.md};
  font-size: ${text.sm};
  /* Smaller than the text on paper too (the text prints at 10.5 pt). */
  @media print { font-size: 9.5pt; }
`;

const AssistantSaid = styled.div`
  > :is(h3, h4, p, blockquote) { max-width: ${layout.proseWidth}; }
  h4 { margin: ${space.lg} 0 ${space.sm}; font-size: ${text.base}; }
  > p { margin-bottom: ${space.sm}; }
  @media print {
    h4 { margin: 3mm 0 1.5mm; font-size: 10.5pt; }
  }
`;

/** An assistant's own sentence, set apart from the agency's words around it. */
const Quoted = styled.blockquote`
  margin: 0 0 ${space.md};
  padding: ${space.sm} ${space.md};
  border-left: 4px solid ${color.primary};
  background: ${color.surfaceAlt};
  p { margin: 0; }
  @media print { padding: 1.5mm 3mm; }
`;

/*
 * The quotation marks of an assistant's words in a table, as characters of the style: the same
 * marks whatever language the reader's browser is set to, and the ones the printed copy holds.
 */
const Quote = styled.q`
  quotes: none;
  &::before { content: '“'; }
  &::after { content: '”'; }
`;

const Plan = styled.ol`
  padding-left: 1.5rem;
  > li + li { margin-top: ${space.lg}; }
  h3 { margin: 0 0 ${space.sm}; font-size: ${text.lg}; }
`;

const ActionFacts = styled.dl`
  display: grid;
  gap: ${space.xs} ${space.md};
  margin: 0;
  ${mediaUp('sm')} { grid-template-columns: 10rem 1fr; }
  dt { font-weight: 700; color: ${color.inkMuted}; }
  dd { margin: 0; }
  /* On paper what to do and why take the width; who, effect and effort share one line under them. */
  @media print {
    display: flex;
    flex-wrap: wrap;
    gap: 1mm 2mm;
    dt { flex: none; width: 7.5rem; }
    dt:nth-of-type(n + 4) { width: auto; }
    dd { flex: none; }
    dd:nth-of-type(-n + 2) { flex: 1 1 calc(100% - 7.5rem - 2mm); min-width: 0; }
    dd:nth-of-type(n + 3) { margin-right: 2mm; }
  }
`;

const KIND_COPY: Record<SiteKind, keyof typeof copy.competitors.kinds> = {
  directory: 'directory',
  reviews: 'reviews',
  press: 'press',
  forum: 'forum',
  competitor: 'competitor',
  'own site': 'own',
  other: 'other',
};

function sectionTitle(id: SectionId, document: AuditDocument): string {
  if (id === 'recommendations') return fillCopy(copy.sections.recommendations, { assistants: assistantList(document.recommendations.map((part) => part.assistant)) });
  return copy.sections[id];
}

function ReportSection({ id, document, children }: { id: SectionId; document: AuditDocument; children: ReactNode }) {
  return (
    <Section id={id} aria-labelledby={`${id}-title`} data-report-section="">
      <h2 id={`${id}-title`}>{sectionTitle(id, document)}</h2>
      {children}
    </Section>
  );
}

/**
 * A sentence of the document as the page writes it: where a figure that ends in a stop of its own
 * (a parser's message, "3:1: incorrect syntax.") meets the stop of the agency's words around it
 * ("When we checked: {detail}."), one stop. An ellipsis stays.
 */
const sentence = (text: string) => text.replace(/(?<!\.)([.!?])\.(?=\s|$)/g, '$1');

const describe = (rows: BarRow[]) => `${rows.map((row) => `${row.label}: ${row.value}`).join('; ')}.`;

function Summary({ document }: { document: AuditDocument }) {
  const { summary } = document;
  const top = summary.topActions.map((id) => document.actions.find((action) => action.id === id)).filter((action): action is AuditAction => action !== undefined);
  return (
    <ReportSection id="summary" document={document}>
      <Scores>
        <ScoreCard>
          <h3>{copy.summary.visibility}</h3>
          <ScoreValue>{score(summary.visibilityScore)}</ScoreValue>
          <p>{sentence(summary.visibilitySentence)}</p>
        </ScoreCard>
        <ScoreCard>
          <h3>{copy.summary.readiness}</h3>
          <ScoreValue>{score(summary.readinessScore)}</ScoreValue>
          <p>{sentence(summary.readinessSentence)}</p>
        </ScoreCard>
      </Scores>
      <h3>{copy.summary.topActions}</h3>
      {top.length === 0 ? (
        <p>{copy.plan.none}</p>
      ) : (
        <ol>
          {top.map((action) => (
            <li key={action.id}>
              <a href={`#${action.id}`}>{action.title}</a>
            </li>
          ))}
        </ol>
      )}
    </ReportSection>
  );
}

function Visibility({ document }: { document: AuditDocument }) {
  const business = businessName(document);
  const rows: BarRow[] = document.visibility.map((part) => ({
    label: part.label,
    share: part.named.of === 0 ? 0 : part.named.count / part.named.of,
    range: part.named.of === 0 || part.named.low === null || part.named.high === null ? null : [part.named.low / part.named.of, part.named.high / part.named.of],
    value: countWithRange(part.named),
    tone: 'primary',
  }));
  return (
    <ReportSection id="visibility" document={document}>
      <p>{fillCopy(copy.visibility.lead, { business })}</p>
      <Figure>
        <BarChart id="visibility-chart" title={fillCopy(copy.visibility.chartTitle, { business })} description={describe(rows)} groups={[{ heading: null, rows }]} />
      </Figure>
      <ReportTable
        id="visibility-table"
        caption={fillCopy(copy.visibility.caption, { business })}
        columns={[copy.visibility.assistant, copy.visibility.named, copy.visibility.cited, copy.visibility.position, copy.visibility.score, copy.visibility.model]}
        rows={document.visibility.map((part) => ({
          key: part.assistant,
          name: part.label,
          cells: [
            countWithRange(part.named),
            countWithRange(part.cited),
            part.answered === 0 ? copy.visibility.noAnswers : averagePosition(part.averagePosition, part.named.count),
            score(part.score),
            <>
              {fillCopy(copy.visibility.answered, { model: part.models.length > 0 ? part.models.join(', ') : part.label, count: part.answered, of: part.asked })}
              {part.error !== null && (
                <>
                  <br />
                  {copy.visibility.stopped}: {part.error}
                </>
              )}
            </>,
          ],
        }))}
      />
      <p>{askedBetween(document.askedFrom, document.askedTo)}</p>
      {lookedFor(document) !== null && <p>{lookedFor(document)}</p>}
    </ReportSection>
  );
}

/** What a wrong fact is about, in the report's words. */
export const factKindLabel = (kind: WrongFactKind): string => copy.said.kinds[kind];

/** What the business's site says of a fact, or that it says nothing of the kind (an assistant saying it has closed). */
export const siteSaysText = (siteSays: string | null): string => siteSays ?? copy.said.siteSaysNothing;

/**
 * An assistant's sentence as a reader reads it: Markdown's emphasis and code marks taken out
 * ("You can reach **Acme Plumbing Ltd** on ..."), the words otherwise as it wrote them. Only ever
 * shown as text: an answer is anyone's words, markup included.
 */
const withoutMarks = (sentence: string) => sentence.replace(/\*+|__|`+/g, '').replace(/\s+/g, ' ').trim();

/** The assistant's sentence in quotation marks, the wrong value in it (a phone number, an address) in bold where it is found. */
export function AssistantQuote({ says, said }: { says: string; said: string | null }) {
  const sentence = withoutMarks(says);
  const at = said === null || said === '' ? -1 : sentence.toLowerCase().indexOf(said.toLowerCase());
  if (said === null || at === -1) return <Quote>{sentence}</Quote>;
  return (
    <Quote>
      {sentence.slice(0, at)}
      <strong>{sentence.slice(at, at + said.length)}</strong>
      {sentence.slice(at + said.length)}
    </Quote>
  );
}

function WrongFacts({ part, checked }: { part: AssistantSays; checked: boolean }) {
  if (part.wrong.length === 0) return checked ? <p>{fillCopy(copy.said.noWrong, { answers: part.answers })}</p> : null;
  return (
    <ReportTable
      id={`said-${part.assistant}-table`}
      caption={fillCopy(copy.said.wrongCaption, { assistant: part.label })}
      columns={[copy.said.fact, copy.said.siteSays, fillCopy(copy.said.assistantSays, { assistant: part.label })]}
      rows={part.wrong.map((fact: WrongFact, index) => ({
        key: `${index}`,
        name: factKindLabel(fact.kind),
        cells: [
          siteSaysText(fact.siteSays),
          <>
            <AssistantQuote says={fact.says} said={fact.said} />
            {fact.whose !== null && <> ({fillCopy(copy.said.whose, { name: fact.whose })})</>}
          </>,
        ],
      }))}
    />
  );
}

/**
 * What each assistant tells a buyer about the business: how it describes it, its tone, and the
 * facts it gets wrong beside what the business's own site says. Every sentence quoted is an
 * assistant's and shown as text; the judge's verdicts are a sample, and the page says how big.
 */
function Said({ document, said }: { document: AuditDocument; said: WhatTheySay }) {
  const business = businessName(document);
  const checked = said.factsFrom !== null;
  return (
    <ReportSection id="said" document={document}>
      <p>
        {said.factsFrom === null
          ? fillCopy(copy.said.notChecked, { business })
          : said.questions.length === 0
            ? fillCopy(copy.said.leadNamed, { business, from: said.factsFrom })
            : fillCopy(copy.said.lead, { business, count: said.questions.length, from: said.factsFrom })}
      </p>
      {said.assistants.map((part) => (
        // An assistant's part is short (a quote, a sentence, a table of a few rows): on paper it stays on one page.
        <AssistantSaid key={part.assistant} data-assistant={part.assistant} data-print="together">
          <h3>{part.label}</h3>
          <h4>{copy.said.describes}</h4>
          {part.describes === null ? (
            <p>{copy.said.noDescription}</p>
          ) : (
            <Quoted>
              <p>{part.describes}</p>
            </Quoted>
          )}
          <h4>{copy.said.tone}</h4>
          <p>{part.judged === 0 ? copy.said.notJudged : fillCopy(copy.said.toneCounts, { ...part.tone, judged: part.judged, answers: part.answers })}</p>
          <WrongFacts part={part} checked={checked} />
        </AssistantSaid>
      ))}
      {checked && <p>{copy.said.compared}</p>}
      <p>{said.judge === null ? copy.said.notJudgedAtAll : fillCopy(copy.said.judgedBy, { model: said.judge, most: JUDGED_ANSWERS_PER_ASSISTANT, dropped: said.dropped })}</p>
    </ReportSection>
  );
}

function Competitors({ document }: { document: AuditDocument }) {
  const business = businessName(document);
  const { shareOfVoice, citedSites } = document.competitors;
  const assistants = document.visibility.filter((part) => part.answered > 0).map((part) => part.assistant);
  const nameOf = (row: (typeof shareOfVoice)[number]) => (row.isBusiness ? `${row.name} ${copy.competitors.you}` : row.name);
  const shareFor = (row: (typeof shareOfVoice)[number], assistant: string) => row.perAssistant.find((part) => part.assistant === assistant)?.share ?? 0;
  const groups = assistants.map((assistant) => ({
    heading: assistantLabel(assistant),
    rows: shareOfVoice.map(
      (row): BarRow => ({
        label: nameOf(row),
        share: shareFor(row, assistant),
        value: percent(shareFor(row, assistant)),
        tone: row.isBusiness ? 'primary' : 'accent',
        striped: row.isBusiness,
      }),
    ),
  }));
  return (
    <ReportSection id="competitors" document={document}>
      <p>{fillCopy(copy.competitors.lead, { business })}</p>
      <h3>{copy.competitors.shareTitle}</h3>
      <p>{copy.competitors.shareLead}</p>
      {groups.length > 0 && shareOfVoice.length > 0 && (
        <Figure>
          <BarChart
            id="share-chart"
            title={fillCopy(copy.competitors.shareChartTitle, { business })}
            description={groups.map((group) => `${group.heading}: ${group.rows.map((row) => `${row.label} ${row.value}`).join(', ')}`).join('; ')}
            groups={groups}
          />
        </Figure>
      )}
      <ReportTable
        id="share-table"
        caption={copy.competitors.shareCaption}
        columns={[copy.competitors.business, copy.competitors.all, ...assistants.map(assistantLabel), copy.competitors.answers]}
        rows={shareOfVoice.map((row, index) => ({
          key: `${index}`,
          name: nameOf(row),
          cells: [percent(row.share), ...assistants.map((assistant) => percent(shareFor(row, assistant))), row.answers],
        }))}
      />
      <h3>{copy.competitors.citedTitle}</h3>
      <p>{copy.competitors.citedLead}</p>
      {citedSites.length === 0 ? (
        <p>{copy.competitors.noSites}</p>
      ) : (
        <ReportTable
          id="cited-table"
          caption={copy.competitors.citedCaption}
          columns={[copy.competitors.site, copy.competitors.kind, copy.competitors.citedAnswers, copy.competitors.citedBy]}
          // A cited site stays words: its address came from an assistant's answer, which anyone can write into.
          rows={citedSites.map((cited: CitedSite, index) => ({
            key: `${index}`,
            name: cited.domain,
            cells: [copy.competitors.kinds[KIND_COPY[cited.kind]], cited.answers, assistantList(cited.assistants)],
          }))}
        />
      )}
    </ReportSection>
  );
}

function Keywords({ document }: { document: AuditDocument }) {
  const wins = document.keywords.filter((keyword) => keyword.wins);
  return (
    <ReportSection id="keywords" document={document}>
      <p>{copy.keywords.lead}</p>
      {document.keywords.length === 0 ? (
        <p>{copy.keywords.noKeywords}</p>
      ) : (
        <>
          <ReportTable
            id="keywords-table"
            caption={copy.keywords.caption}
            columns={[copy.keywords.keyword, copy.keywords.answers, copy.keywords.named, copy.keywords.rivalsOnly, copy.keywords.missing, copy.keywords.rivals]}
            rows={document.keywords.map((keyword, index) => ({
              key: `${index}`,
              name: keyword.keyword,
              cells: [
                keyword.answers,
                keyword.named,
                keyword.rivalsOnly,
                keyword.assistantsMissing.length > 0 ? assistantList(keyword.assistantsMissing) : copy.keywords.none,
                keyword.rivals.length > 0 ? keyword.rivals.join(', ') : copy.keywords.none,
              ],
            }))}
          />
          <h3>{copy.keywords.winsTitle}</h3>
          {wins.length === 0 ? (
            <p>{copy.keywords.noWins}</p>
          ) : (
            <>
              <p>{copy.keywords.wins}</p>
              <ul>
                {wins.map((keyword, index) => (
                  <li key={index}>{keyword.keyword}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </ReportSection>
  );
}

function Recommendations({ document }: { document: AuditDocument }) {
  return (
    <ReportSection id="recommendations" document={document}>
      <p>{copy.recommendations.lead}</p>
      <Assistants>
        {document.recommendations.map((part) => (
          <AssistantCard key={part.assistant} data-print="together">
            <h3>{part.label}</h3>
            {part.crawlers.length > 0 && (
              <>
                <p>{copy.recommendations.crawlers}:</p>
                <Crawlers>
                  {part.crawlers.map((crawler) => (
                    <li key={crawler.agent}>
                      {crawler.agent}: <strong>{crawler.allowed ? copy.recommendations.allowed : copy.recommendations.blocked}</strong>
                    </li>
                  ))}
                </Crawlers>
              </>
            )}
            {part.items.length === 0 ? (
              <p>{copy.recommendations.nothing}</p>
            ) : (
              <ul>
                {part.items.map((item, index) => (
                  <li key={index}>{sentence(item.text)}</li>
                ))}
              </ul>
            )}
          </AssistantCard>
        ))}
      </Assistants>
    </ReportSection>
  );
}

function ActionPlan({ document }: { document: AuditDocument }) {
  return (
    <ReportSection id="plan" document={document}>
      <p>{copy.plan.lead}</p>
      {document.actions.length === 0 ? (
        <p>{copy.plan.none}</p>
      ) : (
        <Plan>
          {document.actions.map((action) => (
            <li key={action.id} id={action.id} data-print="together">
              <h3>{action.title}</h3>
              <ActionFacts>
                <dt>{copy.plan.what}</dt>
                <dd>{sentence(action.what)}</dd>
                <dt>{copy.plan.why}</dt>
                <dd>
                  {sentence(action.why)} <a href={`#${action.section}`}>{`${copy.plan.see}: ${sectionTitle(action.section, document)}`}</a>
                </dd>
                <dt>{copy.plan.who}</dt>
                <dd>{copy.plan.owners[action.who]}</dd>
                <dt>{copy.plan.effect}</dt>
                <dd>{copy.plan.levels[action.effect]}</dd>
                <dt>{copy.plan.effort}</dt>
                <dd>{copy.plan.levels[action.effort]}</dd>
              </ActionFacts>
            </li>
          ))}
        </Plan>
      )}
    </ReportSection>
  );
}

function Readiness({ document }: { document: AuditDocument }) {
  const rows: BarRow[] = document.readiness.map((finding) => ({
    label: finding.title,
    share: finding.maxPoints === 0 ? 0 : finding.points / finding.maxPoints,
    value: readinessResult(finding),
    tone: finding.verdict,
    marker: finding.verdict,
  }));
  return (
    <ReportSection id="readiness" document={document}>
      {document.readiness.length === 0 ? (
        <p>{copy.readiness.notChecked}</p>
      ) : (
        <>
          <p>{copy.readiness.lead}</p>
          <Figure>
            <BarChart id="readiness-chart" title={copy.readiness.chartTitle} description={describe(rows)} groups={[{ heading: null, rows }]} />
          </Figure>
          <ReportTable
            id="readiness-table"
            caption={copy.readiness.caption}
            columns={[copy.readiness.finding, copy.readiness.result, copy.readiness.detail]}
            rows={document.readiness.map((finding) => ({ key: finding.id, name: finding.title, cells: [readinessResult(finding), finding.detail] }))}
          />
        </>
      )}
    </ReportSection>
  );
}

function About({ document }: { document: AuditDocument }) {
  const { bookingUrl } = useAppConfig();
  return (
    <ReportSection id="about" document={document}>
      <p>
        {copy.made} {ukDay(document.madeAt)}. {askedBetween(document.askedFrom, document.askedTo)}
      </p>
      <p>{copy.about.caveat}</p>
      <p>
        {copy.about.contact} <a href={bookingUrl}>{copy.about.booking}</a>
      </p>
    </ReportSection>
  );
}

/** Every section of one finished audit's report, in its order: the audit's page, and the latest run on a client's monitoring page. */
export function AuditSections({ document }: { document: AuditDocument }) {
  return (
    <>
      <Summary document={document} />
      <Visibility document={document} />
      {document.said !== undefined && <Said document={document} said={document.said} />}
      <Competitors document={document} />
      <Keywords document={document} />
      <Recommendations document={document} />
      <ActionPlan document={document} />
      <Readiness document={document} />
      <About document={document} />
    </>
  );
}

/** The report of one finished audit. */
export function AuditReportPage({ document }: { document: AuditDocument }) {
  const { siteUrl } = useAppConfig();
  const title = fillCopy(copy.title, { business: businessName(document) });
  return (
    <ReportFrame label={copy.private} printSections="flow">
      <PageHead title={brandedTitle(title, site.brand)} description={copy.description} noindex />
      <Intro>
        <h1>{title}</h1>
        <Facts>
          {document.business.site !== null && (
            <>
              <dt>{copy.website}</dt>
              <dd>{document.business.site}</dd>
            </>
          )}
          <dt>{copy.made}</dt>
          <dd>{ukDay(document.madeAt)}</dd>
          <dt>{copy.asked}</dt>
          <dd>{fillCopy(copy.askedEach, { count: document.questionsPerAssistant, assistants: assistantList(document.visibility.map((part) => part.assistant)) })}</dd>
          <dt>{copy.preparedBy}</dt>
          <dd>
            <a href={siteUrl}>{site.brand}</a>
          </dd>
        </Facts>
        {document.incomplete !== null && <Notice>{sentence(fillCopy(copy.incomplete, { reason: document.incomplete }))}</Notice>}
        <Hint data-print="hide">{copy.printHint}</Hint>
      </Intro>
      <Contents aria-labelledby="contents-title" data-print="hide">
        <h2 id="contents-title">{copy.contents}</h2>
        <ol>
          {sectionsOf(document).map((id) => (
            <li key={id}>
              <a href={`#${id}`}>{sectionTitle(id, document)}</a>
            </li>
          ))}
        </ol>
      </Contents>
      <AuditSections document={document} />
    </ReportFrame>
  );
}

/** What an address shows while its report is being written, and what every address that holds no report shows: the same page. */
export function AuditPendingPage() {
  return (
    <ReportFrame label={copy.private}>
      <PageHead title={brandedTitle(copy.pending.title, site.brand)} description={copy.description} noindex />
      <Intro>
        <h1>{copy.pending.title}</h1>
        <p>{copy.pending.body}</p>
        <p>{copy.pending.help}</p>
      </Intro>
    </ReportFrame>
  );
}
