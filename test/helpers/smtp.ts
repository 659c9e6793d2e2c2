import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export type SmtpMode = 'accept' | 'reject' | 'silent';

export interface TestSmtpServer {
  url: string;
  /** The mails it accepted: each one answered 250 on a connection still open. */
  received: ReceivedMail[];
  /** Can change while it runs: a provider that refuses mail during an outage, then accepts it. */
  mode: SmtpMode;
  /**
   * A slow provider: the next message it reads is answered only when `answerHeld` is called, so a
   * test can make something happen while a mail is on its way (its sender waiting for the answer).
   */
  holdNextReply(): void;
  /** Answers every message held so far (to a sender that hung up meanwhile, an answer nobody hears). */
  answerHeld(): void;
  /** Messages read in full and not answered yet. */
  readonly awaitingReply: number;
  close(): Promise<void>;
}

/**
 * A real SMTP peer on a free loopback port. `mode`: 'accept' receives mail; 'reject' answers each
 * message with a permanent failure; 'silent' accepts the connection and never answers (a stuck
 * server, to prove that the worker's timeouts bound it).
 *
 * Like a mail server that keeps to SMTP's rule that it takes responsibility for a message with
 * its 250 answer, it accepts a message only if the sender is still connected when it answers: a
 * sender that hung up before then did not hand the message over.
 */
export function startSmtpServer(initial: SmtpMode = 'accept'): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { mode: initial, holdNext: false, awaitingReply: 0 };
  const held: (() => void)[] = [];
  const closedSessions = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (state.mode === 'silent') return; // never call back: the greeting never comes
      callback();
    },
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.mode === 'reject') {
          const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
          return;
        }
        const answer = () => {
          state.awaitingReply -= 1;
          if (closedSessions.has(session.id)) return;
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((address) => address.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        };
        state.awaitingReply += 1;
        if (state.holdNext) {
          state.holdNext = false;
          held.push(answer);
        } else answer();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.server.address() as AddressInfo;
      resolve({
        url: `smtp://127.0.0.1:${port}`,
        received,
        get mode() {
          return state.mode;
        },
        set mode(mode) {
          state.mode = mode;
        },
        holdNextReply() {
          state.holdNext = true;
        },
        answerHeld() {
          for (const answer of held.splice(0)) answer();
        },
        get awaitingReply() {
          return state.awaitingReply;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** Undoes quoted-printable soft breaks and =XX escapes, enough to search a message's text. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
