import type { ReactNode } from 'react';
import { useAppConfig } from '../../../client/app-config';
import { PageHead } from '../../../client/head/page-head';
import { fillCopy, listOfNames } from '../../../shared/copy-template';
import { monitorReport as copy } from '../../../shared/generated/pages/monitorReport';
import { brandedTitle } from '../../../shared/search-snippet';
import { site } from '../../../shared/site';
import { TONES } from '../../answer-check/verdicts';
import { AssistantQuote, AuditSections, factKindLabel, siteSaysText } from '../audit/audit-page';
import { assistantLabel, assistantList, percent, ukDay } from '../audit/audit-wording';
import type { SampleCount } from '../audit/audit-document';
import { LineChart, type LineSeries } from '../line-chart';
import { ReportFrame } from '../report-frame';
import { Contents, Facts, Figure, Hint, Intro, Notice, Section } from '../report-parts';
import { ReportTable } from '../report-table';
import type { SaidOverTime, TrendDocument, TrendFact } from './trend-document';

/**
 * A client's monitoring report, as the client and the agency read it at its private address: the
 * stored TrendDocument laid out like the audit's report (the same frame, tables and charts drawn
 * on the server, no script), the changes first, then the trend over the series' runs, then the
 * latest run in full in the audit report's own sections.
 */

type SectionId = 'changes' | 'visibility-trend' | 'said-trend' | 'share-trend' | 'competitor-changes' | 'question-changes';

const SECTION_TITLES: Record<SectionId, string> = {
  changes: copy.sections.changes,
  'visibility-trend': copy.sections.visibility,
  'said-trend': copy.sections.said,
  'share-trend': copy.sections.share,
  'competitor-changes': copy.sections.competitors,
  'question-changes': copy.sections.questions,
};

/** The business as the report names it: its name, else its website, else the client's label. */
const businessName = (document: TrendDocument): string => document.latest?.business.name ?? document.client.name ?? document.latest?.business.site ?? document.client.label;

/** A run as the charts' axis and the tables' headings name it: "20 Nov 2026", in the UK. */
const runDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
const runName = (iso: string) => runDay.format(new Date(iso));

const namedOf = (sample: SampleCount) => (sample.of === 0 ? copy.visibility.noAnswers : fillCopy(copy.visibility.namedOf, { count: sample.count, of: sample.of }));
const scoreOf = (value: number | null) => (value === null ? copy.visibility.notMeasured : `${value}/100`);
const shareOf = (value: number | null) => (value === null ? copy.share.noRun : percent(value));

/** A chart's description: each line's figures in the table's words, run by run. */
const describe = (lines: { label: string; cells: string[] }[], points: string[]) =>
  `${lines.map((item) => `${item.label}: ${item.cells.map((cell, index) => `${points[index] ?? ''} ${cell}`).join(', ')}`).join('; ')}.`;

function TrendSection({ id, children }: { id: SectionId; children: ReactNode }) {
  return (
    <Section id={id} aria-labelledby={`${id}-title`} data-report-section="">
      <h2 id={`${id}-title`}>{SECTION_TITLES[id]}</h2>
      {children}
    </Section>
  );
}

function Changes({ document }: { document: TrendDocument }) {
  return (
    <TrendSection id="changes">
      <p>{copy.changes.lead}</p>
      {document.changes.length === 0 ? (
        <p>{copy.changes.firstRun}</p>
      ) : (
        <ul>
          {document.changes.map((change) => (
            <li key={change.assistant} data-verdict={change.verdict}>
              {change.verdict === 'same' ? change.sentence : <strong>{change.sentence}</strong>}
            </li>
          ))}
        </ul>
      )}
    </TrendSection>
  );
}

function VisibilityTrend({ document, points }: { document: TrendDocument; points: string[] }) {
  const business = businessName(document);
  const assistants = [...new Set(document.runs.flatMap((run) => run.perAssistant.map((part) => part.assistant)))];
  const sampleIn = (run: TrendDocument['runs'][number], assistant: string) => run.perAssistant.find((part) => part.assistant === assistant)?.named ?? null;
  const lines = assistants.map((assistant) => ({
    label: assistantLabel(assistant),
    values: document.runs.map((run) => {
      const sample = sampleIn(run, assistant);
      return sample === null || sample.of === 0 ? null : sample.count / sample.of;
    }),
    cells: document.runs.map((run) => {
      const sample = sampleIn(run, assistant);
      return sample === null ? copy.visibility.noAnswers : namedOf(sample);
    }),
  }));
  return (
    <TrendSection id="visibility-trend">
      <p>{fillCopy(copy.visibility.lead, { business })}</p>
      <Figure>
        <LineChart id="visibility-trend-chart" title={fillCopy(copy.visibility.chartTitle, { business })} description={describe(lines, points)} points={points} series={lines.map(({ label, values }): LineSeries => ({ label, values }))} />
      </Figure>
      <ReportTable
        id="visibility-trend-table"
        caption={fillCopy(copy.visibility.caption, { business })}
        columns={[copy.visibility.run, copy.visibility.visibilityScore, copy.visibility.readinessScore, ...assistants.map(assistantLabel)]}
        rows={document.runs.map((run, index) => ({
          key: `${run.id}`,
          name: points[index] ?? '',
          cells: [scoreOf(run.visibilityScore), scoreOf(run.readinessScore), ...lines.map((line) => line.cells[index] ?? '')],
        }))}
      />
    </TrendSection>
  );
}

/** "2 positive and 1 mixed, of 3 read closely": the tones found in a run's answers judged, of how many. */
function toneOf(run: NonNullable<SaidOverTime['perRun'][number]>): string {
  if (run.judged === 0) return copy.said.noneJudged;
  const found = TONES.filter((tone) => run.tone[tone] > 0).map((tone) => fillCopy(copy.said.tones[tone], { count: run.tone[tone] }));
  return fillCopy(copy.said.toneOf, { counts: found.length === 0 ? copy.said.noTone : listOfNames(found), judged: run.judged });
}

/** A table of wrong facts: the assistant, what the fact is about, its words, and what the site says. */
function FactTable({ id, caption, says, none, facts }: { id: string; caption: string; says: string; none: string; facts: TrendFact[] }) {
  if (facts.length === 0) return <p>{none}</p>;
  return (
    <ReportTable
      id={id}
      caption={caption}
      columns={[copy.said.assistant, copy.said.fact, says, copy.said.siteSays]}
      // An assistant's words stay words: they came from its answer, which anyone can write into.
      rows={facts.map((fact, index) => ({ key: `${index}`, name: fact.label, cells: [factKindLabel(fact.kind), <AssistantQuote says={fact.says} said={fact.said} />, siteSaysText(fact.siteSays)] }))}
    />
  );
}

/**
 * What the assistants say about the client, run by run: the wrong facts and the tone of each run,
 * then what the latest run put right since the run before, and what it still gets wrong or gets
 * wrong anew. Compared only when both runs checked it: a run made before it was kept says so.
 */
function SaidTrend({ document, said, points }: { document: TrendDocument; said: SaidOverTime; points: string[] }) {
  const business = businessName(document);
  const latest = said.perRun.at(-1) ?? null;
  const compared = latest !== null && (said.perRun.at(-2) ?? null) !== null;
  return (
    <TrendSection id="said-trend">
      <p>{fillCopy(copy.said.lead, { business })}</p>
      <ReportTable
        id="said-trend-table"
        caption={copy.said.caption}
        columns={[copy.said.run, copy.said.wrong, copy.said.tone]}
        rows={said.perRun.map((run, index) => ({
          key: `${document.runs[index]?.id ?? index}`,
          name: points[index] ?? '',
          cells: run === null ? [copy.said.notChecked, copy.said.notChecked] : [run.wrong, toneOf(run)],
        }))}
      />
      {latest === null ? (
        <p>{copy.said.latestNotChecked}</p>
      ) : compared ? (
        <>
          <FactTable id="said-put-right-table" caption={copy.said.putRightCaption} says={copy.said.saidBefore} none={copy.said.noneRight} facts={said.putRight} />
          <FactTable id="said-still-table" caption={copy.said.stillCaption} says={copy.said.says} none={copy.said.noneStill} facts={said.wrongNow.filter((fact) => !fact.new)} />
          <FactTable id="said-new-table" caption={copy.said.newCaption} says={copy.said.says} none={copy.said.noneNew} facts={said.wrongNow.filter((fact) => fact.new)} />
        </>
      ) : (
        <>
          <p>{said.perRun.length === 1 ? copy.said.firstRun : copy.said.firstChecked}</p>
          <FactTable id="said-wrong-table" caption={copy.said.wrongCaption} says={copy.said.says} none={copy.said.noneWrong} facts={said.wrongNow} />
        </>
      )}
    </TrendSection>
  );
}

function ShareTrend({ document, points }: { document: TrendDocument; points: string[] }) {
  const business = businessName(document);
  const nameOf = (row: TrendDocument['shareOfVoice'][number]) => (row.isBusiness ? `${row.name} ${copy.share.you}` : row.name);
  const lines = document.shareOfVoice.map((row) => ({ label: nameOf(row), values: row.perRun, cells: row.perRun.map(shareOf) }));
  return (
    <TrendSection id="share-trend">
      <p>{fillCopy(copy.share.lead, { business })}</p>
      {lines.length > 0 && (
        <Figure>
          <LineChart id="share-trend-chart" title={fillCopy(copy.share.chartTitle, { business })} description={describe(lines, points)} points={points} series={lines.map(({ label, values }): LineSeries => ({ label, values }))} />
        </Figure>
      )}
      <ReportTable
        id="share-trend-table"
        caption={copy.share.caption}
        columns={[copy.share.business, ...points]}
        rows={lines.map((line, index) => ({ key: `${index}`, name: line.label, cells: line.cells }))}
      />
    </TrendSection>
  );
}

function CompetitorChanges({ document }: { document: TrendDocument }) {
  const compared = document.runs.length > 1;
  const list = (id: string, caption: string, none: string, rows: { name: string; answers: number }[]) =>
    rows.length === 0 ? (
      <p>{none}</p>
    ) : (
      // A competitor's name stays words: it came from an assistant's answer, which anyone can write into.
      <ReportTable id={id} caption={caption} columns={[copy.competitors.business, copy.competitors.answers]} rows={rows.map((row, index) => ({ key: `${index}`, name: row.name, cells: [row.answers] }))} />
    );
  return (
    <TrendSection id="competitor-changes">
      <p>{copy.competitors.lead}</p>
      {compared ? (
        <>
          {list('competitors-new-table', copy.competitors.newCaption, copy.competitors.noneNew, document.competitorsNew)}
          {list('competitors-gone-table', copy.competitors.goneCaption, copy.competitors.noneGone, document.competitorsGone)}
        </>
      ) : (
        <p>{copy.competitors.firstRun}</p>
      )}
    </TrendSection>
  );
}

function QuestionChanges({ document }: { document: TrendDocument }) {
  const compared = document.runs.length > 1;
  const list = (id: string, caption: string, column: string, none: string, rows: TrendDocument['questionsWon']) =>
    rows.length === 0 ? (
      <p>{none}</p>
    ) : (
      <ReportTable id={id} caption={caption} columns={[copy.questions.question, column]} rows={rows.map((row, index) => ({ key: `${index}`, name: row.question, cells: [assistantList(row.assistants)] }))} />
    );
  return (
    <TrendSection id="question-changes">
      <p>{copy.questions.lead}</p>
      {compared ? (
        <>
          {list('questions-won-table', copy.questions.wonCaption, copy.questions.assistants, copy.questions.noneWon, document.questionsWon)}
          {list('questions-lost-table', copy.questions.lostCaption, copy.questions.lostAssistants, copy.questions.noneLost, document.questionsLost)}
        </>
      ) : (
        <p>{copy.questions.firstRun}</p>
      )}
    </TrendSection>
  );
}

/** A client's trend and its latest run in full (a TrendDocument whose `latest` is null shows the pending page instead). */
export function MonitorReportPage({ document }: { document: TrendDocument }) {
  const { siteUrl } = useAppConfig();
  const latest = document.latest;
  const title = fillCopy(copy.title, { business: businessName(document) });
  const points = document.runs.map((run) => runName(run.madeAt));
  const site_ = latest?.business.site ?? document.client.site;
  return (
    <ReportFrame label={copy.private}>
      <PageHead title={brandedTitle(title, site.brand)} description={copy.description} noindex />
      <Intro>
        <h1>{title}</h1>
        <Facts>
          {site_ !== null && (
            <>
              <dt>{copy.website}</dt>
              <dd>{site_}</dd>
            </>
          )}
          {latest !== null && (
            <>
              <dt>{copy.latest}</dt>
              <dd>{ukDay(latest.madeAt)}</dd>
              <dt>{copy.asked}</dt>
              <dd>{fillCopy(copy.askedEach, { count: latest.questionsPerAssistant, assistants: assistantList(latest.visibility.map((part) => part.assistant)) })}</dd>
            </>
          )}
          <dt>{copy.runs}</dt>
          <dd>{fillCopy(copy.runsSince, { count: document.runs.length, since: document.series.since === null ? '' : ukDay(document.series.since) })}</dd>
          <dt>{copy.preparedBy}</dt>
          <dd>
            <a href={siteUrl}>{site.brand}</a>
          </dd>
        </Facts>
        {document.series.earlierRuns > 0 && document.series.since !== null && (
          <Notice id="series-note">{fillCopy(copy.series, { since: ukDay(document.series.since), earlier: document.series.earlierRuns })}</Notice>
        )}
        <Hint data-print="hide">{copy.printHint}</Hint>
      </Intro>
      <Contents aria-labelledby="contents-title" data-print="hide">
        <h2 id="contents-title">{copy.contents}</h2>
        <ol>
          {(Object.keys(SECTION_TITLES) as SectionId[]).filter((id) => id !== 'said-trend' || document.said !== undefined).map((id) => (
            <li key={id}>
              <a href={`#${id}`}>{SECTION_TITLES[id]}</a>
            </li>
          ))}
          <li>
            <a href="#latest-run">{copy.sections.latest}</a>
          </li>
        </ol>
      </Contents>
      <Changes document={document} />
      <VisibilityTrend document={document} points={points} />
      {document.said !== undefined && <SaidTrend document={document} said={document.said} points={points} />}
      <ShareTrend document={document} points={points} />
      <CompetitorChanges document={document} />
      <QuestionChanges document={document} />
      {latest !== null && (
        <>
          <Section id="latest-run" aria-labelledby="latest-run-title">
            <h2 id="latest-run-title">{copy.sections.latest}</h2>
            <p>{ukDay(latest.madeAt)}</p>
          </Section>
          <AuditSections document={latest} />
        </>
      )}
    </ReportFrame>
  );
}

/** What every address that holds no finished run shows: the same page. */
export function MonitorPendingPage() {
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
