import { callPermission } from '../../visibility-probe/call-permission';
import { ApiKey } from '../../visibility-probe/api-key';
import { createAssistantClient } from '../../visibility-probe/assistants';
import type { CallAnswer } from '../../visibility-probe/prober';
import { reportSummary } from '../../visibility-probe/report';
import type { ProbeAnswer } from '../../visibility-probe/probe-report';
import { runProbe } from '../../visibility-probe/run-probe';
import type { AuditFigures, AuditMessage, AuditStart } from './auditor';
import { monitorFacts } from '../monitor/compose-trend';
import { composeAudit } from './compose-audit';

/**
 * One audit run, in a process of its own: auditor.ts starts it at the lowest scheduling priority
 * and sends it the run. It asks the questions the run has no answer to yet (asking the server
 * before each call, which counts it against the day's limit), sends each answer as it arrives for
 * the server to keep, and at the end composes the report from every answer, here, where they are.
 */
const send = (message: AuditMessage, then: () => void = () => undefined) => process.send?.(message, undefined, undefined, then);

// The server gone (killed, or crashed): nothing is waiting for this run.
process.once('disconnect', () => process.exit(0));

const { allowCall, answer } = callPermission((request) => send({ kind: 'may-call', request }));

process.on('message', (message: AuditStart | CallAnswer) => {
  if (message.kind === 'call') {
    answer(message);
    return;
  }
  const withoutKeys = (text: string) => message.assistants.reduce((kept, { apiKey }) => kept.split(apiKey).join('[key removed]'), text);
  // Its own clock runs on from the server's at the start: the dates of the answers are the server's.
  const offset = Date.parse(message.startedAt) - Date.now();
  const clock = () => new Date(Date.now() + offset);
  const assistants = message.assistants.length;
  runProbe(message.input, {
    assistants: message.assistants.map((assistant) => createAssistantClient({ ...assistant, apiKey: new ApiKey(assistant.apiKey) })),
    promptsPerAssistant: message.promptsPerAssistant,
    allowCall,
    clock,
    ...(message.questions ? { questions: message.questions.map((planned) => planned.question) } : {}),
    previous: message.previous.map(({ assistant, question, answer }) => ({ assistant, question, answer: JSON.parse(answer) as ProbeAnswer })),
    onQuestions: (prompts) => send({ kind: 'questions', count: assistants === 0 ? 0 : prompts.length }),
    onAnswer: ({ assistant, question, answer }) => send({ kind: 'answer', answer: { assistant, question, answer: withoutKeys(JSON.stringify(answer)) } }),
    ...(message.callTimeoutMs ? { callTimeoutMs: message.callTimeoutMs } : {}),
  })
    .then((probe) => {
      const document = composeAudit({ business: message.input.business, check: message.check, probe, madeAt: clock(), ...(message.questions ? { planned: message.questions } : {}) });
      // A monitored client's run keeps, beside its report, what its trend compares question by question.
      const facts = message.questions ? { facts: withoutKeys(JSON.stringify(monitorFacts(probe))) } : {};
      const figures: AuditFigures = {
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
      };
      send({ kind: 'report', document: withoutKeys(JSON.stringify(document)), figures, ...facts }, () => process.exit(0));
    })
    .catch((error: unknown) => send({ kind: 'failed', reason: withoutKeys(error instanceof Error ? error.message : String(error)) }, () => process.exit(0)));
});
