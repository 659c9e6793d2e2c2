import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { ReceivedMail, TestSmtpServer } from './smtp';

export interface SwitchableSmtpServer extends TestSmtpServer {
  /** 'reject' answers each message with a permanent failure (550); 'accept' receives it. */
  mode: 'accept' | 'reject';
}

/**
 * A real SMTP peer whose answer can change while it runs: it refuses mail first, then accepts
 * it, at the same address, as a provider does after an outage.
 */
export function startSwitchableSmtpServer(initial: 'accept' | 'reject'): Promise<SwitchableSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { mode: initial };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
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
