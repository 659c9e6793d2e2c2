import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import pino from 'pino';
import { BackupSchedule, backupCommand } from '../../server/backup/backup-schedule';
import { migrate, openDatabase } from '../../server/db/database';
import { LATEST_SCHEMA_VERSION } from '../../server/db/migrations';
import { testClock } from '../helpers/clock';
import { parseCsv } from '../helpers/csv';
import { validAudit } from '../helpers/forms';
import { runOps, runOpsInBackground } from '../helpers/ops-command';
import { openProcessForm, postProcessForm } from '../helpers/process-forms';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { ROOT } from '../helpers/locations';

// Real server processes, 200 posts and several commands per case: tens of seconds on a busy machine.
jest.setTimeout(120_000);

const LEADS = 200;
/** The backup starts once this many posts have been acknowledged, with the rest still in flight. */
const BACKUP_AFTER_ACKNOWLEDGED = 50;
const BACKUP_SCRIPT = path.join(ROOT, 'dist', 'scripts', 'backup.js');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'citewise-backups-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One column of a query's rows in a database file, read as ops would (read-only). */
function column(file: string, sql: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], string>(sql).pluck().all();
  } finally {
    db.close();
  }
}

/** The audit requests' addresses, in the order they came. */
const emailsIn = (file: string) => column(file, 'SELECT email FROM audit_submissions ORDER BY id');
const integrityOf = (file: string) => column(file, 'PRAGMA integrity_check');

/** The path `npm run backup` says it wrote. */
function writtenTo(stdout: string): string {
  const file = /^Backup written to (.+)$/m.exec(stdout)?.[1];
  if (!file) throw new Error(`no "Backup written to" in: ${stdout}`);
  return file;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Visitors with the audit form open on a running server, ready to post, each from its own client
 * address (198.51.100.0/24, a documentation range) as a trusted proxy would append it.
 */
async function openVisitors(url: string, count: number) {
  if (count > 254) throw new Error('one /24 of client addresses: at most 254 visitors');
  const addresses = Array.from({ length: count }, (_visitor, index) => `198.51.100.${index + 1}`);
  const sessions = await Promise.all(addresses.map((address) => openProcessForm(url, '/free-audit', address)));
  return sessions.map((session, index) => ({
    /** Posts an audit request; resolves once the server has acknowledged it (303). */
    async post(email: string): Promise<void> {
      const status = await postProcessForm(url, '/free-audit', session, { ...validAudit, email }, addresses[index]);
      if (status !== 303) throw new Error(`POST for ${email} answered ${status}`);
    },
  }));
}

describe('npm run backup and npm run restore, with the real server', () => {
  // Stopped after each case, however it ended: a server left running would hold the test run open.
  const servers: ServerProcess[] = [];
  const startServer = async (env: Record<string, string>) => {
    const server = await startServerProcess(env);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  });

  it('backs up while 200 leads are posted, holding every lead acknowledged before it began; a restore of it serves them', async () => {
    const databasePath = path.join(dir, 'site.db');
    // TRUST_PROXY: each visitor comes from its own address (the rate limit and the per-address bound are not what this is about).
    const env = { DATABASE_PATH: databasePath, TRUST_PROXY: '1' };
    const server = await startServer(env);
    // A reader that keeps its snapshot all along (an export, say) keeps every lead in the WAL, never
    // checkpointed into the database's file: a copy of that file alone would hold none of them.
    const reader = new Database(databasePath, { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM audit_submissions').get();
    let beforeBackup: string[] = [];
    let backup: ReturnType<typeof runOpsInBackground> | undefined;
    const acknowledged: string[] = [];
    const visitors = await openVisitors(server.url, LEADS);
    await Promise.all(
      visitors.map(async (visitor, index) => {
        const email = `lead${index}@backup.example.co.uk`;
        await visitor.post(email);
        acknowledged.push(email);
        if (acknowledged.length === BACKUP_AFTER_ACKNOWLEDGED) {
          beforeBackup = [...acknowledged];
          backup = runOpsInBackground('backup', [], env);
        }
      }),
    );
    if (!backup) throw new Error('the backup never started');
    const result = await backup;
    reader.prepare('COMMIT').run();
    reader.close();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);

    // Where ops are told it went: backups/ beside the database, named with the UTC time.
    const file = writtenTo(result.stdout);
    expect(path.dirname(file)).toBe(path.join(dir, 'backups'));
    expect(path.basename(file)).toMatch(/^site-\d{8}T\d{6}Z\.db$/);
    expect(result.stdout).toContain('integrity_check ok');
    expect(result.stdout).toMatch(/audit_submissions \d+/);
    // One self-contained file, nothing half-written left beside it.
    expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    expect(integrityOf(file)).toEqual(['ok']);
    const inBackup = emailsIn(file);
    expect(inBackup).toEqual(expect.arrayContaining(beforeBackup));
    expect(acknowledged).toHaveLength(LEADS);
    expect(emailsIn(databasePath)).toHaveLength(LEADS);

    // The restore: the site stopped, the backup put back, the site started again on it.
    expect(await server.stop()).toBe(0);
    const restore = runOps('restore', [file], env);
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain(`Restored ${file} to ${databasePath}`);
    const replaced = /kept beside it: (.+)$/m.exec(restore.stdout)?.[1] ?? '';
    expect(path.dirname(replaced)).toBe(dir);
    expect(path.basename(replaced)).toMatch(/^site-before-restore-\d{8}T\d{6}Z\.db$/);
    // The database it replaced, with all 200, is kept whole.
    expect(emailsIn(replaced)).toHaveLength(LEADS);

    const restarted = await startServer(env);
    expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
    const exported = runOps('export-csv', ['--no-bom'], env);
    expect(exported.status).toBe(0);
    const rows = parseCsv(exported.stdout).slice(1);
    expect(rows.map((row) => row[3])).toEqual(inBackup);
    // It takes new leads after the restored ones.
    const [visitor] = await openVisitors(restarted.url, 1);
    await visitor?.post('after-restore@backup.example.co.uk');
    expect(emailsIn(databasePath)).toEqual([...inBackup, 'after-restore@backup.example.co.uk']);
    expect(await restarted.stop()).toBe(0);
  });

  it('refuses to restore while the server runs on the database, and restores after a kill -9 left its -wal and -shm', async () => {
    const databasePath = path.join(dir, 'site.db');
    const env = { DATABASE_PATH: databasePath, TRUST_PROXY: '1' };
    const server = await startServer(env);
    const [first, second, third] = await openVisitors(server.url, 3);
    await first?.post('first@backup.example.co.uk');
    await second?.post('second@backup.example.co.uk');
    const backup = runOps('backup', ['--out', path.join(dir, 'copy.db')], env);
    expect(backup.status).toBe(0);
    await third?.post('after-backup@backup.example.co.uk');

    const refused = runOps('restore', [path.join(dir, 'copy.db')], env);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toEqual([`Not restored: ${databasePath} is open in another process (the site, or an ops command): stop it, then restore again`]);
    expect(emailsIn(databasePath)).toHaveLength(3);

    expect(await server.stop('SIGKILL')).toBeNull();
    // What a killed server leaves: the last leads only in the WAL, and its shared memory.
    expect(statSync(`${databasePath}-wal`).size).toBeGreaterThan(0);
    expect(existsSync(`${databasePath}-shm`)).toBe(true);

    const restore = runOps('restore', [path.join(dir, 'copy.db')], env);
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    const replaced = /kept beside it: (.+)$/m.exec(restore.stdout)?.[1] ?? '';
    // Nothing of the old database beside the restored one, where SQLite would take it for its own;
    // the old one kept whole, with the leads that were only in its WAL.
    expect(readdirSync(dir).filter((name) => name !== 'mail').sort()).toEqual(['copy.db', path.basename(replaced), 'site.db'].sort());
    expect(emailsIn(replaced)).toEqual(['first@backup.example.co.uk', 'second@backup.example.co.uk', 'after-backup@backup.example.co.uk']);
    expect(integrityOf(replaced)).toEqual(['ok']);

    const restarted = await startServer(env);
    expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
    expect(emailsIn(databasePath)).toEqual(['first@backup.example.co.uk', 'second@backup.example.co.uk']);
    expect(await restarted.stop()).toBe(0);
  });
});

describe('npm run restore, given something that is not a sound backup of this site', () => {
  let databasePath: string;
  let good: string;
  beforeEach(() => {
    databasePath = path.join(dir, 'site.db');
    const db = openDatabase(databasePath);
    migrate(db);
    db.prepare(`INSERT INTO settings (key, value) VALUES ('filler', ?)`).run('x'.repeat(200_000));
    db.prepare(
      `INSERT INTO audit_submissions (name, email, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
       VALUES (@name, @email, @business_description, @ideal_customer, @target_keywords, @current_products, @lead_sources, @seo_experience, @main_goal, '2030-03-04T09:00:00.000Z')`,
    ).run(validAudit);
    db.close();
    good = writtenTo(runOps('backup', [], { DATABASE_PATH: databasePath }).stdout);
  });

  const cases: [string, () => string, RegExp][] = [
    [
      'a truncated backup',
      () => {
        const file = path.join(dir, 'truncated.db');
        const bytes = readFileSync(good);
        writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
        return file;
      },
      /^Not restored: .*truncated\.db is damaged \(database disk image is malformed\)/,
    ],
    [
      'a backup whose index no longer matches its table (every row still reads)',
      () => {
        const file = path.join(dir, 'bad-index.db');
        copyFileSync(good, file);
        const damaged = new Database(file);
        // The index's definition changed under its entries: only integrity_check notices.
        damaged.unsafeMode(true);
        damaged.pragma('writable_schema = ON');
        damaged.prepare(`UPDATE sqlite_schema SET sql = replace(sql, '(email COLLATE NOCASE)', '(name COLLATE NOCASE)') WHERE name = 'audit_submissions_email'`).run();
        damaged.close();
        return file;
      },
      /^Not restored: .*bad-index\.db is damaged: integrity_check found 1 problem\(s\), the first: row 1 missing from index audit_submissions_email$/,
    ],
    [
      'another SQLite database',
      () => {
        const file = path.join(dir, 'notes.db');
        const other = new Database(file);
        other.exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hello')`);
        other.close();
        return file;
      },
      /^Not restored: .*notes\.db is not this site's database \(it has no settings, audit_submissions, .* tables\)$/,
    ],
    [
      'a text file',
      () => {
        const file = path.join(dir, 'leads.csv');
        writeFileSync(file, 'name,email\nPriya Shah,priya@shahpayroll.co.uk\n'.repeat(100));
        return file;
      },
      /^Not restored: .*leads\.csv is not a SQLite database$/,
    ],
    [
      'a backup from a newer release',
      () => {
        const file = path.join(dir, 'newer.db');
        copyFileSync(good, file);
        const newer = new Database(file);
        newer.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
        newer.close();
        return file;
      },
      new RegExp(`^Not restored: .*newer\\.db was made by a newer release of the site \\(schema ${LATEST_SCHEMA_VERSION + 1}; this one knows up to ${LATEST_SCHEMA_VERSION}\\)`),
    ],
  ];

  it.each(cases)('refuses %s with one line, and changes nothing', (_, make, message) => {
    const file = make();
    const before = sha256(databasePath);
    const listing = readdirSync(dir).sort();
    const result = runOps('restore', [file], { DATABASE_PATH: databasePath });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(sha256(databasePath)).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(listing);
  });

  it('restores the sound backup these were made from', () => {
    const result = runOps('restore', [good], { DATABASE_PATH: databasePath });
    expect(result.status).toBe(0);
    expect(integrityOf(databasePath)).toEqual(['ok']);
  });

  it('needs a file', () => {
    const result = runOps('restore', [], { DATABASE_PATH: databasePath });
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('Usage: npm run restore -- FILE');
  });
});

describe('npm run backup, when it cannot make a sound copy', () => {
  let databasePath: string;
  beforeEach(() => {
    databasePath = path.join(dir, 'site.db');
    const db = openDatabase(databasePath);
    migrate(db);
    db.close();
  });

  it('says so in one line, exits 1 and leaves nothing named like a backup, while another process holds the database exclusively', () => {
    // What a restore does while it swaps the files.
    const holder = new Database(databasePath);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE; COMMIT');
    try {
      const result = runOps('backup', [], { DATABASE_PATH: databasePath });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toEqual([`${databasePath} could not be read for the backup: another process holds it exclusively (a restore?), or it is empty`]);
      expect(readdirSync(path.join(dir, 'backups'))).toEqual([]);
    } finally {
      holder.close();
    }
  });

  it('never replaces an existing file', () => {
    const out = path.join(dir, 'kept.db');
    writeFileSync(out, 'not to be lost');
    const result = runOps('backup', ['--out', out], { DATABASE_PATH: databasePath });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(`${out} exists already: choose a new name`);
    expect(readFileSync(out, 'utf8')).toBe('not to be lost');
  });
});

describe("the server's backup schedule", () => {
  const HOUR = 3_600_000;

  /** A log that the test reads back: what ops would find in the server's output. */
  function capturedLogger() {
    const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
    return { logger, lines };
  }

  function siteDatabase(): string {
    const databasePath = path.join(dir, 'site.db');
    const db = openDatabase(databasePath);
    migrate(db);
    db.close();
    return databasePath;
  }

  function schedule(databasePath: string, backupDir: string, clock = testClock(), keep = 3) {
    const { logger, lines } = capturedLogger();
    const backups = new BackupSchedule({
      databasePath,
      dir: backupDir,
      intervalHours: 24,
      keep,
      clock,
      logger,
      take: backupCommand(BACKUP_SCRIPT, { PATH: process.env.PATH ?? '', DATABASE_PATH: databasePath }),
      firstDelayMs: 0,
    });
    return { backups, clock, lines };
  }

  it('takes one backup every interval and keeps exactly BACKUP_KEEP, the newest', async () => {
    const databasePath = siteDatabase();
    const backupDir = path.join(dir, 'backups');
    const { backups, clock, lines } = schedule(databasePath, backupDir);
    backups.start();
    const names: string[] = [];
    for (let day = 0; day < 6; day += 1) {
      if (day > 0) clock.advance(24 * HOUR);
      await backups.runDue();
      // Not due again until the interval has passed on the clock.
      await backups.runDue();
      names.push(`site-${clock().toISOString().slice(0, 10).replace(/-/g, '')}T090000Z.db`);
      expect(readdirSync(backupDir).sort()).toEqual(names.slice(-3));
    }
    expect(lines.filter((line) => line.msg === 'Backup written')).toHaveLength(6);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    backups.stop();

    // Restarted five hours later, it counts from the newest backup: it neither takes an extra one
    // now nor waits a whole interval from the start.
    clock.advance(5 * HOUR);
    const restarted = schedule(databasePath, backupDir, clock);
    restarted.backups.start();
    expect(restarted.backups.nextDue).toEqual(new Date(clock().getTime() + 19 * HOUR));
    restarted.backups.stop();
  });

  it('logs a failed backup at error level, goes on, and tries again later', async () => {
    const databasePath = siteDatabase();
    // A file where the backup folder should be: nothing can be written there.
    const blocked = path.join(dir, 'not-a-folder');
    writeFileSync(blocked, '');
    const { backups, clock, lines } = schedule(databasePath, path.join(blocked, 'backups'));
    backups.start();
    await expect(backups.runDue()).resolves.toBeUndefined();
    const failure = lines.find((line) => line.msg === 'Scheduled backup failed; the site goes on and it is tried again');
    expect(failure).toMatchObject({ level: 50, retryAt: new Date(clock().getTime() + HOUR).toISOString() });
    expect(backups.nextDue).toEqual(new Date(clock().getTime() + HOUR));
    backups.stop();
  });

  it('abandons a backup being written when the server stops, leaving no file named like a backup', async () => {
    const databasePath = siteDatabase();
    // Large enough that the copy and its check take a while.
    const db = openDatabase(databasePath);
    db.exec('CREATE TABLE filler (data BLOB)');
    const insert = db.prepare('INSERT INTO filler (data) VALUES (zeroblob(1048576))');
    db.transaction(() => {
      for (let index = 0; index < 64; index += 1) insert.run();
    })();
    db.close();
    const backupDir = path.join(dir, 'backups');
    mkdirSync(backupDir);
    const { backups, lines } = schedule(databasePath, backupDir);
    backups.start();
    // The stop comes the moment the backup command creates its partial file.
    const watcher = watch(backupDir);
    const partialCreated = new Promise<void>((resolve) => watcher.on('change', (_, name) => String(name).endsWith('.partial') && resolve()));
    const pass = backups.runDue();
    await partialCreated;
    watcher.close();
    backups.stop();
    // Resolves once the backup command has ended: had it not been stopped, it would have finished.
    await pass;
    expect(readdirSync(backupDir)).toEqual([]);
    expect(lines.filter((line) => line.msg === 'Backup written' || line.level >= 50)).toEqual([]);
  });
});
