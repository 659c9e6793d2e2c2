import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase } from '../../server/db/database';
import { BUSINESS, namedFirst, notNamed } from '../fixtures/visibility-probe-answers';
import { FAKE_KEYS, fakeEnvironment, startFakeAssistant, type FakeAssistant } from '../helpers/fake-assistants';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-sites';
import { runOpsInBackground } from '../helpers/ops-command';

// The command runs as a process, as sales would run it, against the fakes in this one.
jest.setTimeout(90_000);

let chatgpt: FakeAssistant;
let perplexity: FakeAssistant;
let site: FixtureSite;
/** Where the command counts its calls: the database the server would use. */
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'citewise-probe-command-'));
  chatgpt = await startFakeAssistant('chatgpt', FAKE_KEYS.chatgpt, () => ({ answer: namedFirst }));
  // Perplexity's answers echo its key, as a misbehaving proxy might.
  perplexity = await startFakeAssistant('perplexity', FAKE_KEYS.perplexity, () => ({ answer: { ...notNamed, text: `(key ${FAKE_KEYS.perplexity}) ${notNamed.text}` } }));
  site = await startFixtureSite({
    '/': { body: '<!doctype html><html lang="en-GB"><title>Acme Plumbing | Emergency plumbers in Leeds</title><h1>Acme Plumbing</h1>' },
  });
});
afterAll(async () => {
  await Promise.all([chatgpt.close(), perplexity.close(), site.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const DATABASE_PATH = () => path.join(dir, 'site.db');
const probe = (args: string[], env: Record<string, string>) => runOpsInBackground('probe', args, { DATABASE_PATH: DATABASE_PATH(), ...env });
const ASK = ['--keywords', 'emergency plumber Leeds, boiler repair', '--customer', 'landlords in Leeds', '--prompts', '2'];

describe('npm run probe', () => {
  it('says in one line which variables to set when no assistant is configured, and exits 2', async () => {
    const result = await probe(['--site', BUSINESS.site, ...ASK], {});
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('No AI assistant is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PERPLEXITY_API_KEY\n');
  });

  it('prints the report: the score, each assistant, each question and who was named', async () => {
    const before = chatgpt.requests.length;
    const result = await probe(['--site', BUSINESS.site, '--brand', BUSINESS.brand, ...ASK], fakeEnvironment([chatgpt, perplexity]));
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('AI visibility of Acme Plumbing Ltd (acmeplumbing.co.uk): 45/100');
    expect(lines[2]).toBe('Looked for: "Acme Plumbing Ltd" (given with --brand) and acmeplumbing.co.uk');
    expect(lines[1]).toMatch(/^Asked \d{4}-\d\d-\d\d \d\d:\d\d UTC: 2 questions to each of ChatGPT and Perplexity, as a buyer would type them, with web search on\.$/);
    expect(result.stdout).toContain('ChatGPT (gpt-5-mini): named in 2 of 2 answers (34% to 100% over many runs); cited in 2; average position 1; share of voice 33%; 90/100');
    expect(result.stdout).toContain('  1. [named #1] Who is the best emergency plumber Leeds for landlords in Leeds?');
    expect(result.stdout).toContain('  2. [not named] boiler repair: which companies do you trust?');
    expect(result.stdout).toContain('Named instead: Pipe Pros Leeds (4), FlowFix Plumbing & Heating (4), Boiler Doctors (2)');
    expect(result.stderr).toContain('asked 4 of 4...');
    expect(chatgpt.requests.length - before).toBe(2);
  });

  it('--json prints one object for scripts, with every assistant, configured or not', async () => {
    const result = await probe(['--site', BUSINESS.site, '--brand', BUSINESS.brand, ...ASK, '--json'], fakeEnvironment([chatgpt, perplexity]));
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(report).toMatchObject({
      status: 'done',
      brand: 'Acme Plumbing Ltd',
      score: 45,
      assistants: {
        chatgpt: { model: 'gpt-5-mini', asked: 2, named: 2, answers: [{ prompt: 'Who is the best emergency plumber Leeds for landlords in Leeds?', named: true, position: 1, sources: namedFirst.sources.map((source) => source.url) }, { named: true }] },
        claude: { asked: 0, named: 0, error: 'not configured', answers: [] },
        gemini: { error: 'not configured' },
        perplexity: { model: 'sonar', asked: 2, named: 0, answers: [{ named: false, position: null }, { named: false }] },
      },
      competitors: [{ name: 'Pipe Pros Leeds', count: 4 }, { name: 'FlowFix Plumbing & Heating', count: 4 }, { name: 'Boiler Doctors', count: 2 }],
    });
    // With no terminal watching, --json says nothing else.
    expect(result.stderr).toBe('');
  });

  it('reads the business\'s name from its site when --brand is not given', async () => {
    const result = await probe(['--site', `${site.origin}/`, ...ASK, '--json'], { ...fakeEnvironment([chatgpt]), SITE_CHECK_ALLOW: '127.0.0.1' });
    expect(result.status).toBe(0);
    // Named first each time; its own site (here 127.0.0.1) is cited by no answer.
    expect(JSON.parse(result.stdout)).toMatchObject({
      brand: 'Acme Plumbing',
      domain: '127.0.0.1',
      nameSigns: ['title', 'heading'],
      nameFrom: 'from the title and the first heading',
      pageTitle: 'Acme Plumbing | Emergency plumbers in Leeds',
      score: 75,
      assistants: { chatgpt: { named: 2, cited: 0 } },
    });
    expect(site.requests.map((request) => request.path)).toContain('/');
  });

  it('on a keyword domain, searches for the name the page gives, not the search its domain spells, and counts no answer that only repeats the search', async () => {
    // leedsplumbers.localhost resolves to this machine: a site whose address is a search phrase.
    const keywordSite = await startFixtureSite({
      '/': {
        body:
          '<!doctype html><html lang="en-GB"><head><title>Leeds Plumbers | 24 Hour Emergency Plumbing</title><meta property="og:site_name" content="Leeds Plumbers"></head>' +
          '<body><header><img class="logo" src="/logo.png" alt="Calder Plumbing &amp; Heating"></header><h1>Emergency plumbers in Leeds</h1>' +
          '<footer><p>&copy; 2026 Calder Plumbing &amp; Heating Ltd. All rights reserved.</p></footer></body></html>',
      },
    });
    // Asked about emergencies, the assistant names Calder; otherwise it only talks about the search.
    const talk = 'Leeds plumbers are busy in winter, so book a boiler service early. Most Leeds plumbers charge a call-out fee.';
    const names = '1. **Calder Plumbing & Heating** – Gas Safe, 24 hours.\n2. **Pipe Pros Leeds** – fixed prices.';
    const fake = await startFakeAssistant('claude', FAKE_KEYS.claude, (received) => ({ answer: { text: received.question?.includes('emergency') ? names : talk, sources: [] } }));
    try {
      const website = keywordSite.origin.replace('127.0.0.1', 'leedsplumbers.localhost');
      const result = await probe(['--site', `${website}/`, '--keywords', 'leeds plumbers, emergency plumber leeds', '--prompts', '4', '--json'], {
        ...fakeEnvironment([fake]),
        SITE_CHECK_ALLOW: '127.0.0.1,::1',
      });
      expect(result.stderr).toBe('');
      const json = JSON.parse(result.stdout) as { brand: string; domain: string; nameFrom: string; prompts: string[]; assistants: { claude: { answered: number; named: number; answers: { prompt: string; named: boolean }[] } } };
      expect(json).toMatchObject({ brand: 'Calder Plumbing & Heating', domain: 'leedsplumbers.localhost', nameFrom: "from the logo's text and the footer's copyright line" });
      // The keyword that the domain spells is asked; only the answers naming Calder count.
      expect(json.prompts).toHaveLength(4);
      expect(json.prompts.filter((prompt) => prompt.includes('leeds plumbers')).length).toBeGreaterThan(0);
      const aboutEmergencies = json.prompts.filter((prompt) => prompt.includes('emergency')).length;
      expect(aboutEmergencies).toBeGreaterThan(0);
      expect(aboutEmergencies).toBeLessThan(4);
      expect(json.assistants.claude).toMatchObject({ answered: 4, named: aboutEmergencies });
      for (const answer of json.assistants.claude.answers) expect(answer).toMatchObject({ named: answer.prompt.includes('emergency') });
    } finally {
      await Promise.all([fake.close(), keywordSite.close()]);
    }
  });

  it('shows no key, neither one the provider rejects and echoes nor one an answer echoes', async () => {
    const revoked = 'sk-revoked-7c1d9e3a5b2f';
    const result = await probe(['--site', BUSINESS.site, '--brand', BUSINESS.brand, ...ASK], fakeEnvironment([chatgpt, perplexity], { ...FAKE_KEYS, chatgpt: revoked }));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ChatGPT (gpt-5-mini): key rejected; check OPENAI_API_KEY');
    expect(result.stdout).toContain('(key [key removed])');
    for (const key of [revoked, FAKE_KEYS.perplexity, FAKE_KEYS.chatgpt]) {
      expect(result.stdout).not.toContain(key);
      expect(result.stderr).not.toContain(key);
    }
  });

  it('stops with one line naming a bad key, without the key', async () => {
    const result = await probe(['--site', BUSINESS.site, ...ASK], { ...fakeEnvironment([chatgpt]), OPENAI_API_KEY: 'sk-live S3cretKey0123' });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('Invalid configuration: OPENAI_API_KEY (value not shown) must be the key as the provider gives it: 8 to 512 printable characters, no spaces\n');
    expect(result.stdout).toBe('');
  });

  describe("counts its calls in the day's PROBE_DAILY_CALLS with the server's, in the database at DATABASE_PATH", () => {
    const own = () => path.join(dir, 'counted.db');
    /** The calls counted in the database, all days together. */
    const counted = () => {
      const db = openDatabase(own());
      try {
        return db.prepare<[], number | null>('SELECT sum(calls) FROM probe_calls').pluck().get() ?? 0;
      } finally {
        db.close();
      }
    };
    /** As the server leaves it: `calls` already made on the UTC day the command runs in (the days either side too, whenever it runs). */
    const alreadyMade = (calls: number) => {
      const db = openDatabase(own());
      try {
        migrate(db);
        db.prepare('DELETE FROM probe_calls').run();
        for (const offset of [-1, 0, 1]) db.prepare('INSERT INTO probe_calls (day, calls) VALUES (?, ?)').run(new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10), calls);
      } finally {
        db.close();
      }
    };
    const requests = () => chatgpt.requests.length + perplexity.requests.length;

    it('stops part way when the day runs out, saying so, and exits 0 with what it asked', async () => {
      alreadyMade(7);
      const before = requests();
      const result = await probe(['--site', BUSINESS.site, '--brand', BUSINESS.brand, ...ASK], { ...fakeEnvironment([chatgpt, perplexity]), DATABASE_PATH: own(), PROBE_DAILY_CALLS: '10' });
      expect(result.status).toBe(0);
      expect(requests() - before).toBe(3);
      expect(counted()).toBe(3 * 7 + 3);
      expect(result.stdout.split('\n')[0]).toMatch(/^AI visibility of Acme Plumbing Ltd \(acmeplumbing\.co\.uk\): \d+\/100 \(stopped part way: daily call limit \(PROBE_DAILY_CALLS\) reached\)$/);
      expect(result.stderr).toContain("Today's calls to the assistants are used up: PROBE_DAILY_CALLS=10 a UTC day, counted with the server's. The probe stopped part way; its report is above. More can be made after 00:00 UTC.\n");
    });

    it('asks nothing once the server has made them all, saying so, and exits 1', async () => {
      alreadyMade(10);
      const before = requests();
      const result = await probe(['--site', BUSINESS.site, '--brand', BUSINESS.brand, ...ASK], { ...fakeEnvironment([chatgpt, perplexity]), DATABASE_PATH: own(), PROBE_DAILY_CALLS: '10' });
      expect(result.status).toBe(1);
      expect(requests()).toBe(before);
      expect(counted()).toBe(3 * 10);
      expect(result.stdout).toBe('AI visibility of Acme Plumbing Ltd (acmeplumbing.co.uk): not probed, daily call limit (PROBE_DAILY_CALLS) reached\nLooked for: "Acme Plumbing Ltd" (given with --brand) and acmeplumbing.co.uk\n');
      expect(result.stderr).toBe("Today's calls to the assistants are used up: PROBE_DAILY_CALLS=10 a UTC day, counted with the server's. Nothing was asked. More can be made after 00:00 UTC.\n");
    });

    it('stops with one line, asking nothing, when the database cannot be opened', async () => {
      const before = requests();
      const result = await probe(['--site', BUSINESS.site, '--brand', BUSINESS.brand, ...ASK], { ...fakeEnvironment([chatgpt, perplexity]), DATABASE_PATH: dir });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      // One line: what is wrong, naming the variable.
      expect(result.stderr.split('\n')).toEqual([expect.stringMatching(/^Invalid configuration: DATABASE_PATH=".+" cannot be used as the database: \S/), '']);
      expect(result.stderr).toContain(JSON.stringify(dir));
      expect(requests()).toBe(before);
    });
  });

  it('stops with the usage on a missing --keywords, and with one line on a bad --prompts', async () => {
    const env = fakeEnvironment([chatgpt]);
    const usage = await probe(['--site', BUSINESS.site], env);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toBe('Usage: npm run probe -- --site URL --keywords "a, b" [--customer "..."] [--brand NAME] [--prompts N] [--json]\n');
    const prompts = await probe(['--site', BUSINESS.site, '--keywords', 'plumber', '--prompts', '51'], env);
    expect(prompts.status).toBe(2);
    expect(prompts.stderr).toBe('--prompts must be a whole number from 1 to 50, not 51\n');
  });
});
