import { callPermission } from './call-permission';
import { ApiKey } from './api-key';
import { createAssistantClient } from './assistants';
import type { CallAnswer, ProbeMessage, ProbeStart } from './prober';
import { runProbe } from './run-probe';

/**
 * One visibility probe, in a process of its own: prober.ts starts it at the lowest scheduling
 * priority and sends it the probe. Everything that touches an assistant's answer runs here: the
 * calls, the client libraries' parsing of what comes back, and the reading of who is named. Before
 * each call it asks the server, which counts the call against the day's limit in the database;
 * the report goes back when the probe ends.
 */
const send = (message: ProbeMessage, then: () => void = () => undefined) => process.send?.(message, undefined, undefined, then);

// The server gone (killed, or crashed): nothing is waiting for this probe.
process.once('disconnect', () => process.exit(0));

const { allowCall, answer } = callPermission((request) => send({ kind: 'may-call', request }));

process.on('message', (message: ProbeStart | CallAnswer) => {
  if (message.kind === 'call') {
    answer(message);
    return;
  }
  // Its own clock runs on from the server's at the start: the dates of the answers are the server's.
  const offset = Date.parse(message.startedAt) - Date.now();
  runProbe(message.input, {
    assistants: message.assistants.map((assistant) => createAssistantClient({ ...assistant, apiKey: new ApiKey(assistant.apiKey) })),
    promptsPerAssistant: message.promptsPerAssistant,
    allowCall,
    clock: () => new Date(Date.now() + offset),
    ...(message.callTimeoutMs ? { callTimeoutMs: message.callTimeoutMs } : {}),
  }).then(
    (report) => send({ kind: 'report', report }, () => process.exit(0)),
    (error: unknown) => {
      const reason = message.assistants.reduce((text, { apiKey }) => text.split(apiKey).join('[key removed]'), error instanceof Error ? error.message : String(error));
      send({ kind: 'failed', reason }, () => process.exit(0));
    },
  );
});
