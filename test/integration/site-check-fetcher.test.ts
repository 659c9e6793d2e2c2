import diagnosticsChannel from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { gzipSync } from 'node:zlib';
import { parseAddressList } from '../../server/site-check/address-policy';
import { createFetcher, FetchFailed, FetchRefused, MAX_BYTES, type Resolver } from '../../server/site-check/fetcher';
import { checkerUserAgent, createSiteChecker } from '../../server/site-check/site-checker';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-sites';

// Fixture servers answer at once; the slow ones are cut off within a few seconds.
jest.setTimeout(30_000);

const USER_AGENT = checkerUserAgent('Citewise', 'https://www.citewise.example');

/** Every TCP connection this process opens, as Node announces it (nothing is mocked). */
const opened: string[] = [];
const onSocket = (message: unknown) => opened.push(String((message as { socket?: { remoteAddress?: string } }).socket?.remoteAddress ?? 'socket'));
beforeAll(() => diagnosticsChannel.subscribe('net.client.socket', onSocket));
afterAll(() => diagnosticsChannel.unsubscribe('net.client.socket', onSocket));

const sites: FixtureSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});
async function site(paths: Parameters<typeof startFixtureSite>[0]): Promise<FixtureSite> {
  const started = await startFixtureSite(paths);
  sites.push(started);
  return started;
}

const allowLocal = (resolver?: Resolver) => createFetcher({ userAgent: USER_AGENT, allowlist: parseAddressList('127.0.0.1'), ...(resolver ? { resolver } : {}) });

/** The refusal a fetch ends with, and how many connections it opened. */
async function refusal(fetcher: ReturnType<typeof createFetcher>, url: string): Promise<{ message: string; connections: number }> {
  const before = opened.length;
  const error = await fetcher.fetch(url).then(
    () => new Error('fetched'),
    (caught: unknown) => caught as Error,
  );
  expect(error).toBeInstanceOf(FetchRefused);
  return { message: error.message, connections: opened.length - before };
}

describe('without the allowlist, every internal address is refused before any connection', () => {
  const fetcher = createFetcher({ userAgent: USER_AGENT, allowlist: [] });

  it.each([
    ['http://localhost/', 'localhost resolves to 127.0.0.1, a loopback address'],
    ['http://127.1/', '127.0.0.1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0x7f000001/', '127.0.0.1 is a loopback address'],
    ['http://0177.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://[::1]/', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is an IPv4-mapped IPv6 address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['http://10.0.0.5/', '10.0.0.5 is a private network address'],
    ['https://172.20.1.1/', '172.20.1.1 is a private network address'],
    ['http://192.168.0.1/', '192.168.0.1 is a private network address'],
    ['http://100.64.1.1/', '100.64.1.1 is a carrier-grade NAT address'],
    ['http://0.0.0.0/', '0.0.0.0 is an unspecified address'],
    ['http://example.com:8080/', 'port 8080 is not a web port'],
    ['ftp://example.com/', 'only http and https'],
    ['http://user:secret@example.com/', 'user name or password'],
  ])('%s', async (url, reason) => {
    const { message, connections } = await refusal(fetcher, url);
    expect(message).toContain(reason);
    expect(connections).toBe(0);
  });

  it('refuses a name that resolves to a private address, if only one of its addresses is', async () => {
    const resolver: Resolver = async (hostname) => (hostname === 'intranet.example.co.uk' ? [{ address: '93.184.215.14', family: 4 }, { address: '10.1.2.3', family: 4 }] : []);
    const { message, connections } = await refusal(createFetcher({ userAgent: USER_AGENT, allowlist: [], resolver }), 'https://intranet.example.co.uk/');
    expect(message).toBe('intranet.example.co.uk resolves to 10.1.2.3, a private network address, which the checker never fetches');
    expect(connections).toBe(0);
  });
});

describe('with SITE_CHECK_ALLOW=127.0.0.1', () => {
  it('fetches a fixture site on any port, sending one User-Agent and no cookie back', async () => {
    const fixture = await site({
      '/': (_req, res) => {
        res.writeHead(302, { Location: '/home', 'Set-Cookie': 'session=abc; Path=/' });
        res.end();
      },
      '/home': { headers: { 'Content-Type': 'text/html', 'Set-Cookie': 'other=1' }, body: '<p>Hello</p>' },
    });
    const response = await allowLocal().fetch(`${fixture.origin}/`);
    expect(response).toMatchObject({ status: 200, url: `${fixture.origin}/home`, redirects: [{ url: `${fixture.origin}/`, status: 302 }], truncated: false });
    expect(response.body.toString()).toBe('<p>Hello</p>');
    expect(fixture.requests.map((request) => request.headers['user-agent'])).toEqual([USER_AGENT, USER_AGENT]);
    expect(fixture.requests.map((request) => request.headers.cookie)).toEqual([undefined, undefined]);
  });

  it('keeps every other rule: another loopback address, credentials, another scheme', async () => {
    const fixture = await site({});
    expect((await refusal(allowLocal(), `http://127.0.0.2:${fixture.port}/`)).message).toContain('127.0.0.2 is a loopback address');
    expect((await refusal(allowLocal(), `http://u:p@127.0.0.1:${fixture.port}/`)).message).toContain('user name or password');
    expect((await refusal(allowLocal(), `file:///etc/passwd`)).message).toContain('only http and https');
    expect(fixture.connections).toBe(0);
  });

  it('connects to the address it checked, whatever the name resolves to afterwards (no DNS rebinding)', async () => {
    const fixture = await site({ '/': { body: 'pinned' } });
    const answers: LookupAddress[][] = [[{ address: '127.0.0.1', family: 4 }]];
    let lookups = 0;
    // The first answer is checked; any later one would point at the metadata service.
    const resolver: Resolver = async () => {
      lookups += 1;
      return answers.shift() ?? [{ address: '169.254.169.254', family: 4 }];
    };
    const response = await allowLocal(resolver).fetch(`http://rebinding.example.co.uk:${fixture.port}/`);
    expect(response.body.toString()).toBe('pinned');
    expect(lookups).toBe(1);
    expect(fixture.requests[0]?.headers.host).toBe(`rebinding.example.co.uk:${fixture.port}`);
  });

  it('checks each redirect again: one to a private address is refused, with no connection to it', async () => {
    const fixture = await site({
      '/': { status: 301, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } },
      '/named': { status: 302, headers: { Location: '/internal' } },
    });
    const before = opened.length;
    await expect(allowLocal().fetch(`${fixture.origin}/`)).rejects.toThrow(new FetchRefused('169.254.169.254 is a link-local address (where cloud metadata services live), which the checker never fetches', ''));
    expect(opened.slice(before)).toHaveLength(1);
    expect(fixture.connections).toBe(1);
  });

  it('follows 5 redirects and no more', async () => {
    const chain = Object.fromEntries(Array.from({ length: 6 }, (_, hop) => [`/hop${hop}`, { status: 301, headers: { Location: `/hop${hop + 1}` } }]));
    const fixture = await site({ ...chain, '/hop5': { body: 'arrived' }, '/loop': { status: 302, headers: { Location: '/loop' } } });
    const five = await allowLocal().fetch(`${fixture.origin}/hop0`);
    expect(five.redirects).toHaveLength(5);
    expect(five.body.toString()).toBe('arrived');
    await expect(allowLocal().fetch(`${fixture.origin}/loop`)).rejects.toThrow(FetchFailed);
    await expect(allowLocal().fetch(`${fixture.origin}/loop`)).rejects.toThrow('redirects more than 5 times');
    expect(fixture.requests.filter((request) => request.path === '/loop')).toHaveLength(12);
  });

  it('reads at most 1 MB of a 50 MB body, then stops reading', async () => {
    let sent = 0;
    let finished = false;
    const fixture = await site({
      '/': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const write = () => {
          while (sent < 50 * 1024 * 1024 && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          finished = sent >= 50 * 1024 * 1024;
          res.end();
        };
        res.on('close', () => undefined);
        write();
      },
    });
    const response = await allowLocal().fetch(`${fixture.origin}/`);
    expect(response.body.length).toBe(MAX_BYTES);
    expect(response.truncated).toBe(true);
    expect(finished).toBe(false);
  });

  it('bounds the decoded size too: a gzip bomb stops at 1 MB', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    const fixture = await site({ '/': { headers: { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }, body: bomb } });
    const response = await allowLocal().fetch(`${fixture.origin}/`);
    expect(response.body.length).toBe(MAX_BYTES);
    expect(response.truncated).toBe(true);
  });

  it('decodes gzip and brotli bodies', async () => {
    const { brotliCompressSync } = await import('node:zlib');
    const fixture = await site({
      '/gz': { headers: { 'Content-Encoding': 'gzip' }, body: gzipSync('zipped text') },
      '/br': { headers: { 'Content-Encoding': 'br' }, body: brotliCompressSync('brotli text') },
    });
    expect((await allowLocal().fetch(`${fixture.origin}/gz`)).body.toString()).toBe('zipped text');
    expect((await allowLocal().fetch(`${fixture.origin}/br`)).body.toString()).toBe('brotli text');
  });

  it('gives up on a server that sends a byte a second', async () => {
    const timers: NodeJS.Timeout[] = [];
    const fixture = await site({
      '/': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        const drip = setInterval(() => res.write('a'), 1000);
        timers.push(drip);
        res.on('close', () => clearInterval(drip));
      },
    });
    const fetcher = createFetcher({ userAgent: USER_AGENT, allowlist: parseAddressList('127.0.0.1'), fetchTimeoutMs: 2500 });
    await expect(fetcher.fetch(`${fixture.origin}/`)).rejects.toThrow(`127.0.0.1:${fixture.port} gave no complete answer within 2.5 s`);
    for (const timer of timers) clearInterval(timer);
  });
});

describe('a whole check ends within its own deadline', () => {
  it('stops a check whose fetches each stay within their limit but not together', async () => {
    const fixture = await site({
      '/robots.txt': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        const drip = setInterval(() => res.write('#'), 200);
        res.on('close', () => clearInterval(drip));
      },
    });
    const checker = createSiteChecker({ brand: 'Citewise', siteUrl: 'https://www.citewise.example', allow: ['127.0.0.1'], agents: ['GPTBot'], clock: () => new Date(), deadlineMs: 2000, fetchTimeoutMs: 10_000, priority: 'normal' });
    const report = await checker.check(`${fixture.origin}/`);
    expect(report).toMatchObject({ status: 'failed', reason: 'the check took longer than 1 s' });
  });
});
