import { parse } from 'node-html-parser';
import request from 'supertest';
import type { FormTokens } from '../../shared/forms/form-contract';
import { countRows, openForm, THANK_YOU_WITH_CHECK, validAudit, validContact } from '../helpers/forms';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * A refused post whose retry can succeed (a lapsed session, the rate limit, the database
 * unavailable) answers with the tokens the retry must send. The retry, even at once, is then
 * stored and mailed as a lead: not refused again, and not held in quarantine as a bot's or
 * another visitor's.
 */

// Each case builds the app and renders form pages: seconds on a busy two-core machine.
jest.setTimeout(30_000);

let app: TestApp;
afterEach(() => app.close());

/** The real fill-time rule, and a rate limit this file's posts stay within unless a test says. */
function strictApp(options: Parameters<typeof createTestApp>[0] = {}) {
  app = createTestApp({ minFillMs: 3000, formRateLimit: { limit: 1000, windowMs: 60_000 }, ...options });
  return app;
}

const forms = [
  { path: '/free-audit', table: 'audit_submissions', values: validAudit, thanked: THANK_YOU_WITH_CHECK },
  { path: '/contact', table: 'contact_messages', values: validContact, thanked: /^\/contact\?sent=1$/ },
] as const;

const cookieOf = (response: request.Response) =>
  ((response.headers['set-cookie'] as unknown as string[] | undefined) ?? []).map((header) => header.split(';')[0]).join('; ');

/** The tokens a refused plain post's page gives back, in its hidden fields. */
function hiddenTokens(html: string): FormTokens {
  const document = parse(html);
  const field = (name: string) => document.querySelector(`input[name="${name}"]`)?.getAttribute('value') ?? '';
  return { csrfToken: field('_csrf'), formStarted: field('_form_started') };
}

const held = () => app.db.prepare('SELECT reason FROM quarantine').all();

describe.each(forms)('$path after a refusal', (form) => {
  /** The form opened, filled for 10 s, then its session lost: the post carries the old tokens and no cookie. */
  async function postAfterSessionLapsed(json: boolean) {
    const { hidden } = await openForm(app.app, form.path);
    app.clock.advance(10_000);
    const post = request(app.app).post(form.path).type('form');
    if (json) post.set('Accept', 'application/json');
    return post.send({ ...form.values, ...hidden });
  }

  it('with JavaScript: the 403 for a lapsed session carries a new session and tokens; the retry at once is a lead', async () => {
    strictApp();
    const refused = await postAfterSessionLapsed(true);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('session expired');
    expect(refused.headers['cache-control']).toBe('private, no-store');
    const tokens = refused.body.tokens as FormTokens;

    const retry = await request(app.app)
      .post(form.path)
      .set('Cookie', cookieOf(refused))
      .set('Accept', 'application/json')
      .type('form')
      .send({ ...form.values, _csrf: tokens.csrfToken, _form_started: tokens.formStarted });
    expect(retry.status).toBe(200);
    expect(retry.body.ok).toBe(true);
    expect(countRows(app.db, form.table)).toBe(1);
    expect(countRows(app.db, 'mail_outbox')).toBe(1);
    expect(held()).toEqual([]);
  });

  it('without JavaScript: the refused page carries a new session and tokens; the retry at once is a lead', async () => {
    strictApp();
    const refused = await postAfterSessionLapsed(false);
    expect(refused.status).toBe(403);
    const tokens = hiddenTokens(refused.text);

    const retry = await request(app.app)
      .post(form.path)
      .set('Cookie', cookieOf(refused))
      .type('form')
      .send({ ...form.values, _csrf: tokens.csrfToken, _form_started: tokens.formStarted });
    expect(retry.status).toBe(303);
    expect(retry.headers.location).toMatch(form.thanked);
    expect(countRows(app.db, form.table)).toBe(1);
    expect(countRows(app.db, 'mail_outbox')).toBe(1);
    expect(held()).toEqual([]);
  });
});

describe('the tokens a refusal gives back', () => {
  it('after the rate limit, work once the visitor may post again', async () => {
    strictApp({ env: { TRUST_PROXY: '1' }, formRateLimit: { limit: 1, windowMs: 60_000 } });
    const { agent, hidden } = await openForm(app.app, '/free-audit');
    app.clock.advance(10_000);
    const post = (address: string, body: Record<string, string>) =>
      agent.post('/free-audit').set('Accept', 'application/json').set('X-Forwarded-For', address).type('form').send(body);
    expect((await post('192.0.2.10', { ...validAudit, ...hidden })).status).toBe(200);
    const limited = await post('192.0.2.10', { ...validAudit, email: 'second@example.co.uk', ...hidden });
    expect(limited.status).toBe(429);
    const tokens = limited.body.tokens as FormTokens;
    // The window passes (another address's allowance stands for the limiter's real-time one).
    app.clock.advance(60_000);
    const retry = await post('192.0.2.11', { ...validAudit, email: 'second@example.co.uk', _csrf: tokens.csrfToken, _form_started: tokens.formStarted });
    expect(retry.status).toBe(200);
    expect(countRows(app.db, 'audit_submissions')).toBe(2);
    expect(held()).toEqual([]);
  });

  it('after the database could not take the lead (503), work once it can', async () => {
    strictApp();
    const { agent, hidden } = await openForm(app.app, '/free-audit');
    app.clock.advance(10_000);
    // The app's own connection refuses the insert, as a full disk would, until the trigger goes.
    app.db.exec(`CREATE TEMP TRIGGER refuse_leads BEFORE INSERT ON audit_submissions BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    const post = (tokens: Record<string, string>) => agent.post('/free-audit').set('Accept', 'application/json').type('form').send({ ...validAudit, ...tokens });
    const refused = await post(hidden);
    expect(refused.status).toBe(503);
    app.db.exec('DROP TRIGGER refuse_leads');
    const tokens = refused.body.tokens as FormTokens;
    expect((await post({ _csrf: tokens.csrfToken, _form_started: tokens.formStarted })).status).toBe(200);
    expect(countRows(app.db, 'audit_submissions')).toBe(1);
    expect(held()).toEqual([]);
  });

  it('never backdate a note the server did not issue: a forged one gets a note from now', async () => {
    strictApp();
    const { hidden } = await openForm(app.app, '/free-audit');
    const backdated = `${app.clock().getTime() - 60_000}.forged-signature`;
    const refused = await request(app.app).post('/free-audit').set('Accept', 'application/json').type('form').send({ ...validAudit, ...hidden, _form_started: backdated });
    expect(refused.status).toBe(403);
    const tokens = refused.body.tokens as FormTokens;
    const retry = await request(app.app)
      .post('/free-audit')
      .set('Cookie', cookieOf(refused))
      .set('Accept', 'application/json')
      .type('form')
      .send({ ...validAudit, _csrf: tokens.csrfToken, _form_started: tokens.formStarted });
    expect(retry.status).toBe(200);
    expect(countRows(app.db, 'audit_submissions')).toBe(0);
    expect(held()).toEqual([{ reason: 'sent 0 ms after the form was shown' }]);
  });
});
