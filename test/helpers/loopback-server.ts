import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LoopbackListener {
  port: number;
  /** Ends every open connection, then stops listening: a client's keep-alive never holds a test up. */
  close(): Promise<void>;
}

/** Puts a test's HTTP server on a free port of 127.0.0.1. */
export function listenOnLoopback(server: Server): Promise<LoopbackListener> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
