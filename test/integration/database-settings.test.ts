import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BACKGROUND_BUSY_TIMEOUT_MS, BUSY_TIMEOUT_MS, migrate, openDatabase, withoutWaitingForLocks, type Db } from '../../server/db/database';
import { createTestApp } from '../helpers/test-app';

/*
 * An acknowledged lead must survive a crash and a power cut, and a lock held by ops must make a
 * write wait rather than fail. None of that shows in a functional test (a killed process leaves
 * its writes in the OS cache either way), so the settings themselves are read back from the
 * connection the server opens.
 */

let dir: string;
let db: Db;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'citewise-db-'));
  db = openDatabase(path.join(dir, 'nested', 'site.db'));
  migrate(db);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the database connection the server opens', () => {
  it('journals in WAL mode, so readers (ops, the CSV export) never block a lead being written', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('syncs FULL: a commit is on disk, WAL included, before the visitor is thanked', () => {
    // 2 is FULL; NORMAL (1) may lose the last commits of a WAL database on power loss.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('waits for a lock held by another connection instead of failing at once', () => {
    expect(BUSY_TIMEOUT_MS).toBe(5000);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
  });

  it('overwrites what it deletes (secure_delete), so an erased person is not left in free pages', () => {
    expect(db.pragma('secure_delete', { simple: true })).toBe(1);
  });

  it('enforces foreign keys', () => {
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('creates the folder it lives in and records the schema version it migrated to', () => {
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(3);
  });
});

describe('the same connection once the app serves pages', () => {
  it("waits only briefly for another program's lock, not at all in a try of a visitor's write (tried again on a timer), and is itself again after one", () => {
    const app = createTestApp();
    try {
      expect(app.db.pragma('busy_timeout', { simple: true })).toBe(BACKGROUND_BUSY_TIMEOUT_MS);
      expect(withoutWaitingForLocks(app.db, () => app.db.pragma('busy_timeout', { simple: true }))).toBe(0);
      expect(() => withoutWaitingForLocks(app.db, () => { throw new Error('refused'); })).toThrow('refused');
      expect(app.db.pragma('busy_timeout', { simple: true })).toBe(BACKGROUND_BUSY_TIMEOUT_MS);
    } finally {
      app.close();
    }
  });
});
