import { BackgroundProcessEnded, builtProcessFile, runBackgroundProcess } from '../background-process';
import type { ProbeAssistantSetting } from '../config';
import type { AssistantId } from './assistant-catalogue';
import { CALL_TIMEOUT_MS, MAX_RETRY_WAIT_MS } from './call-limits';
import type { ProbeReport } from './probe-report';
import type { ProbeInput } from './run-probe';
import type { BackgroundPriority } from '../config';

/**
 * The heap a probe's process may use: the client libraries read four answers at once, each at
 * most MAX_RESPONSE_BYTES, and keep a few kilobytes of each; far less than the machine can spare.
 */
const PROBE_HEAP_MB = 128;

/**
 * The longest a probe's process may go without a word. It asks before every call, retries
 * included, so it is never silent longer than one call and one wait before a retry, unless it is
 * stuck: then it is ended.
 */
export const PROBE_SILENCE_LIMIT_MS = CALL_TIMEOUT_MS + MAX_RETRY_WAIT_MS + 30_000;

/** What the agency reads when a probe's process had to be ended. */
export const PROBE_TOO_LARGE = "the assistants' answers took more memory to read than a probe may use";
export const PROBE_STUCK = 'the probe stopped answering, so it was ended';

/** An assistant's setting as it travels to a probe's or a run's process: its key in plain text, there only. */
export interface AssistantStart {
  id: AssistantId;
  model: string;
  baseUrl: string;
  apiKey: string;
}

export const assistantStart = (setting: ProbeAssistantSetting): AssistantStart => ({ id: setting.id, model: setting.model, baseUrl: setting.baseUrl, apiKey: setting.apiKey.reveal() });

/** What a probe's process is sent first: the keys travel here, never in its arguments or environment. */
export interface ProbeStart {
  kind: 'start';
  assistants: AssistantStart[];
  promptsPerAssistant: number;
  input: ProbeInput;
  /** The caller's clock when the probe started (ISO 8601); its own clock runs on from there. */
  startedAt: string;
  callTimeoutMs?: number;
}

/** The answer to a process's request to make a call. */
export type CallAnswer = { kind: 'call'; request: number; allowed: boolean } | { kind: 'call'; request: number; error: string };

/** What a probe's process says: that it would make a call (the parent counts it), then how the probe ended. */
export type ProbeMessage = { kind: 'may-call'; request: number } | { kind: 'report'; report: ProbeReport } | { kind: 'failed'; reason: string };

export interface ProberOptions {
  /** The configured assistants (config.probe.assistants). */
  assistants: readonly ProbeAssistantSetting[];
  /** PROBE_PROMPTS */
  promptsPerAssistant: number;
  clock: () => Date;
  callTimeoutMs?: number;
  /** Tests only: how long a silent process is let be (PROBE_SILENCE_LIMIT_MS by default). */
  silenceLimitMs?: number;
  /** The code each probe's process runs (tests give one that misbehaves); the built one by default. */
  probeFile?: string;
  /** BACKGROUND_PRIORITY (idle by default). */
  priority?: BackgroundPriority;
}

interface ProbeOptions {
  /** Asked before every call, as runProbe asks it: true counts the call; a throw fails the probe. */
  allowCall: () => boolean;
  /** Ends the probe at once (a stop): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface Prober {
  /** Runs one probe; rejects with the reason when its process failed, was ended, or was stopped. */
  probe(input: ProbeInput, options: ProbeOptions): Promise<ProbeReport>;
}

/**
 * Runs each probe in a process of its own, at idle priority, apart from the process that serves
 * pages: the client libraries parse every answer (JSON, their own validation) and the probe reads
 * it, and an endpoint can send several megabytes of it; none of that holds up a page, the health
 * check or the mail. The process asks this one before every call, which counts the call in the
 * database; it has a heap limit, and it is ended when it goes silent for longer than a call takes.
 */
export function createProber(options: ProberOptions): Prober {
  const probeFile = options.probeFile ?? builtProcessFile('probe-process');
  const silenceLimitMs = options.silenceLimitMs ?? PROBE_SILENCE_LIMIT_MS;

  /** A probe whose process was ended says why, as the agency reads it. */
  const reasonFor = (error: BackgroundProcessEnded) =>
    error.end === 'silent' || error.end === 'deadline'
      ? PROBE_STUCK
      : error.end === 'out of memory'
        ? PROBE_TOO_LARGE
        : error.end === 'not started'
          ? `the probe could not run: ${error.message}`
          : 'the probe stopped before it had a report';

  return {
    probe: async (input, { allowCall, signal }) => {
      const start: ProbeStart = {
        kind: 'start',
        assistants: options.assistants.map(assistantStart),
        promptsPerAssistant: options.promptsPerAssistant,
        input,
        startedAt: options.clock().toISOString(),
        ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
      };
      try {
        return await runBackgroundProcess<ProbeReport, ProbeMessage, CallAnswer>({
          file: probeFile,
          heapMb: PROBE_HEAP_MB,
          ...(options.priority ? { priority: options.priority } : {}),
          start,
          silenceMs: silenceLimitMs,
          ...(signal ? { signal } : {}),
          onMessage: (message, run) => {
            if (message.kind === 'may-call') {
              try {
                run.reply({ kind: 'call', request: message.request, allowed: allowCall() });
              } catch (error) {
                run.reply({ kind: 'call', request: message.request, error: error instanceof Error ? error.message : String(error) });
              }
            } else if (message.kind === 'report') run.done(message.report);
            else run.fail(message.reason);
          },
        });
      } catch (error) {
        throw error instanceof BackgroundProcessEnded ? new Error(reasonFor(error)) : error;
      }
    },
  };
}
