import { createJudge } from '../answer-check/judge';
import { composeAudit } from '../reports/audit/compose-audit';
import { factAlarm } from '../reports/audit/what-they-say';
import { composeTrend, monitorFacts } from '../reports/monitor/compose-trend';
import { ApiKey } from '../visibility-probe/api-key';
import { createAssistantClient } from '../visibility-probe/assistants';
import { callPermission } from '../visibility-probe/call-permission';
import type { CallAnswer } from '../visibility-probe/prober';
import type { PlannedQuestion } from '../visibility-probe/prompts';
import type { ProbeAnswer } from '../visibility-probe/probe-report';
import { reportSummary } from '../visibility-probe/report';
import { runProbe } from '../visibility-probe/run-probe';
import type { RunFigures } from '../reports/run-outcome';
import type { RunMessage, RunReport, RunStart } from './runner';

/**
 * One run, an audit's or a client's, in a process of its own: runner.ts starts it at the lowest
 * scheduling priority and sends it the run. It asks the questions the run has no answer to yet
 * (asking the server before each call, which counts it against the day's limit), sends each answer
 * as it arrives for the server to keep, and at the end composes the report from every answer, here,
 * where they are; for a client, the facts its trend compares and, once every question is asked,
 * the trend itself, from its earlier runs (capped) and this one.
 */
const send = (message: RunMessage, then: () => void = () => undefined) => process.send?.(message, undefined, undefined, then);

// The server gone (killed, or crashed): nothing is waiting for this run.
process.once('disconnect', () => process.exit(0));

const { allowCall, answer } = callPermission((request) => send({ kind: 'may-call', request }));

process.on('message', (message: RunStart | CallAnswer) => {
  if (message.kind === 'call') {
    answer(message);
    return;
  }
  const keys = [...message.assistants, ...(message.judge ? [message.judge] : [])].map(({ apiKey }) => apiKey);
  const withoutKeys = (text: string) => keys.reduce((kept, key) => kept.split(key).join('[key removed]'), text);
  const facts = message.check?.facts?.business ?? null;
  // Its own clock runs on from the server's at the start: the dates of the answers are the server's.
  const offset = Date.parse(message.startedAt) - Date.now();
  const clock = () => new Date(Date.now() + offset);
  const assistants = message.assistants.length;
  let asked: PlannedQuestion[] | undefined = message.questions;
  runProbe(message.input, {
    assistants: message.assistants.map((assistant) => createAssistantClient({ ...assistant, apiKey: new ApiKey(assistant.apiKey) })),
    promptsPerAssistant: message.promptsPerAssistant,
    aboutCount: message.aboutPrompts,
    allowCall,
    clock,
    ...(message.questions ? { questions: message.questions } : {}),
    // Judged against the business's own site: with no facts read from it, nothing is judged.
    ...(message.judge && facts ? { judging: { judge: createJudge({ ...message.judge, apiKey: new ApiKey(message.judge.apiKey) }), facts } } : {}),
    previous: message.previous.map(({ assistant, question, answer: kept }) => ({ assistant, question, answer: JSON.parse(kept) as ProbeAnswer })),
    onQuestions: (planned, about) => {
      asked = [...planned];
      send({ kind: 'questions', questions: assistants === 0 ? [] : asked, about: assistants === 0 ? 0 : about.length });
    },
    onAnswer: ({ assistant, question, answer: given, judged }) =>
      send({ kind: 'answer', answer: { assistant, question, answer: withoutKeys(JSON.stringify(given)) }, ...(judged ? { judged } : {}) }),
    ...(message.callTimeoutMs ? { callTimeoutMs: message.callTimeoutMs } : {}),
  })
    .then((probe) => {
      const madeAt = clock();
      const document = composeAudit({ business: message.input.business, check: message.check, probe, madeAt, ...(asked ? { planned: asked } : {}) });
      const figures: RunFigures = {
        status: probe.status,
        reason: probe.reason === null ? null : withoutKeys(probe.reason),
        score: probe.score,
        summary: withoutKeys(reportSummary(probe)),
        business: probe.brand,
        site: probe.domain,
        nameSigns: probe.nameSigns,
        pageTitle: probe.pageTitle,
        ...(probe.typedNames ? { typedNames: probe.typedNames } : {}),
        assistants: probe.assistants.map((assistant) => assistant.id),
        questions: probe.prompts.length,
        answered: probe.assistants.reduce((sum, assistant) => sum + assistant.answered, 0),
        alarm: factAlarm(document.said),
      };
      const report: RunReport = { document: withoutKeys(JSON.stringify(document)), figures };
      const work = message.trend;
      if (work) {
        const facts = monitorFacts(probe);
        report.facts = withoutKeys(JSON.stringify(facts));
        // Only a run that asked every question enters the trend: half a sample is no point of it.
        if (probe.status === 'done') {
          const runs = [...work.earlier, { id: work.runId, series: work.series, madeAt: madeAt.toISOString(), document, facts }];
          report.trend = withoutKeys(JSON.stringify(composeTrend({ client: work.client, runs, earlierSeriesRuns: work.earlierSeriesRuns })));
        }
      }
      send({ kind: 'report', report }, () => process.exit(0));
    })
    .catch((error: unknown) => send({ kind: 'failed', reason: withoutKeys(error instanceof Error ? error.message : String(error)) }, () => process.exit(0)));
});
