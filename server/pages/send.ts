import type { IncomingMessage, ServerResponse } from 'node:http';
import { isNotModified } from './conditional';
import { negotiateEncoding } from './negotiation';
import type { FlatHeaders, Representation } from './representation';

/**
 * Sends a representation: the encoding the request accepts (or the one a per-request body was
 * made in), 304 when the request already holds it, no body for HEAD. Every header goes in
 * writeHead's one list: a setHeader() before it would send all of them through node's slower
 * per-header path. `extra` adds per-response headers (the request id on the fast path). Returns
 * the status sent, for the log.
 */
export function send(req: IncomingMessage, res: ServerResponse, representation: Representation, extra: FlatHeaders = []): number {
  const { variants } = representation;
  const variant = variants[negotiateEncoding(req.headers['accept-encoding'])] ?? variants.identity ?? Object.values(variants)[0];
  if (!variant) throw new Error('A representation without a body');
  if (representation.status === 200 && variant.notModified && isNotModified(representation.etags, req.headers['if-none-match'])) {
    res.writeHead(304, extra.length > 0 ? [...variant.notModified, ...extra] : variant.notModified);
    res.end();
    return 304;
  }
  res.writeHead(representation.status, extra.length > 0 ? [...variant.headers, ...extra] : variant.headers);
  res.end(req.method === 'HEAD' ? undefined : variant.body);
  return representation.status;
}
