import type { Db } from '../../db/database';
import { htmlOf, newMessageId, utc, type MailMessage, type MailSettings } from '../../mail/mail-message';
import { alarmLine, alarmTag, type FactAlarm, type RunResult } from '../run-outcome';
import type { TrendDocument } from './trend-document';

/** The client as its mails name it and reach it. */
export interface MailedClient {
  id: number;
  label: string;
  site: string;
  email: string | null;
}

/** A finished run of a client, as its mails tell it. */
export interface FinishedClientRun {
  client: MailedClient;
  run: { id: number; attempts: number; series: number };
  result: RunResult;
  /** The client's trend with this run in it (the stored one when the run stopped part way). */
  trend: TrendDocument | null;
  /** The run before it in the same series, if any (its score and date). */
  before: { visibilityScore: number | null; madeAt: string } | null;
  /** A run stopped part way by the day's calls goes on by itself then; null otherwise. */
  goesOnAt: Date | null;
  /** An assistant giving a wrong phone number, or saying the client has closed, in this run; null: none. */
  alarm: FactAlarm | null;
  /** The links minted for this run's mails: the agency's always, the client's when its note goes. */
  agencyLink: string;
  clientLink: string | null;
}

const score = (value: number | null) => (value === null ? 'none' : `${value}/100`);

/**
 * The agency's mail after a client's run: the client, the score and its change, the real changes
 * first (in the trend's own sentences), then those within the usual variation, new competitors,
 * and the page's link; or, for a run that failed, why.
 */
export function composeAgencyMail(finished: FinishedClientRun, settings: MailSettings): MailMessage {
  const { client, run, result, trend, before } = finished;
  const name = `client #${client.id}, ${client.label} (${client.site})`;
  const was = before ? ` (was ${score(before.visibilityScore)} on ${utc(before.madeAt).slice(0, 10)})` : ' (the first run of its series)';
  const changes = trend?.changes ?? [];
  const real = changes.filter((change) => change.verdict !== 'same');
  const same = changes.filter((change) => change.verdict === 'same');
  const newSeries = trend !== null && trend.series.number === run.series && trend.series.earlierRuns > 0 && trend.runs.length === 1;
  const paragraphs =
    result.status === 'failed'
      ? [
          `The monitoring run #${run.id} of ${name} failed: ${result.reason ?? 'no reason given'}.`,
          `Nothing new is on its page. To run it again now: npm run clients -- run --id ${client.id}`,
        ]
      : [
          // What costs the client customers today comes before every figure.
          ...(finished.alarm ? [alarmLine(finished.alarm, client.label)] : []),
          `The monitoring run #${run.id} of ${name} has ${result.status === 'done' ? 'finished' : `stopped part way: ${result.reason ?? ''}${finished.goesOnAt ? `; it goes on by itself after ${utc(finished.goesOnAt.toISOString())}, asking only the rest, and enters the trend once complete` : ''}`}.`,
          `Visibility score: ${score(result.visibilityScore)}${was}. Readiness score: ${score(result.readinessScore)}.`,
          ...(newSeries ? [`Its questions changed before this run: series ${run.series} begins here, and is not compared with the ${trend.series.earlierRuns} run(s) before.`] : []),
          ...(real.length > 0 ? [`Real changes:\n${real.map((change) => change.sentence).join('\n')}`] : before ? ['No real change since the run before.'] : []),
          ...(same.length > 0 ? [`Within the usual variation:\n${same.map((change) => change.sentence).join('\n')}`] : []),
          ...((trend?.competitorsNew.length ?? 0) > 0
            ? [`New competitors named: ${trend?.competitorsNew.map((competitor) => `${competitor.name} (${competitor.answers} answer${competitor.answers === 1 ? '' : 's'})`).join(', ')}.`]
            : []),
          `The client's page, for the agency (private: anyone with this link can read it):\n${finished.agencyLink}`,
          finished.clientLink !== null ? `A short note with a link of their own has been sent to ${client.email ?? ''} (MONITOR_SEND=1).` : '',
        ].filter(Boolean);
  const status = result.status === 'failed' ? 'failed' : `${alarmTag(finished.alarm)}visibility ${score(result.visibilityScore)}${before ? ` (was ${score(before.visibilityScore)})` : ''}${real.length > 0 ? `, ${real.length} real change${real.length === 1 ? '' : 's'}` : ''}`;
  return {
    from: settings.mailFrom,
    to: settings.mailTo,
    subject: `AI visibility monitoring of ${client.label}: ${status}`.replace(/\s+/g, ' '),
    text: paragraphs.join('\n\n'),
    html: htmlOf(paragraphs, settings.siteUrl),
    messageId: newMessageId('monitor-run', run.id, settings.siteUrl),
  };
}

/** The client's note: its page's link (minted for it), from MAIL_FROM, replies to the agency's inbox. */
function composeClientNote(finished: FinishedClientRun, link: string, settings: MailSettings): MailMessage {
  const paragraphs = [
    'Hello,',
    `This month's AI visibility report for ${finished.client.label} is ready:\n${link}`,
    'It shows how often ChatGPT, Claude, Gemini and Perplexity recommend you when asked the same questions as before, who they name instead, and which changes since last time are real rather than the usual variation of their answers.',
    'The link is yours alone: anyone who has it can read the report, so share it with care. Reply to this e-mail with any question.',
    settings.brand,
  ];
  return {
    from: settings.mailFrom,
    to: finished.client.email ?? '',
    replyTo: { name: settings.brand, address: settings.mailTo },
    subject: `Your AI visibility report: ${finished.client.label}`,
    text: paragraphs.join('\n\n'),
    html: htmlOf(paragraphs, settings.siteUrl),
    messageId: newMessageId('monitor-note', finished.run.id, settings.siteUrl),
  };
}

/** Queues the monitoring mails in the outbox, under the client's contact address (erased with it). */
export class MonitorMail {
  private readonly insert;

  constructor(
    db: Db,
    private readonly settings: MailSettings,
  ) {
    this.insert = db.prepare(
      `INSERT INTO mail_outbox (kind, source_id, subject_email, message_id, message, next_attempt_at, created_at) VALUES (@kind, @source_id, @subject_email, @message_id, @message, @now, @now)`,
    );
  }

  /** The agency's mail, and the client's note when `finished.clientLink` is set; call it inside the transaction that records the run. */
  runEnded(finished: FinishedClientRun, now: Date): void {
    this.queue('monitor-run', finished.client, composeAgencyMail(finished, this.settings), now);
    if (finished.clientLink !== null) this.queue('monitor-note', finished.client, composeClientNote(finished, finished.clientLink, this.settings), now);
  }

  private queue(kind: 'monitor-run' | 'monitor-note', client: MailedClient, mail: MailMessage, now: Date): void {
    this.insert.run({ kind, source_id: client.id, subject_email: client.email ?? '', message_id: mail.messageId, message: JSON.stringify(mail), now: now.toISOString() });
  }
}
