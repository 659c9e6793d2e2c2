import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import request from 'supertest';
import { loadAiSources } from '../../server/ledger/ai-sources';
import { createHttpServer } from '../../server/http-server';
import { startServerProcess } from '../helpers/server-process';
import { createTestApp, type TestApp } from '../helpers/test-app';

jest.setTimeout(60_000);

/*
 * The ledger counts what AI does on the site (crawler fetches by family and kind, visits an AI
 * assistant sent) per day and path, and nothing about any person.
 */

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)';
const PERPLEXITY = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

interface Row {
  day: string;
  path: string;
  source: string;
  family: string;
  agent: string;
  kind: string;
  count: number;
}

let app: TestApp;
let server: Server;
let base: string;
beforeEach(async () => {
  app = createTestApp();
  await app.app.warmPages();
  server = createHttpServer(app.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  app.close();
});

const rows = () => app.db.prepare('SELECT day, path, source, family, agent, kind, count FROM ai_ledger ORDER BY source, family, agent, path').all() as Row[];
const get = (path: string, headers: Record<string, string>) => fetch(`${base}${path}`, { headers }).then((response) => response.arrayBuffer());

describe('the AI ledger', () => {
  it('counts AI crawlers by family, agent and kind on pages, twins and SEO files, fast path and Express alike', async () => {
    for (const path of ['/blog/what-is-llm-seo', '/blog/what-is-llm-seo.md', '/llms.txt', '/robots.txt', '/sitemap.xml', '/free-audit', '/no-such-page']) await get(path, { 'User-Agent': GPTBOT });
    await get('/blog/what-is-llm-seo', { 'User-Agent': GPTBOT });
    await get('/', { 'User-Agent': CLAUDE_USER });
    await get('/llms-full.txt', { 'User-Agent': PERPLEXITY });
    // Nothing is written until the ledger is flushed (the process does it once a minute).
    expect(rows()).toEqual([]);
    app.app.aiLedger?.flush();
    const day = app.clock().toISOString().slice(0, 10);
    const crawler = (path: string, family: string, agent: string, kind: string, count = 1) => ({ day, path, source: 'crawler', family, agent, kind, count });
    expect(rows()).toEqual([
      crawler('/', 'Anthropic', 'Claude-User', 'user'),
      crawler('(other)', 'OpenAI', 'GPTBot', 'training'),
      crawler('/blog/what-is-llm-seo', 'OpenAI', 'GPTBot', 'training', 2),
      crawler('/blog/what-is-llm-seo.md', 'OpenAI', 'GPTBot', 'training'),
      crawler('/free-audit', 'OpenAI', 'GPTBot', 'training'),
      crawler('/llms.txt', 'OpenAI', 'GPTBot', 'training'),
      crawler('/robots.txt', 'OpenAI', 'GPTBot', 'training'),
      crawler('/sitemap.xml', 'OpenAI', 'GPTBot', 'training'),
      crawler('/llms-full.txt', 'Perplexity', 'PerplexityBot', 'search'),
    ]);
  });

  it('counts visits that an AI assistant sent, by its Referer or utm_source, and no ordinary visit', async () => {
    await get('/', { 'User-Agent': CHROME, Referer: 'https://chatgpt.com/' });
    await get('/how-it-works?utm_source=perplexity&utm_medium=referral', { 'User-Agent': CHROME });
    await get('/blog', { 'User-Agent': CHROME, Referer: 'https://gemini.google.com/app/abc' });
    await get('/blog', { 'User-Agent': CHROME, Referer: 'https://www.google.com/' });
    await get('/contact', { 'User-Agent': CHROME });
    // A file is not a visit.
    await get('/robots.txt', { 'User-Agent': CHROME, Referer: 'https://chatgpt.com/' });
    app.app.aiLedger?.flush();
    const day = app.clock().toISOString().slice(0, 10);
    const referral = (path: string, family: string) => ({ day, path, source: 'referral', family, agent: '', kind: '', count: 1 });
    expect(rows()).toEqual([referral('/', 'ChatGPT'), referral('/blog', 'Gemini'), referral('/how-it-works', 'Perplexity')]);
  });

  it('adds to the day\'s counts at each write, and starts a new row on a new day', async () => {
    await get('/', { 'User-Agent': GPTBOT });
    app.app.aiLedger?.flush();
    await get('/', { 'User-Agent': GPTBOT });
    app.app.aiLedger?.flush();
    app.clock.advance(24 * 60 * 60 * 1000);
    await get('/', { 'User-Agent': GPTBOT });
    app.app.aiLedger?.flush();
    expect(rows().map((row) => [row.day, row.count])).toEqual([
      ['2030-03-04', 2],
      ['2030-03-05', 1],
    ]);
  });

  it('keeps nothing about a person: no address, cookie, user agent string, query or referring page', async () => {
    // Requests that carry all of these, by a crawler and by a visitor an assistant sent, on the
    // fast path (/) and through Express (/free-audit).
    const person = {
      Cookie: 'session=cookie-of-jane',
      'X-Forwarded-For': '203.0.113.77',
    };
    const crawlerAgent = `${GPTBOT} jane-device-4411`;
    for (const path of ['/?email=jane%40example.co.uk', '/free-audit?ref=jane-campaign']) {
      await get(path, { ...person, 'User-Agent': crawlerAgent });
      await get(path, { ...person, 'User-Agent': `${CHROME} jane-device-4411`, Referer: 'https://chatgpt.com/c/conversation-of-jane' });
    }
    app.app.aiLedger?.flush();
    const day = app.clock().toISOString().slice(0, 10);
    const cells = app.db.prepare('SELECT * FROM ai_ledger').raw().all().flat().map(String);
    for (const trace of ['jane', '4411', '127.0.0.1', '203.0.113.77', 'Mozilla', 'session', '?', 'chatgpt.com']) {
      expect(cells.filter((cell) => cell.includes(trace))).toEqual([]);
    }
    expect(rows()).toEqual([
      { day, path: '/', source: 'crawler', family: 'OpenAI', agent: 'GPTBot', kind: 'training', count: 1 },
      { day, path: '/free-audit', source: 'crawler', family: 'OpenAI', agent: 'GPTBot', kind: 'training', count: 1 },
      { day, path: '/', source: 'referral', family: 'ChatGPT', agent: '', kind: '', count: 1 },
      { day, path: '/free-audit', source: 'referral', family: 'ChatGPT', agent: '', kind: '', count: 1 },
    ]);
    const columns = (app.db.prepare("SELECT name FROM pragma_table_info('ai_ledger')").all() as { name: string }[]).map((column) => column.name);
    expect(columns).toEqual(['day', 'path', 'source', 'family', 'agent', 'kind', 'count']);
  });

  it('is off with AI_LEDGER=off', async () => {
    const off = createTestApp({ env: { AI_LEDGER: 'off' } });
    try {
      expect(off.app.aiLedger).toBeNull();
      await request(off.app).get('/').set('User-Agent', GPTBOT);
      expect(off.db.prepare('SELECT count(*) AS n FROM ai_ledger').get()).toEqual({ n: 0 });
    } finally {
      off.close();
    }
  });

  it('reads its lists from one data file, checked at start', () => {
    const sources = loadAiSources();
    expect(sources.agents.map((agent) => agent.match)).toEqual(
      expect.arrayContaining(['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot', 'PerplexityBot', 'Perplexity-User', 'CCBot', 'Amazonbot', 'Applebot', 'meta-externalagent', 'GoogleOther']),
    );
    expect(sources.assistants.flatMap((assistant) => assistant.hosts)).toEqual(
      expect.arrayContaining(['chatgpt.com', 'perplexity.ai', 'claude.ai', 'gemini.google.com', 'copilot.microsoft.com']),
    );
    expect(() => loadAiSources('/no/such/file.json')).toThrow(/AI_SOURCES_FILE="\/no\/such\/file.json" cannot be read/);
  });
});

describe('the AI ledger in the real process', () => {
  it('writes what it counted when the process stops', async () => {
    const server = await startServerProcess();
    const databasePath = `${server.dir}/site.db`;
    await fetch(`${server.url}/llms.txt`, { headers: { 'User-Agent': GPTBOT } }).then((response) => response.arrayBuffer());
    await fetch(`${server.url}/`, { headers: { 'User-Agent': CHROME, Referer: 'https://claude.ai/chat/1' } }).then((response) => response.arrayBuffer());
    const db = new Database(databasePath, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM ai_ledger').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    // stop() removes the folder once the process has exited: read the file before that.
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    const after = new Database(databasePath, { readonly: true });
    try {
      expect(after.prepare('SELECT path, source, family FROM ai_ledger ORDER BY source').all()).toEqual([
        { path: '/llms.txt', source: 'crawler', family: 'OpenAI' },
        { path: '/', source: 'referral', family: 'Claude' },
      ]);
    } finally {
      after.close();
    }
    await server.stop();
  });
});
