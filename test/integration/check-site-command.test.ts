import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { startSiteAt, wellMadeSite, type FixtureSite } from '../helpers/fixture-sites';
import { runOpsInBackground } from '../helpers/ops-command';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

// The command runs as a process; the self-check starts the built server too.
jest.setTimeout(90_000);

/** `npm run check:site -- ...args`, as ops run it: the built command, its own process. */
const checkSite = (args: string[], env: Record<string, string> = {}) => runOpsInBackground('check-site', args, env);

let site: FixtureSite;
beforeAll(async () => {
  site = await startSiteAt(wellMadeSite);
});
afterAll(() => site.close());

describe('npm run check:site', () => {
  it('prints the report with a progress line while it runs, and exits 0', async () => {
    const result = await checkSite([`${site.origin}/`], { SITE_CHECK_ALLOW: '127.0.0.1' });
    expect(result.status).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(`AI-readiness of ${site.origin}/: 95/100`);
    expect(result.stdout).toContain('[PASS] AI crawlers allowed by robots.txt (20/20)');
    expect(result.stdout).toContain('[FAIL] Served over HTTPS (0/5)');
    expect(result.stderr).toContain('Warning: SITE_CHECK_ALLOW=127.0.0.1');
    expect(result.stderr).toContain(`${site.origin}/: fetching robots.txt...`);
    expect(result.stderr).toContain(`${site.origin}/: fetching the page...`);
  });

  it('--json prints one object for scripts', async () => {
    const result = await checkSite([`${site.origin}/`, '--json'], { SITE_CHECK_ALLOW: '127.0.0.1' });
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(report).toMatchObject({ status: 'done', reason: null, score: 95, llmsTxt: true, sitemapUrls: 3, jsonLdTypes: expect.arrayContaining(['Electrician']) });
    expect(report.aiAgents).toMatchObject({ GPTBot: 'allowed', ClaudeBot: 'allowed', 'Google-Extended': 'allowed', PerplexityBot: 'allowed', 'OAI-SearchBot': 'allowed' });
    expect(report.textWords).toEqual(expect.any(Number));
    // Without a terminal watching, --json says nothing else.
    expect(result.stderr).not.toContain('fetching');
  });

  it('names a refused or unreachable URL in one line, and still exits 0', async () => {
    const refused = await checkSite(['http://169.254.169.254/latest/meta-data/']);
    expect(refused.status).toBe(0);
    expect(refused.stdout).toBe('AI-readiness of http://169.254.169.254/latest/meta-data/: not checked, 169.254.169.254 is a link-local address (where cloud metadata services live), which the checker never fetches\n');
    const json = JSON.parse((await checkSite(['http://[::1]/', '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'refused', score: null, sitemapUrls: null, llmsTxt: false });
    // A port nothing listens on, reached through the allowlist: unreachable.
    const closed = await new Promise<number>((resolve) => {
      const probe = createTcpServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const unreachable = await checkSite([`http://127.0.0.1:${closed}/`], { SITE_CHECK_ALLOW: '127.0.0.1' });
    expect(unreachable.status).toBe(0);
    expect(unreachable.stdout).toBe(`AI-readiness of http://127.0.0.1:${closed}/: not checked, 127.0.0.1:${closed} refused the connection\n`);
  });

  it('stops with usage on a missing URL, and with one line naming a bad SITE_CHECK_ALLOW', async () => {
    const usage = await checkSite([]);
    expect(usage.status).toBe(2);
    expect(usage.stderr.trim()).toBe('Usage: npm run check:site -- URL [--json]');
    const bad = await checkSite(['https://example.co.uk'], { SITE_CHECK_ALLOW: 'localhost' });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toBe('Invalid configuration: SITE_CHECK_ALLOW="localhost" must be comma-separated IP addresses or CIDRs: "localhost" is not an IP address or CIDR');
  });
});

describe('this site, checked like any other', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let proxy: TlsServer | undefined;
  afterAll(async () => {
    proxy?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scores 100 over https', async () => {
    // A certificate for localhost that only this test trusts (NODE_EXTRA_CA_CERTS below), and a
    // TLS terminator in front of the built server, as a reverse proxy would be in production.
    dir = mkdtempSync(path.join(tmpdir(), 'citewise-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
    let backendPort = 0;
    proxy = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (socket) => {
      const backend = connect(backendPort, '127.0.0.1');
      socket.pipe(backend).pipe(socket);
      socket.on('error', () => backend.destroy());
      backend.on('error', () => socket.destroy());
    });
    const tlsPort = await new Promise<number>((resolve) => proxy?.listen(0, '127.0.0.1', () => resolve((proxy?.address() as { port: number }).port)));
    const siteUrl = `https://localhost:${tlsPort}`;
    server = await startServerProcess({ SITE_URL: siteUrl });
    backendPort = Number(new URL(server.url).port);

    // The command's own SITE_URL only names the site in the checker's User-Agent; left at its
    // local default, the check may run at normal priority (an https one keeps idle).
    const result = await checkSite([`${siteUrl}/`, '--json'], { SITE_CHECK_ALLOW: '127.0.0.1,::1', NODE_EXTRA_CA_CERTS: cert });
    const report = JSON.parse(result.stdout) as { score: number; findings: { id: string; verdict: string; detail: string }[] };
    expect(report.findings.filter((finding) => finding.verdict !== 'pass')).toEqual([]);
    expect(report.score).toBe(100);
  });
});
