import { probePrompts } from '../../shared/generated/probe-prompts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { ConfigError, loadConfig } from '../../server/config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      siteUrl: 'http://localhost:3000',
      databasePath: path.resolve('data/site.db'),
      smtpUrl: undefined,
      mailDir: path.resolve('data/mail'),
      mailFrom: 'noreply@example.com',
      mailTo: 'leads@example.com',
      mailRetryBaseMs: 30000,
      trustProxy: false,
      bookingUrl: 'https://booking.example.com/citewise/free-audit',
      logLevel: 'info',
      siteCheckAllow: [],
      backupIntervalHours: 24,
      backupKeep: 14,
      backupDir: path.resolve('data/backups'),
    });
  });

  it('keeps the fill time a person needs and idle background work unless a test lowers them, which a public site refuses', () => {
    expect(loadConfig({})).toMatchObject({ formMinFillMs: 3000, backgroundPriority: 'idle' });
    expect(loadConfig({ FORM_MIN_FILL_MS: '0', BACKGROUND_PRIORITY: 'normal' })).toMatchObject({ formMinFillMs: 0, backgroundPriority: 'normal' });
    expect(() => loadConfig({ SITE_URL: 'https://www.example.org', FORM_MIN_FILL_MS: '0' })).toThrow(
      new ConfigError('Invalid configuration: FORM_MIN_FILL_MS="0" is for tests: a public (https) SITE_URL keeps 3000 ms'),
    );
    expect(() => loadConfig({ SITE_URL: 'https://www.example.org', BACKGROUND_PRIORITY: 'normal' })).toThrow(
      new ConfigError('Invalid configuration: BACKGROUND_PRIORITY="normal" is for tests: a public (https) SITE_URL keeps "idle"'),
    );
    expect(loadConfig({ SITE_URL: 'https://www.example.org', FORM_MIN_FILL_MS: '3000', BACKGROUND_PRIORITY: 'idle' })).toMatchObject({ formMinFillMs: 3000 });
    expect(() => loadConfig({ FORM_MIN_FILL_MS: '5000' })).toThrow('FORM_MIN_FILL_MS="5000" must be from 0 to 3000');
    expect(() => loadConfig({ BACKGROUND_PRIORITY: 'high' })).toThrow('BACKGROUND_PRIORITY="high"');
  });

  it('reads SITE_CHECK_ALLOW as addresses and CIDRs, unset by default', () => {
    expect(loadConfig({ SITE_CHECK_ALLOW: '127.0.0.1, 10.0.0.0/8,::1' }).siteCheckAllow).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      SITE_URL: 'https://www.example.org/',
      DATABASE_PATH: '/var/lib/site/site.db',
      SMTP_URL: 'smtp://user:pass@mail.example.org:587',
      MAIL_FROM: 'web@example.org',
      MAIL_TO: 'sales@example.org',
      MAIL_RETRY_BASE_MS: '1000',
      TRUST_PROXY: '1',
      BOOKING_URL: 'https://cal.example.org/audit',
      LOG_LEVEL: 'warn',
      BACKUP_INTERVAL_HOURS: '6',
      BACKUP_KEEP: '28',
      BACKUP_DIR: '/mnt/offsite/citewise',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      siteUrl: 'https://www.example.org',
      databasePath: '/var/lib/site/site.db',
      mailDir: '/var/lib/site/mail',
      smtpUrl: 'smtp://user:pass@mail.example.org:587',
      mailFrom: 'web@example.org',
      mailTo: 'sales@example.org',
      mailRetryBaseMs: 1000,
      trustProxy: 1,
      bookingUrl: 'https://cal.example.org/audit',
      logLevel: 'warn',
      backupIntervalHours: 6,
      backupKeep: 28,
      backupDir: '/mnt/offsite/citewise',
    });
    // Backups go beside the database unless told otherwise, and 0 turns the schedule off.
    expect(loadConfig({ DATABASE_PATH: '/var/lib/site/site.db' }).backupDir).toBe('/var/lib/site/backups');
    expect(loadConfig({ BACKUP_INTERVAL_HOURS: '0' }).backupIntervalHours).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.1']);
    expect(loadConfig({ QUARANTINE_DAYS: '14' }).quarantineDays).toBe(14);
  });

  it('leaves the AI visibility probe off until a key is set, and asks 10 questions each, 300 calls a day, by default', () => {
    expect(loadConfig({}).probe).toEqual({ assistants: [], promptsPerAssistant: 10, dailyCalls: 300 });
    expect(loadConfig({ PROBE_PROMPTS: '50', PROBE_DAILY_CALLS: '1000' }).probe).toMatchObject({ promptsPerAssistant: 50, dailyCalls: 1000 });
  });

  it('asks 50 questions and 3 about the business of each assistant in a full audit run, and neither runs nor sends one on its own, by default', () => {
    expect(loadConfig({}).audit).toEqual({ promptsPerAssistant: 50, factPrompts: 3, auto: false, autoSend: false });
    expect(loadConfig({ AUDIT_PROMPTS: '100', AUDIT_FACT_PROMPTS: '0', AUDIT_AUTO: '1', AUDIT_AUTO_SEND: '1' }).audit).toEqual({ promptsPerAssistant: 100, factPrompts: 0, auto: true, autoSend: true });
    expect(loadConfig({ AUDIT_PROMPTS: '1' }).audit.promptsPerAssistant).toBe(1);
  });

  it('asks no more direct questions about the business than it has words for, and refuses more than 10 in one line', () => {
    expect(loadConfig({ AUDIT_FACT_PROMPTS: '10' }).audit.factPrompts).toBe(probePrompts.aboutTemplates.length);
    expect(() => loadConfig({ AUDIT_FACT_PROMPTS: '11' })).toThrow(/^Invalid configuration: AUDIT_FACT_PROMPTS/);
  });

  it('judges nothing with JUDGE_PROVIDER=none, whatever keys are set', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-test-0123456789abcdef', JUDGE_PROVIDER: 'none' }).judge).toBeNull();
  });

  it('fixes 50 questions for each monitored client, runs it every 30 days, and mails no client, by default', () => {
    expect(loadConfig({}).monitor).toEqual({ promptsPerAssistant: 50, intervalDays: 30, send: false });
    expect(loadConfig({ MONITOR_PROMPTS: '100', MONITOR_INTERVAL_DAYS: '365', MONITOR_SEND: '1' }).monitor).toEqual({ promptsPerAssistant: 100, intervalDays: 365, send: true });
    expect(loadConfig({ MONITOR_PROMPTS: '1', MONITOR_INTERVAL_DAYS: '1' }).monitor).toEqual({ promptsPerAssistant: 1, intervalDays: 1, send: false });
  });

  it('turns on each assistant whose key is set, with the provider\'s own API and the documented model unless told otherwise', () => {
    const { assistants } = loadConfig({
      OPENAI_API_KEY: 'sk-test-openai-0123456789',
      GEMINI_API_KEY: 'AIza-test-gemini-0123456789',
      GEMINI_BASE_URL: 'http://127.0.0.1:9999/v1beta',
      GEMINI_MODEL: 'gemini-3-flash-preview',
      // A model without its key asks nothing.
      ANTHROPIC_MODEL: 'claude-haiku-4-5',
    }).probe;
    expect(assistants.map(({ id, baseUrl, model }) => ({ id, baseUrl, model }))).toEqual([
      { id: 'chatgpt', baseUrl: 'https://api.openai.com/v1', model: 'gpt-5-mini' },
      { id: 'gemini', baseUrl: 'http://127.0.0.1:9999/v1beta', model: 'gemini-3-flash-preview' },
    ]);
    expect(assistants[0]?.apiKey.reveal()).toBe('sk-test-openai-0123456789');
    expect(loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-test-0123456789', PERPLEXITY_API_KEY: 'pplx-test-0123456789' }).probe.assistants.map(({ id, baseUrl, model }) => [id, baseUrl, model])).toEqual([
      ['claude', 'https://api.anthropic.com/v1', 'claude-sonnet-4-6'],
      ['perplexity', 'https://api.perplexity.ai', 'sonar'],
    ]);
  });

  it('never shows an API key: not in the configuration printed or serialised, not in the error a bad key gives', () => {
    const config = loadConfig({ OPENAI_API_KEY: 'sk-live-S3cretKey0123', ANTHROPIC_API_KEY: 'sk-ant-S3cretKey0123' });
    expect(JSON.stringify(config)).not.toContain('S3cretKey');
    expect(inspect(config, { depth: 10 })).not.toContain('S3cretKey');
    expect(`${config.probe.assistants[0]?.apiKey}`).toBe('[hidden]');
    const badKeys: [string, string][] = [
      ['OPENAI_API_KEY', 'sk-live S3cretKey0123'],
      ['ANTHROPIC_API_KEY', 'S3cret'],
      ['GEMINI_API_KEY', `S3cretKey${'x'.repeat(600)}`],
      ['PERPLEXITY_API_KEY', 'pplx-S3cretKey\n0123'],
    ];
    for (const [name, value] of badKeys) {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        expect((error as Error).message).toMatch(new RegExp(`^Invalid configuration: ${name} \\(value not shown\\) must be`));
        expect((error as Error).message).not.toContain('S3cret');
      }
    }
  });

  it('masks a password in an assistant\'s base URL, as in SMTP_URL', () => {
    expect(() => loadConfig({ OPENAI_BASE_URL: 'ftp://proxy-user:S3cret@proxy.example.org/v1' })).toThrow('OPENAI_BASE_URL="ftp://***@proxy.example.org/v1" must be an absolute http(s) URL');
  });

  it('has the answer judge ask the first configured assistant with its small model, or JUDGE_PROVIDER and JUDGE_MODEL, and none while no key is set', () => {
    expect(loadConfig({}).judge).toBeNull();
    // JUDGE_MODEL alone turns nothing on.
    expect(loadConfig({ JUDGE_MODEL: 'gpt-5-mini' }).judge).toBeNull();
    const judge = (env: Record<string, string>) => {
      const setting = loadConfig(env).judge;
      return setting && { id: setting.id, baseUrl: setting.baseUrl, model: setting.model, key: setting.apiKey.reveal() };
    };
    const keys = { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789', GEMINI_API_KEY: 'AIza-test-gemini-0123456789', GEMINI_BASE_URL: 'http://127.0.0.1:9999/v1beta', GEMINI_MODEL: 'gemini-3-flash-preview' };
    // The first configured in report order; its key, its API base; its small model, not the probe's.
    expect(judge(keys)).toEqual({ id: 'claude', baseUrl: 'https://api.anthropic.com/v1', model: 'claude-haiku-4-5', key: 'sk-ant-test-0123456789' });
    expect(judge({ ...keys, JUDGE_PROVIDER: 'gemini' })).toEqual({ id: 'gemini', baseUrl: 'http://127.0.0.1:9999/v1beta', model: 'gemini-flash-lite-latest', key: 'AIza-test-gemini-0123456789' });
    expect(judge({ ...keys, JUDGE_PROVIDER: 'gemini', JUDGE_MODEL: 'gemini-3-flash-preview' })?.model).toBe('gemini-3-flash-preview');
    expect(judge({ OPENAI_API_KEY: 'sk-test-openai-0123456789' })?.model).toBe('gpt-5-nano');
    expect(judge({ PERPLEXITY_API_KEY: 'pplx-test-0123456789' })?.model).toBe('sonar');
    // The probe's assistants are as they were.
    expect(loadConfig({ ...keys, JUDGE_PROVIDER: 'gemini' }).probe.assistants.map(({ model }) => model)).toEqual(['claude-sonnet-4-6', 'gemini-3-flash-preview']);
  });

  it('refuses a JUDGE_PROVIDER whose key is not set, with one line that names both variables and no key', () => {
    expect(() => loadConfig({ ANTHROPIC_API_KEY: 'sk-ant-S3cretKey0123', JUDGE_PROVIDER: 'chatgpt' })).toThrow(new ConfigError('Invalid configuration: JUDGE_PROVIDER="chatgpt" needs OPENAI_API_KEY, which is not set'));
    expect(() => loadConfig({ JUDGE_PROVIDER: 'perplexity' })).toThrow('JUDGE_PROVIDER="perplexity" needs PERPLEXITY_API_KEY');
  });

  it('keeps 30 days of held submissions by default', () => {
    expect(loadConfig({}).quarantineDays).toBe(30);
  });

  it('keeps 14 days of backups by default, as the privacy policy says', () => {
    const { backupIntervalHours, backupKeep } = loadConfig({});
    expect((backupIntervalHours * backupKeep) / 24).toBe(14);
    const policy = readFileSync(path.resolve(__dirname, '..', '..', 'content', 'legal', 'privacy-policy.md'), 'utf8');
    expect(policy).toMatch(/^\| Backup copies of our database[^|\n]*\| 14 days, then deleted automatically \|$/m);
  });

  // Some providers take an API token as the user name too, so the whole user part is hidden.
  it.each([
    ['smtp://mailer:S3cret-pa55@mail.example.org:587/ oops', 'S3cret-pa55', 'smtp://***@mail.example.org:587/ oops'],
    ['smtp://mailer:my S3cret@mail.example.org', 'S3cret', 'smtp://***@mail.example.org'],
    ['smtp://mailer:S3c@ret@mail.example.org/ oops', 'ret', 'smtp://***@mail.example.org/ oops'],
    ['smtp://S3cret-token:S3cret-token@mail.example.org:99999', 'S3cret', 'smtp://***@mail.example.org:99999'],
  ])('never prints the credentials of a bad SMTP_URL (%s)', (value, secret, shown) => {
    expect(() => loadConfig({ SMTP_URL: value })).toThrow(ConfigError);
    try {
      loadConfig({ SMTP_URL: value });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain(`SMTP_URL=${JSON.stringify(shown)}`);
      expect(message).not.toContain(secret);
    }
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['SITE_URL', 'localhost:3000'],
    ['SITE_URL', 'ftp://example.org'],
    ['SMTP_URL', 'http://mail.example.org'],
    ['MAIL_FROM', 'not-an-address'],
    ['MAIL_TO', 'a@b'],
    ['MAIL_RETRY_BASE_MS', '-5'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    ['BOOKING_URL', 'javascript:alert(1)'],
    ['LOG_LEVEL', 'loud'],
    ['PORT', ' '],
    ['PORT', '0x0C81'],
    ['PORT', '1e3'],
    ['PORT', '3000.5'],
    ['MAIL_RETRY_BASE_MS', '0x10'],
    ['DATABASE_PATH', '/proc/self/fd/0'],
    ['DATABASE_PATH', '/dev/stdin'],
    ['DATABASE_PATH', '/sys/kernel/site.db'],
    ['SMTP_URL', 'smtp://user:pass word@mail.example.org'],
    ['SMTP_URL', 'smtp://'],
    ['HOST', 'not a host'],
    ['QUARANTINE_DAYS', '0'],
    ['SITE_CHECK_ALLOW', 'localhost'],
    ['SITE_CHECK_ALLOW', '127.1'],
    ['SITE_CHECK_ALLOW', '10.0.0.0/40'],
    ['BACKUP_INTERVAL_HOURS', '1.5'],
    ['BACKUP_INTERVAL_HOURS', '-1'],
    ['BACKUP_KEEP', '0'],
    ['BACKUP_DIR', '/proc/self'],
    ['PROBE_PROMPTS', '0'],
    ['PROBE_PROMPTS', '51'],
    ['PROBE_DAILY_CALLS', '0'],
    ['PROBE_DAILY_CALLS', 'unlimited'],
    ['AUDIT_PROMPTS', '0'],
    ['AUDIT_PROMPTS', '101'],
    ['AUDIT_PROMPTS', '5e1'],
    ['AUDIT_AUTO', 'yes'],
    ['AUDIT_AUTO_SEND', 'true'],
    ['MONITOR_PROMPTS', '0'],
    ['MONITOR_PROMPTS', '101'],
    ['MONITOR_INTERVAL_DAYS', '0'],
    ['MONITOR_INTERVAL_DAYS', '366'],
    ['MONITOR_INTERVAL_DAYS', '7.5'],
    ['MONITOR_SEND', 'yes'],
    ['OPENAI_BASE_URL', 'api.openai.com/v1'],
    ['GEMINI_MODEL', 'gemini flash'],
    ['ANTHROPIC_MODEL', '../claude'],
    ['JUDGE_PROVIDER', 'openai'],
    ['JUDGE_MODEL', 'gpt 5 nano'],
  ])('stops on %s=%s with one line that names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain(name);
      expect(message).not.toContain('\n');
    }
  });
});
