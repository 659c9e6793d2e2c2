import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { emlFileTransport } from '../../server/mail/mail-transport';
import { neutraliseFormula } from '../../server/ops/csv-export';
import { parseCsv } from '../helpers/csv';
import { countRows, submitLead, validAudit, validContact } from '../helpers/forms';
import { runOps, type OpsCommand } from '../helpers/ops-command';
import { createTestApp, type TestApp } from '../helpers/test-app';

// The cases run the built ops commands as processes, several in some cases: seconds on a busy machine.
jest.setTimeout(30_000);

function run(command: OpsCommand, args: string[], app: TestApp, env: Record<string, string> = {}) {
  return runOps(command, args, { DATABASE_PATH: app.config.databasePath, ...env });
}

let app: TestApp;
beforeEach(() => {
  app = createTestApp();
});
afterEach(() => app.close());

describe('npm run export:csv', () => {
  it('writes RFC 4180 CSV of the audit requests to stdout, with formula cells neutralised, while the site holds the database', async () => {
    await submitLead(app, '/free-audit', validAudit);
    await submitLead(app, '/free-audit', {
      ...validAudit,
      name: '=HYPERLINK("http://evil.example","Click")',
      email: 'second@example.co.uk',
      target_keywords: '+44 plumbers, "emergency", call-outs',
      lead_sources: '@mentions\nand referrals',
      seo_experience: '-none-',
    });
    const result = run('export-csv', [], app);
    expect(result.status).toBe(0);
    expect(result.stdout.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(result.stdout.slice(1));
    expect(rows[0]).toEqual(['id', 'created_at', 'name', 'email', 'website_url', 'business_description', 'ideal_customer', 'target_keywords', 'current_products', 'lead_sources', 'seo_experience', 'main_goal', 'site_check_score', 'site_check_summary', 'probe_score', 'probe_summary', 'audit_made_at', 'audit_score', 'audit_sent']);
    // No worker ran in this app: each website's check is still queued; no assistant is configured, so no probe and no audit.
    expect(rows[1]?.slice(12)).toEqual(['', 'queued', '', '', '', '', '']);
    expect(rows).toHaveLength(3);
    expect(rows[1]?.[2]).toBe('Priya Shah');
    expect(rows[1]?.[5]).toBe(validAudit.business_description);
    expect(rows[2]?.[2]).toBe(`'=HYPERLINK("http://evil.example","Click")`);
    expect(rows[2]?.[7]).toBe(`'+44 plumbers, "emergency", call-outs`);
    expect(rows[2]?.[9]).toBe(`'@mentions\nand referrals`);
    expect(rows[2]?.[10]).toBe(`'-none-`);
  });

  it('exports contact messages since a day into a file', async () => {
    await submitLead(app, '/contact', validContact);
    const out = path.join(app.dir, 'contact.csv');
    const result = run('export-csv', ['--table', 'contact', '--since', '2000-01-01', '--out', out, '--no-bom'], app);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('Wrote 1 contact rows');
    const rows = parseCsv(readFileSync(out, 'utf8'));
    expect(rows[1]).toEqual(expect.arrayContaining(['Dan', 'Okafor', 'dan@example.co.uk', 'consultation', validContact.message]));
    const none = run('export-csv', ['--table', 'contact', '--since', '2999-01-01', '--no-bom'], app);
    expect(parseCsv(none.stdout)).toHaveLength(1);
  });

  it('stops with a clear message on a bad option', () => {
    const result = run('export-csv', ['--table', 'people'], app);
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('--table must be audit, contact, quarantine, checks or clients, not people');
    expect(run('export-csv', ['--since', 'yesterday'], app).stderr).toContain('--since must be a date YYYY-MM-DD');
  });

  it('neutralises every character OWASP lists', () => {
    for (const prefix of ['=', '+', '-', '@', '\t', '\r', '\n']) expect(neutraliseFormula(`${prefix}1`)).toBe(`'${prefix}1`);
    expect(neutraliseFormula('Plain text = fine')).toBe('Plain text = fine');
  });
});

describe('npm run erase', () => {
  /** Sends every pending mail the way the site does without SMTP_URL: real .eml files. */
  async function writeMails(target: TestApp) {
    const worker = target.outboxWorker(emlFileTransport(target.config.mailDir));
    worker.kick();
    await worker.idle();
    await worker.stop();
  }
  const emlFiles = (target: TestApp) => (existsSync(target.config.mailDir) ? readdirSync(target.config.mailDir).filter((name) => name.endsWith('.eml')) : []);

  it("deletes that person's rows from every table and the .eml files of their mails only, and prints what it removed", async () => {
    await submitLead(app, '/free-audit', validAudit);
    await writeMails(app);
    await submitLead(app, '/contact', { ...validContact, email: 'Priya@ShahPayroll.co.uk' });
    // Addresses that contain hers: never hers.
    await submitLead(app, '/free-audit', { ...validAudit, name: 'Someone Else', email: 'bpriya@shahpayroll.co.uk.example' });
    await submitLead(app, '/free-audit', { ...validAudit, name: 'Another', email: 'else@example.co.uk' });
    await writeMails(app);
    // A held submission of hers too.
    const strict = app.db.prepare(`INSERT INTO quarantine (form, reason, email, fields, created_at) VALUES ('audit', 'honeypot filled', ?, '{}', ?)`);
    strict.run('PRIYA@shahpayroll.co.uk', app.clock().toISOString());
    expect(emlFiles(app)).toHaveLength(4);

    const result = run('erase', ['--email', 'priya@shahpayroll.co.uk'], app);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('audit requests:   1');
    expect(result.stdout).toContain('site checks:      1');
    expect(result.stdout).toContain('contact messages: 1');
    expect(result.stdout).toContain('held submissions: 1');
    expect(result.stdout).toContain('outbox mails:     2 (0 not yet sent)');
    expect(result.stdout).toContain('.eml files:       2');
    expect(countRows(app.db, 'audit_submissions')).toBe(2);
    expect(countRows(app.db, 'contact_messages')).toBe(0);
    expect(countRows(app.db, 'quarantine')).toBe(0);
    expect(countRows(app.db, 'mail_outbox')).toBe(2);
    // The others' mails are still there, and they mention nobody erased.
    const left = emlFiles(app).map((name) => readFileSync(path.join(app.config.mailDir, name), 'utf8'));
    expect(left).toHaveLength(2);
    for (const text of left) expect(text.toLowerCase()).not.toContain('priya@shahpayroll.co.uk>');
    expect(app.db.prepare('SELECT email FROM audit_submissions ORDER BY id').all()).toEqual([{ email: 'bpriya@shahpayroll.co.uk.example' }, { email: 'else@example.co.uk' }]);
  });

  it('touches nothing for an address with no rows, though every mail names the agency', async () => {
    await submitLead(app, '/free-audit', validAudit);
    await writeMails(app);
    const result = run('erase', ['--email', 'leads@example.com'], app);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('.eml files:       0');
    expect(result.stdout).toContain(`backups:          none of the 0 in ${path.join(app.dir, 'backups')} holds them`);
    expect(emlFiles(app)).toHaveLength(1);
    expect(countRows(app.db, 'audit_submissions')).toBe(1);
  });

  it('finds a person however the address is written, and leaves no copy in the database files', async () => {
    const person = {
      ...validAudit,
      name: 'Jörg Straßer-Quarantäne',
      email: 'JÖRG.STRASSER@MÜNCHEN-BÄCKEREI.DE',
      main_goal: 'Unique goal text zq81x for the erasure test',
    };
    await submitLead(app, '/free-audit', person);
    await writeMails(app);
    await submitLead(app, '/contact', { ...validContact, email: 'jörg.straßer@xn--mnchen-bckerei-dib09a.de', message: 'Second message zq81x' });
    const result = run('erase', ['--email', 'Jörg.Straßer@münchen-bäckerei.de'], app);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('audit requests:   1');
    expect(result.stdout).toContain('contact messages: 1');
    expect(result.stdout).toContain('.eml files:       1');
    expect(emlFiles(app)).toHaveLength(0);

    // What grep would find in the database, its WAL and shared memory, while the site holds it open.
    const files = [app.config.databasePath, `${app.config.databasePath}-wal`, `${app.config.databasePath}-shm`].filter((file) => existsSync(file));
    const needles = ['zq81x', 'Straßer', 'STRASSER', 'xn--mnchen', 'MÜNCHEN'].map((text) => Buffer.from(text, 'utf8'));
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const needle of needles) expect({ file: path.basename(file), needle: needle.toString(), found: bytes.includes(needle) }).toEqual({ file: path.basename(file), needle: needle.toString(), found: false });
    }
  });

  it('says which backups still hold the person, and when the schedule deletes each', async () => {
    const backups = path.join(app.dir, 'backups');
    const older = path.join(backups, 'site-20300301T090000Z.db');
    const newer = path.join(backups, 'site-20300302T090000Z.db');
    await submitLead(app, '/free-audit', { ...validAudit, email: 'else@example.co.uk' });
    expect(run('backup', ['--out', older], app).status).toBe(0);
    await submitLead(app, '/free-audit', validAudit);
    expect(run('backup', ['--out', newer], app).status).toBe(0);

    const result = run('erase', ['--email', 'Priya@ShahPayroll.co.uk'], app);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`backups:          1 of the 2 in ${backups} still hold them; kept out of use`);
    // Her audit request and its mail; the newest of 14 kept daily goes 14 days after it was taken.
    expect(result.stdout).toContain(`    ${newer}  taken 2030-03-02 09:00 UTC, 2 rows about them, deleted by the backup schedule at about 2030-03-16 09:00 UTC`);
    expect(result.stdout).not.toContain(older);

    const off = run('erase', ['--email', 'priya@shahpayroll.co.uk'], app, { BACKUP_INTERVAL_HOURS: '0' });
    expect(off.stdout).toContain(`    ${newer}  taken 2030-03-02 09:00 UTC, 2 rows about them, kept until deleted by hand (BACKUP_INTERVAL_HOURS=0)`);
  });

  it('needs an address', () => {
    const result = run('erase', [], app);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Usage: npm run erase -- --email ADDRESS');
  });
});

describe('every ops command, badly configured', () => {
  const commands: [OpsCommand, string[]][] = [
    ['export-csv', []],
    ['erase', ['--email', 'someone@example.co.uk']],
    ['report-ai', []],
    ['backup', []],
    ['restore', ['backup.db']],
  ];

  it.each(commands)('%s stops with one line naming DATABASE_PATH when it names a folder', (script, args) => {
    const result = run(script, args, app, { DATABASE_PATH: app.dir });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Invalid configuration: DATABASE_PATH=".*" cannot be used as the database: /)]);
  });

  it.each(commands)('%s stops with one line naming SMTP_URL, without its password', (script, args) => {
    const result = run(script, args, app, { SMTP_URL: 'smtp://mailer:my s3cret@mail.example.org' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('Invalid configuration: SMTP_URL="smtp://***@mail.example.org"')]);
    expect(result.stderr).not.toContain('s3cret');
  });
});
