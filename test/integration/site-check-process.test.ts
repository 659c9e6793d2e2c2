import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SiteCheckView } from '../../shared/site-check';
import { backgroundProcesses, environmentOf, schedulingPolicyOf } from '../helpers/background-processes';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant } from '../helpers/fake-assistants';
import { startFixtureSite, startSiteAt, wellMadeSite, type FixtureSite } from '../helpers/fixture-sites';
import { validAudit } from '../helpers/forms';
import { hostileSites } from '../helpers/hostile-sites';
import { openProcessForm, sendProcessForm, waitFor } from '../helpers/process-forms';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { ROOT } from '../helpers/locations';

/**
 * The site check in the built server, as a real process: whatever the checked sites send, the
 * pages, the health check and a stop behave as when no check runs.
 */
jest.setTimeout(120_000);

/** Linux's scheduling policies, as /proc/<pid>/stat numbers them. */
const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

const sites: FixtureSite[] = [];
const fakes: FakeAssistant[] = [];
const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  await Promise.all([...sites.splice(0), ...fakes.splice(0)].map((started) => started.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
async function server(env: Record<string, string> = {}): Promise<ServerProcess> {
  const started = await startServerProcess({ SITE_CHECK_ALLOW: '127.0.0.1', TRUST_PROXY: '1', ...env });
  servers.push(started);
  return started;
}
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-check-process-'));
  dirs.push(dir);
  return dir;
}

/** Audit requests naming `websites`, each from its own address, posted together once the form has been open long enough. */
async function requestAudits(site: ServerProcess, websites: string[]): Promise<string[]> {
  const sessions = await Promise.all(websites.map((_, index) => openProcessForm(site.url, '/free-audit', `203.0.113.${index + 10}`)));
  const answers = await Promise.all(
    websites.map((website, index) => sendProcessForm(site.url, '/free-audit', sessions[index]!, { ...validAudit, email: `p${index}@example.co.uk`, website_url: website }, `203.0.113.${index + 10}`)),
  );
  return answers.map((answer) => {
    expect(answer.status).toBe(303);
    return answer.location ?? '';
  });
}

const statusOf = async (site: ServerProcess, thankYou: string, address: string): Promise<SiteCheckView> =>
  ((await (await fetch(`${site.url}${thankYou.replace('/thank-you', '/site-check/status')}`, { headers: { 'X-Forwarded-For': address } })).json()) as { siteCheck: SiteCheckView }).siteCheck;

describe('checks of hostile sites, in the running server', () => {
  it('four at once: each ends with a score or a reason, while / and /healthz answer every time', async () => {
    const hostile = await Promise.all(
      Object.values(hostileSites).map(async (kind) => {
        const site = await startSiteAt(() => kind.paths());
        sites.push(site);
        return `${site.origin}${kind.path}`;
      }),
    );
    const running = await server();
    const thankYous = await requestAudits(running, hostile);
    const ended = new Map<number, SiteCheckView>();
    let pagesServed = 0;
    while (ended.size < thankYous.length) {
      for (const target of ['/', '/healthz']) {
        const answer = await fetch(`${running.url}${target}`);
        await answer.arrayBuffer();
        expect(answer.status).toBe(200);
        pagesServed += 1;
      }
      for (const [index, thankYou] of thankYous.entries()) {
        if (ended.has(index)) continue;
        const view = await statusOf(running, thankYou, `198.51.100.${index + 1}`);
        if (view.status !== 'pending') ended.set(index, view);
      }
    }
    expect(pagesServed).toBeGreaterThan(0);
    for (const view of ended.values()) {
      if (view.status === 'done') expect(view.score).toBeGreaterThanOrEqual(0);
      else expect(view).toMatchObject({ status: 'failed', reason: expect.stringMatching(/\w/) });
    }
  });

  it('SIGTERM while a check runs: the process exits 0, and the check runs again at the next start', async () => {
    let robotsAsked = 0;
    // robots.txt never answers: the check runs until something ends it.
    const site = await startFixtureSite({ '/robots.txt': () => (robotsAsked += 1) });
    sites.push(site);
    const databasePath = path.join(tempDir(), 'site.db');
    const first = await server({ DATABASE_PATH: databasePath });
    await requestAudits(first, [`${site.origin}/`]);
    await waitFor('the check to fetch robots.txt', () => robotsAsked === 1, 30_000);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.logs.map((line) => line.msg)).toContain('Stopped');
    const second = await server({ DATABASE_PATH: databasePath });
    await waitFor('the check to run again after the restart', () => robotsAsked === 2, 30_000);
    expect(await second.stop('SIGTERM')).toBe(0);
  });
});

describe('what a background process can read of the server', () => {
  it.each([
    ['idle', SCHED_IDLE],
    ['normal', SCHED_OTHER],
  ])('a check and a probe see none of the API keys, nor SMTP_URL and its password, in their environment: only what Node needs; BACKGROUND_PRIORITY=%s runs them at that priority', async (priority, policy) => {
    // robots.txt never answers: the first request's check runs until the test has looked at it.
    const hanging = await startFixtureSite({ '/robots.txt': () => undefined });
    const quick = await startSiteAt(wellMadeSite);
    sites.push(hanging, quick);
    // The assistant never answers either: the second request's probe runs meanwhile.
    fakes.push(await startFakeAssistant('chatgpt', FAKE_KEYS.chatgpt, () => ({ hang: true })));
    const password = 'agency-smtp-password-0123';
    const running = await server({
      ...fakeEnvironment(fakes),
      PROBE_PROMPTS: '1',
      SMTP_URL: `smtp://agency:${password}@127.0.0.1:${await freePort()}`,
      TZ: 'Europe/London',
      BACKGROUND_PRIORITY: priority,
    });
    await requestAudits(running, [`${hanging.origin}/`, `${quick.origin}/`]);
    const pid = running.child.pid ?? 0;
    await waitFor('a check and a probe to run', () => backgroundProcesses(pid, 'site-check-process.js').length > 0 && backgroundProcesses(pid, 'probe-process.js').length > 0, 60_000);
    const children = [...backgroundProcesses(pid, 'site-check-process.js'), ...backgroundProcesses(pid, 'probe-process.js')];
    // Idle (the default) gives them the CPU only when the pages do not want it. (At idle on a busy
    // machine the second request's check may still run beside its probe: every one is looked at.)
    expect(new Set(children.map(schedulingPolicyOf))).toEqual(new Set([policy]));
    const seen = children.map(environmentOf);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const environment of seen) {
      // Node's own IPC channel aside, what the server passes on, and nothing else.
      expect(environment).toEqual({ NODE_ENV: 'production', TZ: 'Europe/London', NODE_CHANNEL_FD: expect.any(String), NODE_CHANNEL_SERIALIZATION_MODE: 'json' });
      const everything = JSON.stringify(environment);
      for (const secret of [FAKE_KEYS.chatgpt, password]) expect(everything).not.toContain(secret);
    }
  });
});

describe('what the server writes down', () => {
  it('the request log never holds a check token, however its name is written', async () => {
    const running = await server();
    const token = 'SeCrEtToKeNvAlUe0123456789abcdefghijklmnopq';
    for (const target of [`/thank-you?check=${token}`, `/site-check/status?check=${token}`, `/thank-you?ch%65ck=${token}&utm=1`]) {
      await (await fetch(`${running.url}${target}`)).arrayBuffer();
    }
    await running.stop('SIGTERM');
    const requests = running.logs.filter((line) => typeof line.req === 'object');
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(running.logs)).not.toContain(token);
    expect(JSON.stringify(requests)).toContain('/thank-you?ch%65ck=[redacted]&utm=1');
  });

  it('the database, its WAL, the mail and the backups are readable by their owner only, files made before included', async () => {
    const dir = tempDir();
    const data = path.join(dir, 'data');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    // A database, and a backup of it, that an earlier release left readable by everyone.
    writeFileSync(path.join(data, 'site.db'), '');
    chmodSync(path.join(data, 'site.db'), 0o644);
    mkdirSync(path.join(data, 'backups'), { mode: 0o755 });
    chmodSync(path.join(data, 'backups'), 0o755);
    writeFileSync(path.join(data, 'backups', 'site-20300101T000000Z.db'), '');
    chmodSync(path.join(data, 'backups', 'site-20300101T000000Z.db'), 0o644);
    const site = await startSiteAt(wellMadeSite);
    sites.push(site);
    const env = { DATABASE_PATH: path.join(data, 'site.db'), BACKUP_DIR: path.join(data, 'backups') };
    const running = await server(env);
    await requestAudits(running, [`${site.origin}/`]);
    await waitFor('the lead\'s mail to be written', () => {
      try {
        return readdirSync(path.join(data, 'mail')).some((name) => name.endsWith('.eml'));
      } catch {
        return false;
      }
    }, 60_000);
    const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);
    // While the server has the database open: its WAL and shared-memory files.
    expect([mode(path.join(data, 'site.db-wal')), mode(path.join(data, 'site.db-shm'))]).toEqual(['600', '600']);
    const backup = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'backup.js')], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
    expect(backup.status).toBe(0);
    await running.stop('SIGTERM');
    const mail = readdirSync(path.join(data, 'mail')).map((name) => path.join(data, 'mail', name));
    const backups = readdirSync(path.join(data, 'backups')).map((name) => path.join(data, 'backups', name));
    expect(backups.length).toBeGreaterThan(0);
    expect({
      data: mode(data),
      database: mode(path.join(data, 'site.db')),
      mailFolder: mode(path.join(data, 'mail')),
      mail: [...new Set(mail.map(mode))],
      backupsFolder: mode(path.join(data, 'backups')),
      backups: [...new Set(backups.map(mode))],
    }).toEqual({ data: '700', database: '600', mailFolder: '700', mail: ['600'], backupsFolder: '700', backups: ['600'] });
  });
});
