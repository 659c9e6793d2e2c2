import { promises as dns, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket, type TcpSocketConnectOpts } from 'node:net';
import zlib from 'node:zlib';
import { addressRefusal, sameAddress, WEB_PORTS, type AddressAllowlist } from './address-policy';

/**
 * The one way the site check reaches the network. A visitor chooses the URL, so this module owns
 * every rule of safety and nothing else in the site check opens a connection:
 *
 * - http and https only, no user or password in the URL, ports 80 and 443 only;
 * - every address the host resolves to is checked (address-policy.ts), and the connection goes
 *   to an address that was checked: the request's own lookup is replaced by one that answers with
 *   the checked addresses, so a DNS answer that changes between check and connect (rebinding)
 *   changes nothing, and the socket's peer is compared once more on connect;
 *   each redirect is a new URL, checked again from the top, 5 at most;
 * - names are resolved by c-ares (dns.Resolver), which waits on sockets, not on the thread pool
 *   that file reads, compression and the log share: a name server that never answers holds
 *   nothing of the process, and each lookup gives up after DNS_TIMEOUT_MS a try; one check
 *   resolves each name once and at most MAX_NAMES names; the hosts file is not read, and
 *   `localhost` names are loopback (RFC 6761), which the rules refuse;
 * - at most MAX_BYTES of a body is read (less where the caller asks), counted after
 *   decompression too (a zip bomb stops at the same size), then reading stops and the connection
 *   is closed; 10 s per fetch, and the caller's signal (the check's own deadline) ends it sooner;
 * - no cookie is sent or kept, no connection is reused, one User-Agent names the site.
 */

export const MAX_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;
/** How long one try of a DNS query waits for its answer (two tries). */
const DNS_TIMEOUT_MS = 2500;
/**
 * How long one of a host's addresses may take to accept before the next is tried (Node's "happy
 * eyeballs" over the checked addresses, IPv6 and IPv4). Node's default of 250 ms ends an attempt
 * that the kernel has already completed whenever the check's process, at idle priority, is not
 * given the CPU in time: a busy server then reported a reachable site as not fetched.
 */
const CONNECT_ATTEMPT_MS = 2000;
/** Different host names one fetcher resolves at most (a check asks for one site's few files). */
const MAX_NAMES = 8;

/** Resolves a host name to every address it has. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** The answer of a DNS query that failed, in a person's words. */
function lookupFailure(hostname: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'ENONAME' || code === 'NXDOMAIN') return `the name ${hostname} does not resolve to an address`;
  if (code === 'ETIMEOUT') return `no name server answered for ${hostname} in time`;
  return `the name ${hostname} could not be resolved (${code || (error instanceof Error ? error.message : String(error))})`;
}

/** A name's A and AAAA records, from `servers` or the name servers the system is configured with. */
function dnsResolver(servers?: readonly string[], timeoutMs = DNS_TIMEOUT_MS): Resolver & { cancel(): void } {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers) resolver.setServers(servers);
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      return [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ];
    }
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    throw v4.status === 'rejected' ? v4.reason : v6.status === 'rejected' ? v6.reason : new Error('no address');
  };
  return Object.assign(resolve, { cancel: () => resolver.cancel() });
}

/** A URL the rules do not let the checker fetch: nothing was sent to it. */
export class FetchRefused extends Error {
  constructor(
    message: string,
    /** The address refused: the one asked for, or a redirect's target. */
    readonly url: string,
  ) {
    super(message);
  }
}

/** A fetch that was allowed but did not give an answer: no such name, no connection, a timeout, a bad certificate, a loop. */
export class FetchFailed extends Error {}

/** A fetch given up after MAX_REDIRECTS redirects, all of them answered (a loop, or a chain too long to follow). */
export class TooManyRedirects extends FetchFailed {}

export interface FetcherOptions {
  userAgent: string;
  /** SITE_CHECK_ALLOW: addresses let through on any port (staging and tests). */
  allowlist: AddressAllowlist;
  resolver?: Resolver;
  /** The name servers to ask ("127.0.0.1:5353"); the system's (resolv.conf) by default. */
  nameServers?: readonly string[];
  /** How long one try of a DNS query waits (DNS_TIMEOUT_MS by default). */
  dnsTimeoutMs?: number;
  maxBytes?: number;
  fetchTimeoutMs?: number;
}

export interface FetchOptions {
  /** The Accept header; a crawler's HTML preference by default. */
  accept?: string;
  /** Ends the fetch early (the check's own deadline). */
  signal?: AbortSignal;
  /** Reads less of the body than the fetcher's limit (robots.txt: 500 KiB). */
  maxBytes?: number;
  /** The only hosts (with port) this fetch may reach, redirects included; any host when absent. */
  hosts?: ReadonlySet<string>;
}

export interface FetchedResponse {
  /** Where the answer came from, after redirects. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body after Content-Encoding is undone, at most maxBytes. */
  body: Buffer;
  /** The body was longer than maxBytes and reading stopped there. */
  truncated: boolean;
  /** Each redirect followed: the URL that answered it and its status. */
  redirects: { url: string; status: number }[];
}

export interface SiteFetcher {
  fetch(url: string | URL, options?: FetchOptions): Promise<FetchedResponse>;
  readonly userAgent: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** The host a URL names, without the brackets an IPv6 literal is written with. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Rejects when the signal aborts first; the work itself cannot be cancelled (a DNS lookup). */
function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A lookup that answers with the addresses already checked, whatever DNS says now. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (!first) {
      callback(new Error('no checked address'), '', 0);
      return;
    }
    if (options.all) (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
}

/** A decoder for the Content-Encoding the server used, or null for none; throws for one we did not ask for. */
function decoderFor(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      // Servers send zlib-wrapped deflate (as the standard says) or raw deflate; Inflate reads the
      // first, and raw deflate is rare enough to report as undecodable.
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new FetchFailed(`the server answered in an encoding it was not asked for (${encoding})`);
  }
}

function headerRecord(res: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Words for a network error a person reads in the report. */
function failureReason(error: unknown, url: URL): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const host = url.host;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return `the name ${bareHostname(url)} does not resolve to an address`;
  if (code === 'ECONNREFUSED') return `${host} refused the connection`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `${host} closed the connection before answering`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${host} cannot be reached from here`;
  // Every address tried timed out (Node gives an AggregateError with no message of its own).
  if (code === 'ETIMEDOUT') return `${host} did not accept a connection in time`;
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN') {
    return `${host} did not present a valid certificate (${code})`;
  }
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')) return `${host} did not answer in HTTP`;
  return `${host} could not be fetched: ${error instanceof Error ? error.message : String(error)}`;
}

export function createFetcher(options: FetcherOptions): SiteFetcher {
  const system = dnsResolver(options.nameServers, options.dnsTimeoutMs);
  const resolver = options.resolver ?? system;
  // Each name is resolved once; a check that keeps naming new hosts (redirects) stops at MAX_NAMES.
  const resolved = new Map<string, Promise<LookupAddress[]>>();
  const lookup = (hostname: string): Promise<LookupAddress[]> => {
    let answer = resolved.get(hostname);
    if (!answer) {
      if (resolved.size >= MAX_NAMES) return Promise.reject(new FetchFailed(`the check reached more than ${MAX_NAMES} different host names`));
      answer = resolver(hostname);
      resolved.set(hostname, answer);
    }
    return answer;
  };
  const fetcherMaxBytes = options.maxBytes ?? MAX_BYTES;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? FETCH_TIMEOUT_MS;
  const { allowlist, userAgent } = options;

  /** The addresses the URL may be fetched from, all of them checked; throws FetchRefused or FetchFailed. */
  async function checkedAddresses(url: URL, signal: AbortSignal): Promise<LookupAddress[]> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`only http and https addresses are checked, not ${url.protocol}`, url.href);
    if (url.username !== '' || url.password !== '') throw new FetchRefused('an address with a user name or password is not checked', url.href);
    const port = portOf(url);
    // With nothing allowlisted, a port other than 80 or 443 is refused before any lookup.
    if (allowlist.length === 0 && !WEB_PORTS.has(port)) throw new FetchRefused(`port ${port} is not a web port (only 80 and 443 are checked)`, url.href);
    const hostname = bareHostname(url);
    // The URL parser has already turned 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 into 127.0.0.1.
    const family = isIP(hostname);
    let addresses: LookupAddress[];
    if (family !== 0) {
      addresses = [{ address: hostname, family }];
    } else {
      try {
        addresses = await raceSignal(lookup(hostname), signal);
      } catch (error) {
        if (signal.aborted) {
          system.cancel();
          throw error;
        }
        if (error instanceof FetchFailed) throw error;
        throw new FetchFailed(lookupFailure(hostname, error));
      }
      if (addresses.length === 0) throw new FetchFailed(`the name ${hostname} does not resolve to an address`);
    }
    for (const { address } of addresses) {
      const refusal = addressRefusal(address, port, allowlist, family === 0 ? hostname : undefined);
      if (refusal) throw new FetchRefused(refusal, url.href);
    }
    return addresses;
  }

  /** One request to one checked URL: its status, headers and (capped) body, or the redirect's target. */
  function request(url: URL, addresses: LookupAddress[], accept: string, maxBytes: number, signal: AbortSignal): Promise<Omit<FetchedResponse, 'redirects' | 'url'> & { location?: string }> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (error: unknown, value?: Omit<FetchedResponse, 'redirects' | 'url'> & { location?: string }) => {
        if (settled) return;
        settled = true;
        if (value) resolve(value);
        else reject(error);
      };
      const transport = url.protocol === 'https:' ? https : http;
      // The request's options reach the socket's connect (with no agent): its attempt timeout too.
      const options: https.RequestOptions & Pick<TcpSocketConnectOpts, 'autoSelectFamilyAttemptTimeout'> = {
        protocol: url.protocol,
        hostname: bareHostname(url),
        port: portOf(url),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // A connection of its own for each request: nothing pooled outlives the check, and no
        // socket opened for one checked address is ever reused for another URL.
        agent: false,
        lookup: pinnedLookup(addresses),
        autoSelectFamilyAttemptTimeout: CONNECT_ATTEMPT_MS,
        signal,
        headers: {
          Host: url.host,
          'User-Agent': userAgent,
          Accept: accept,
          'Accept-Encoding': 'gzip, deflate, br',
          Connection: 'close',
        },
      };
      const req = transport.request(options);
      req.on('socket', (socket: Socket) => {
        socket.once('connect', () => {
          const peer = socket.remoteAddress ?? '';
          if (!addresses.some(({ address }) => sameAddress(address, peer))) {
            req.destroy(new FetchRefused(`the connection reached ${peer}, which was not the address checked`, url.href));
          }
        });
      });
      req.on('error', (error) => {
        if (error instanceof FetchRefused || error instanceof FetchFailed) finish(error);
        else if (signal.aborted) finish(signal.reason);
        else finish(new FetchFailed(failureReason(error, url)));
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const headers = headerRecord(res);
        if (REDIRECTS.has(status) && headers.location !== undefined) {
          // The body of a redirect is never read: the next hop is checked and fetched on its own.
          finish(null, { status, headers, body: Buffer.alloc(0), truncated: false, location: headers.location });
          req.destroy();
          return;
        }
        let decoder: ReturnType<typeof decoderFor>;
        try {
          decoder = decoderFor((headers['content-encoding'] ?? '').trim().toLowerCase());
        } catch (error) {
          finish(error);
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let kept = 0;
        let received = 0;
        const done = (truncated: boolean) => {
          finish(null, { status, headers, body: Buffer.concat(chunks, kept), truncated });
          // Reading stops here: whatever the server still has to send is never read.
          req.destroy();
          decoder?.destroy();
        };
        const keep = (chunk: Buffer) => {
          if (settled) return;
          const room = maxBytes - kept;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            kept = maxBytes;
            done(true);
            return;
          }
          chunks.push(chunk);
          kept += chunk.length;
        };
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          received += chunk.length;
          if (decoder) {
            // The encoded bytes are bounded too, whatever they decode to.
            if (received > maxBytes) done(true);
            else decoder.write(chunk);
          } else {
            keep(chunk);
          }
        });
        res.on('error', (error) => finish(signal.aborted ? signal.reason : new FetchFailed(failureReason(error, url))));
        if (decoder) {
          decoder.on('data', keep);
          decoder.on('error', () => finish(new FetchFailed(`${url.host} sent a body that does not decode as ${headers['content-encoding']}`)));
          decoder.on('end', () => done(false));
          res.on('end', () => decoder.end());
        } else {
          res.on('end', () => done(false));
        }
      });
      req.end();
    });
  }

  return {
    userAgent,
    async fetch(target, fetchOptions = {}) {
      const timeout = AbortSignal.timeout(fetchTimeoutMs);
      const signal = fetchOptions.signal ? AbortSignal.any([fetchOptions.signal, timeout]) : timeout;
      const redirects: FetchedResponse['redirects'] = [];
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        throw new FetchRefused(`${String(target)} is not a web address`, String(target));
      }
      try {
        for (;;) {
          if (fetchOptions.hosts && !fetchOptions.hosts.has(url.host)) throw new FetchRefused(`${url.host} is not the checked site's own host, so it is not read`, url.href);
          const addresses = await checkedAddresses(url, signal);
          const answer = await request(url, addresses, fetchOptions.accept ?? HTML_ACCEPT, Math.min(fetchOptions.maxBytes ?? fetcherMaxBytes, fetcherMaxBytes), signal);
          if (answer.location === undefined) {
            const { location: _none, ...response } = answer;
            return { ...response, url: url.href, redirects };
          }
          redirects.push({ url: url.href, status: answer.status });
          if (redirects.length > MAX_REDIRECTS) throw new TooManyRedirects(`${redirects[0]?.url ?? url.href} redirects more than ${MAX_REDIRECTS} times (a redirect loop?)`);
          try {
            url = new URL(answer.location, url);
          } catch {
            throw new FetchFailed(`${url.host} redirects to "${answer.location.slice(0, 200)}", which is not a web address`);
          }
        }
      } catch (error) {
        if (error instanceof FetchRefused || error instanceof FetchFailed) throw error;
        if (timeout.aborted) throw new FetchFailed(`${url.host} gave no complete answer within ${fetchTimeoutMs / 1000} s`);
        if (fetchOptions.signal?.aborted) throw fetchOptions.signal.reason;
        throw new FetchFailed(failureReason(error, url));
      }
    },
  };
}
