import { BackgroundProcessEnded, builtProcessFile, runBackgroundProcess } from '../../background-process';
import type { BackgroundPriority, ProbeAssistantSetting } from '../../config';
import type { SiteCheckReport } from '../../site-check/check-report';
import type { AssistantId } from '../../visibility-probe/assistant-catalogue';
import { PROBE_SILENCE_LIMIT_MS, PROBE_STUCK, type CallAnswer } from '../../visibility-probe/prober';
import type { PlannedQuestion } from '../../visibility-probe/prompts';
import type { ProbeReport } from '../../visibility-probe/probe-report';
import type { ProbeInput } from '../../visibility-probe/run-probe';
import type { StoredAnswer } from './audit-store';

/**
 * The heap an audit run's process may use: up to 100 questions to each of four assistants, every
 * answer kept (at most MAX_ANSWER_CHARACTERS of text and a few sources each) until the report is
 * composed from them, and four answers being read at once.
 */
const AUDIT_HEAP_MB = 256;

/** What the agency reads when a run's process had to be ended. */
const AUDIT_TOO_LARGE = "the assistants' answers took more memory to read than an audit run may use";

/** What an audit run's process is sent first: the keys travel here, never in its arguments or environment. */
export interface AuditStart {
  kind: 'start';
  assistants: { id: AssistantId; model: string; baseUrl: string; apiKey: string }[];
  promptsPerAssistant: number;
  input: ProbeInput;
  /** The run's own site check (null: the site could not be checked). */
  check: SiteCheckReport | null;
  /** The answers an earlier start of this run kept: not asked again. */
  previous: StoredAnswer[];
  /** The questions fixed beforehand (a monitored client's run): asked as they are, and the run's MonitorRunFacts reported with its report. */
  questions?: PlannedQuestion[];
  /** The caller's clock when the run started (ISO 8601); the process's own clock runs on from there. */
  startedAt: string;
  callTimeoutMs?: number;
}

/** How a run's probe ended, as the report's figures say it. */
export interface AuditFigures {
  status: ProbeReport['status'];
  reason: string | null;
  /** The visibility score, 0-100; null when no assistant answered. */
  score: number | null;
  /** ProbeReport's one line (reportSummary). */
  summary: string;
  /** The business as the answers were searched for: its name (null: none) and its site, where the name was read, and the home page's title. */
  business: string | null;
  site: string | null;
  nameSigns: ProbeReport['nameSigns'];
  pageTitle: string | null;
  typedNames?: string[];
  /** The assistants asked, the questions put to each, and the answers received in all. */
  assistants: AssistantId[];
  questions: number;
  answered: number;
}

/** What a run's process says: the questions, each call it would make (the parent counts it), each answer as it arrives, then the report or why there is none. */
export type AuditMessage =
  | { kind: 'may-call'; request: number }
  | { kind: 'questions'; count: number }
  | { kind: 'answer'; answer: StoredAnswer }
  | { kind: 'report'; document: string; figures: AuditFigures; facts?: string }
  | { kind: 'failed'; reason: string };

/** A run's end as its process reported it: the report (AuditDocument JSON, not parsed here) and its figures. */
interface AuditReport {
  document: string;
  figures: AuditFigures;
  /** A monitored client's run: the facts its trend needs (MonitorRunFacts JSON). */
  facts?: string;
}

export interface AuditorOptions {
  /** The configured assistants (config.probe.assistants). */
  assistants: readonly ProbeAssistantSetting[];
  /** AUDIT_PROMPTS */
  promptsPerAssistant: number;
  clock: () => Date;
  callTimeoutMs?: number;
  /** The code each run's process runs; the built one by default. */
  auditFile?: string;
  /** BACKGROUND_PRIORITY (idle by default). */
  priority?: BackgroundPriority;
}

interface AuditOptions {
  /** Asked before every call: true counts the call; a throw stops the run's questions there. */
  allowCall: () => boolean;
  /** Told how many questions each assistant is asked, once they are made. */
  onQuestions: (count: number) => void;
  /** Told of each answer as it arrives, to be kept at once. */
  onAnswer: (answer: StoredAnswer) => void;
  signal?: AbortSignal;
}

export interface Auditor {
  /** Runs the questions of one audit run and composes its report; rejects with the reason when its process failed, was ended or was stopped. */
  audit(work: { input: ProbeInput; check: SiteCheckReport | null; previous: StoredAnswer[]; questions?: PlannedQuestion[] }, options: AuditOptions): Promise<AuditReport>;
}

/**
 * Runs each audit run's questions in a process of its own, as the lead's probe runs its own
 * (prober.ts): at idle priority, apart from the pages, with a heap limit, ended when it goes
 * silent for longer than a call takes. The process also composes the report from the answers,
 * where they are, and sends back only the report and its figures: the answers, megabytes at 100
 * questions, are never parsed on the thread that serves pages.
 */
export function createAuditor(options: AuditorOptions): Auditor {
  const auditFile = options.auditFile ?? builtProcessFile('audit-process');
  const reasonFor = (error: BackgroundProcessEnded) =>
    error.end === 'silent' || error.end === 'deadline'
      ? PROBE_STUCK
      : error.end === 'out of memory'
        ? AUDIT_TOO_LARGE
        : error.end === 'not started'
          ? `the audit could not run: ${error.message}`
          : 'the audit stopped before it had a report';

  return {
    audit: async ({ input, check, previous, questions }, { allowCall, onQuestions, onAnswer, signal }) => {
      const start: AuditStart = {
        kind: 'start',
        assistants: options.assistants.map((setting) => ({ id: setting.id, model: setting.model, baseUrl: setting.baseUrl, apiKey: setting.apiKey.reveal() })),
        promptsPerAssistant: options.promptsPerAssistant,
        input,
        check,
        previous,
        ...(questions ? { questions } : {}),
        startedAt: options.clock().toISOString(),
        ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
      };
      try {
        return await runBackgroundProcess<AuditReport, AuditMessage, CallAnswer>({
          file: auditFile,
          heapMb: AUDIT_HEAP_MB,
          start,
          silenceMs: PROBE_SILENCE_LIMIT_MS,
          ...(options.priority ? { priority: options.priority } : {}),
          ...(signal ? { signal } : {}),
          onMessage: (message, run) => {
            if (message.kind === 'may-call') {
              try {
                run.reply({ kind: 'call', request: message.request, allowed: allowCall() });
              } catch (error) {
                run.reply({ kind: 'call', request: message.request, error: error instanceof Error ? error.message : String(error) });
              }
            } else if (message.kind === 'questions') onQuestions(message.count);
            else if (message.kind === 'answer') onAnswer(message.answer);
            else if (message.kind === 'report') run.done({ document: message.document, figures: message.figures, ...(message.facts ? { facts: message.facts } : {}) });
            else run.fail(message.reason);
          },
        });
      } catch (error) {
        throw error instanceof BackgroundProcessEnded ? new Error(reasonFor(error)) : error;
      }
    },
  };
}
