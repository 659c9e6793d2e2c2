import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';

/**
 * The ceiling `npm run bench` compares the site with: a bare node:http server that answers each
 * recorded path with the status, headers and bytes the site sent for it, from memory, and does
 * nothing else. Usage: node --import tsx scripts/bench/baseline-server.ts <recording.json>, with
 * HOST and PORT in the environment. The recording is what scripts/bench.ts fetched from the site.
 */

export interface RecordedResponse {
  path: string;
  status: number;
  headers: Record<string, string | string[]>;
  /** The body as sent (brotli when the site sent brotli), base64. */
  body: string;
}

const [recordingFile] = process.argv.slice(2);
if (!recordingFile) throw new Error('usage: baseline-server.ts <recording.json>');
const recorded = JSON.parse(readFileSync(recordingFile, 'utf8')) as RecordedResponse[];
const responses = new Map(
  recorded.map((response) => [response.path, { status: response.status, headers: response.headers as OutgoingHttpHeaders, body: Buffer.from(response.body, 'base64') }]),
);

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const response = responses.get(queryAt === -1 ? url : url.slice(0, queryAt));
  if (!response) {
    res.writeHead(404, { 'Content-Length': 0 });
    res.end();
    return;
  }
  res.writeHead(response.status, response.headers);
  res.end(response.body);
});
// The same keep-alive timeout as the site's server (server/index.ts).
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
