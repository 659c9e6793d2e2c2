import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parse } from 'node-html-parser';
import { FILL_TIME_MAX_AGE_MS } from '../../server/http/fill-time';
import { LEADS_PER_ADDRESS_PER_DAY } from '../../server/leads/form-routes';
import { migrate, openDatabase, openDatabaseReadOnly } from '../../server/db/database';
import { LeadStore } from '../../server/leads/lead-store';
import { HONEYPOT_FIELD } from '../../shared/forms/form-contract';
import { parseCsv } from '../helpers/csv';
import { countRows, openForm, postForm, THANK_YOU_WITH_CHECK, validAudit } from '../helpers/forms';
import { startServerProcess } from '../helpers/server-process';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT } from '../helpers/locations';

/*
 * A post that looks automated is held, not thrown away: a person whose password manager filled
 * the trap, who pasted fast or left the form open too long loses nothing, and ops can find it.
 * It is never mailed, and the visitor's answer is the same as for a lead, so a bot learns nothing.
 */

let app: TestApp;
beforeEach(() => {
  // The real minimum fill time: the test clock moves past it where a person would.
  app = createTestApp({ minFillMs: 3000, formRateLimit: { limit: 1000, windowMs: 60_000 } });
});
afterEach(() => app.close());

interface Held {
  form: string;
  reason: string;
  email: string;
  fields: string;
  created_at: string;
}
const held = () => app.db.prepare('SELECT form, reason, email, fields, created_at FROM quarantine ORDER BY id').all() as Held[];

/** A person's post unless told otherwise: the form opened, 10 seconds of typing, then sent. */
const postAudit = (values: Record<string, string>, options: Parameters<typeof postForm>[3] = {}) => postForm(app, '/free-audit', values, { fillMs: 10_000, ...options });

describe('held in quarantine, answered as a success', () => {
  it('a post sooner than a person could fill the form', async () => {
    const { response } = await postAudit(validAudit, { fillMs: 800 });
    expect(response.status).toBe(303);
    expect(response.headers.location).toMatch(THANK_YOU_WITH_CHECK);
    expect(countRows(app.db, 'audit_submissions')).toBe(0);
    expect(countRows(app.db, 'mail_outbox')).toBe(0);
    expect(held()).toEqual([
      { form: 'audit', reason: 'sent 800 ms after the form was shown', email: validAudit.email, fields: JSON.stringify(validAudit), created_at: app.clock().toISOString() },
    ]);
  });

  it('a post whose honeypot a browser or a bot filled', async () => {
    const { response } = await postAudit(validAudit, { hidden: { [HONEYPOT_FIELD]: 'Jane Smith' } });
    expect(response.status).toBe(303);
    expect(held().map((row) => row.reason)).toEqual(['honeypot filled']);
    expect(countRows(app.db, 'audit_submissions')).toBe(0);
    // Nothing of a held request is acted on: its website is not checked either.
    expect(countRows(app.db, 'site_checks')).toBe(0);
  });

  it('a post with a fill-time note forged, missing, or issued to another visitor', async () => {
    const other = await openForm(app.app, '/free-audit');
    await postAudit(validAudit, { hidden: { _form_started: `${app.clock().getTime() - 60_000}.forged` } });
    await postAudit(validAudit, { hidden: { _form_started: '' } });
    // Another visitor's note, with this visitor's own (valid) token and cookie.
    await postAudit(validAudit, { hidden: { _form_started: other.hidden._form_started } });
    expect(held().map((row) => row.reason)).toEqual([
      'fill-time note forged or issued to another visitor',
      'fill-time note missing',
      'fill-time note forged or issued to another visitor',
    ]);
    expect(countRows(app.db, 'mail_outbox')).toBe(0);
  });

  it('a post of a form load older than its note lasts (one load re-used by a script)', async () => {
    const { response } = await postAudit(validAudit, { fillMs: FILL_TIME_MAX_AGE_MS + 60_000 });
    expect(response.status).toBe(303);
    expect(held().map((row) => row.reason)).toEqual(['sent 121 minutes after the form was shown']);
  });

  it(`the ${LEADS_PER_ADDRESS_PER_DAY + 1}th request in 24 hours from one address, however it is written`, async () => {
    const spellings = ['jane@acme.example', 'JANE@ACME.EXAMPLE', 'Jane@Acme.Example', 'ｊａｎｅ@acme.example'];
    for (const email of spellings) await postAudit({ ...validAudit, email });
    expect(countRows(app.db, 'audit_submissions')).toBe(LEADS_PER_ADDRESS_PER_DAY);
    expect(countRows(app.db, 'mail_outbox')).toBe(LEADS_PER_ADDRESS_PER_DAY);
    expect(held().map((row) => [row.email, row.reason])).toEqual([['ｊａｎｅ@acme.example', `more than ${LEADS_PER_ADDRESS_PER_DAY} requests from this address in 24 hours`]]);
    // A day later the address is welcome again.
    app.clock.advance(24 * 60 * 60 * 1000);
    await postAudit({ ...validAudit, email: 'jane@acme.example' });
    expect(countRows(app.db, 'audit_submissions')).toBe(LEADS_PER_ADDRESS_PER_DAY + 1);
  });

  it('tells a script exactly what it tells a person', async () => {
    const accepted = await postAudit(validAudit, { json: true });
    const heldAnswer = await postAudit(validAudit, { json: true, fillMs: 10 });
    expect(heldAnswer.response.status).toBe(accepted.response.status);
    // Each carries a check token of its own (the held one leads to no result): the same shape.
    const shape = (body: { redirect?: string }) => ({ ...body, redirect: body.redirect?.replace(/check=[\w-]{43}$/, 'check=TOKEN') });
    expect(accepted.response.body.redirect).toMatch(THANK_YOU_WITH_CHECK);
    expect(shape(heldAnswer.response.body)).toEqual(shape(accepted.response.body));
    expect(held()).toHaveLength(1);
  });
});

describe('ops and the quarantine', () => {
  it('lists held submissions with the CSV export when asked', async () => {
    await postAudit({ ...validAudit, main_goal: '=cmd|calc' }, { fillMs: 5 });
    const result = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'scripts', 'export-csv.js'), '--table', 'quarantine', '--no-bom'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: app.config.databasePath },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    const [header, row] = parseCsv(result.stdout);
    expect(header).toEqual(['id', 'created_at', 'form', 'reason', 'email', 'fields']);
    expect(row?.slice(2, 5)).toEqual(['audit', 'sent 5 ms after the form was shown', validAudit.email]);
    expect(JSON.parse(row?.[5] ?? '{}')).toMatchObject({ name: validAudit.name, main_goal: '=cmd|calc' });
  });

  it('deletes held submissions once they are older than the retention period, and no others', async () => {
    await postAudit(validAudit, { fillMs: 5 });
    app.clock.advance(29 * 24 * 60 * 60 * 1000);
    await postAudit({ ...validAudit, email: 'later@acme.example' }, { fillMs: 5 });
    const store = new LeadStore(app.db);
    expect(store.purgeQuarantine(app.clock(), 30)).toBe(0);
    app.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect(store.purgeQuarantine(app.clock(), 30)).toBe(1);
    expect(held().map((row) => row.email)).toEqual(['later@acme.example']);
  });

  // A real server process: it renders every page before it listens, seconds on a busy machine.
  it('are purged by the server at start, after QUARANTINE_DAYS days', async () => {
    const databasePath = path.join(app.dir, 'purged.db');
    const db = openDatabase(databasePath);
    migrate(db);
    const store = new LeadStore(db);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    // An hour either side of the 5 days: any other retention deletes one row too many or too few.
    const hour = 1 / 24;
    for (const [email, age] of [['old@acme.example', 31], ['past@acme.example', 5 + hour], ['within@acme.example', 5 - hour], ['new@acme.example', 1]] as const) {
      store.hold('audit', 'honeypot', { ...validAudit, email }, daysAgo(age));
    }
    db.close();

    const server = await startServerProcess({ DATABASE_PATH: databasePath, QUARANTINE_DAYS: '5' });
    await server.stop();
    expect(server.logs).toContainEqual(expect.objectContaining({ msg: 'Held submissions past their retention deleted', deleted: 2, olderThanDays: 5 }));
    const check = openDatabaseReadOnly(databasePath);
    try {
      expect(check.prepare('SELECT email FROM quarantine ORDER BY email').all()).toEqual([{ email: 'new@acme.example' }, { email: 'within@acme.example' }]);
    } finally {
      check.close();
    }
  }, 60_000);
});

describe('the honeypot', () => {
  it('is one that autofill and password managers leave alone', async () => {
    for (const formPath of ['/free-audit', '/contact']) {
      const { page } = await openForm(app.app, formPath);
      const trap = parse(page.text).querySelector(`input[name="${HONEYPOT_FIELD}"]`);
      expect(trap?.getAttribute('type')).toBe('text');
      expect(trap?.getAttribute('tabindex')).toBe('-1');
      expect(trap?.getAttribute('autocomplete')).toBe('off');
      // 1Password, LastPass, Bitwarden and Dashlane each skip a field marked with their attribute.
      for (const attribute of ['data-1p-ignore', 'data-lpignore', 'data-bwignore', 'data-form-type']) expect(trap?.hasAttribute(attribute)).toBe(true);
      // No word that autofill heuristics map to a person's details, in its name or its label.
      const words = `${trap?.getAttribute('name') ?? ''} ${trap?.parentNode?.text ?? ''}`.toLowerCase();
      for (const word of ['name', 'mail', 'phone', 'tel', 'address', 'url', 'web', 'company', 'organi', 'city', 'zip', 'post']) expect({ word, found: words.includes(word) }).toEqual({ word, found: false });
    }
  });
});
