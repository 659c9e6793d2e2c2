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
  received: ReceivedMail[];
  /** Can change while it runs: a provider that refuses mail during an outage, then accepts it. */
  mode: SmtpMode;
  close(): Promise<void>;
}

/**
 * A real SMTP peer on a free loopback port. `mode`: 'accept' receives mail; 'reject' answers each
 * message with a permanent failure; 'silent' accepts the connection and never answers (a stuck
 * server, to prove that the worker's timeouts bound it).
 */
export function startSmtpServer(initial: SmtpMode = 'accept'): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { mode: initial };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (state.mode === 'silent') return; // never call back: the greeting never comes
      callback();
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
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
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
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** Undoes quoted-printable soft breaks and =XX escapes, enough to search a message's text. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
