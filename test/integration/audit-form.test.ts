import { parse } from 'node-html-parser';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { MAX_QUEUED_CHECKS, newCheckToken, SiteCheckStore } from '../../server/site-check/check-store';
import { auditFields } from '../../shared/forms/audit-form';
import { countRows, openForm, postForm, submitLead, THANK_YOU_WITH_CHECK, validAudit, validContact as validContactMessage } from '../helpers/forms';
import { createTestApp, type TestApp } from '../helpers/test-app';

let testApp: TestApp;
/** What a test opened beyond the app (a listening server), closed even when the test fails. */
let afterTest: (() => void)[] = [];
beforeEach(() => {
  testApp = createTestApp();
});
afterEach(() => {
  for (const close of afterTest) close();
  afterTest = [];
  testApp.close();
});

describe('GET /free-audit', () => {
  it('shows the audit form with the ten fields, visible labels and browser validation', async () => {
    const { page, token } = await openForm(testApp.app, '/free-audit');
    expect(page.status).toBe(200);
    const document = parse(page.text);
    expect(document.querySelector('h1')?.text).toBe('Free AI Visibility Audit');
    expect(document.querySelector('h2#audit-form-title')?.text).toBe('Tell us about your business');
    const form = document.querySelector('form[action="/free-audit"]');
    expect(form?.getAttribute('method')).toBe('post');
    const names = form?.querySelectorAll('input:not([type="hidden"]):not([tabindex="-1"]), textarea').map((element) => element.getAttribute('name'));
    expect(names).toEqual([
      'name', 'email', 'website_url', 'business_description', 'ideal_customer', 'target_keywords',
      'current_products', 'lead_sources', 'seo_experience', 'main_goal',
    ]);
    for (const field of auditFields) {
      const control = form?.querySelector(`[name="${field.name}"]`);
      const label = form?.querySelector(`label[for="${control?.getAttribute('id')}"]`);
      expect(label?.text).toContain(field.label);
      expect(control?.hasAttribute('required')).toBe(field.name !== 'website_url');
    }
    expect(form?.querySelector('[name="email"]')?.getAttribute('type')).toBe('email');
    expect(form?.querySelector('[name="website_url"]')?.getAttribute('type')).toBe('url');
    expect(form?.querySelector('button[type="submit"]')?.text).toBe('Get My Free AI Audit');
    expect(form?.text).toContain('privacy policy');
    expect(token).toMatch(/^[\w-]{20,}$/);
  });

  it('sets the CSRF secret in a signed, HttpOnly, SameSite=Strict, __Host- Secure cookie on https', async () => {
    const { page } = await openForm(testApp.app, '/free-audit');
    const cookie = page.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/^__Host-csrf=s%3A/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(page.headers['cache-control']).toBe('private, no-store');
  });

  it('sends the same page in gzip, brotli or plain, as the browser accepts, each with its own token in form and state', async () => {
    // node:http, not supertest, which would decode the body before the test sees it.
    const server = testApp.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const raw = (acceptEncoding: string) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/free-audit', headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    afterTest.push(() => {
      server.closeAllConnections();
      server.close();
    });
    const withoutToken = (html: string) => html.replace(/(value="|"formStarted":")\d+\.[\w-]+/g, '$1STARTED').replace(/(name="_csrf" value="|"csrfToken":")[\w-]+/g, '$1TOKEN');
    const pages = [];
    for (const [accept, encoding, decode] of [
      ['gzip, deflate', 'gzip', gunzipSync],
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['identity', undefined, (body: Buffer) => body],
    ] as const) {
      const response = await raw(accept);
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      // Accept too: a client that asks for text/markdown gets the page's Markdown twin.
      expect(response.headers.vary).toBe('Accept, Accept-Encoding, Cookie');
      const html = decode(response.body).toString('utf8');
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      const token = parse(html).querySelector('input[name="_csrf"]')?.getAttribute('value') ?? '';
      expect(token).toMatch(/^[\w-]{20,}$/);
      expect(html).toContain(`"csrfToken":"${token}"`);
      pages.push({ token, html: withoutToken(html) });
    }
    expect(new Set(pages.map((page) => page.token)).size).toBe(3);
    expect(pages[1]?.html).toBe(pages[0]?.html);
    expect(pages[2]?.html).toBe(pages[0]?.html);
  });

  it('gives each visitor a different token', async () => {
    const first = await openForm(testApp.app, '/free-audit');
    const second = await openForm(testApp.app, '/free-audit');
    expect(first.token).not.toBe(second.token);
  });
});

describe('POST /free-audit without JavaScript', () => {
  it('stores the ten fields as typed, writes one outbox mail, queues the website\'s check, and answers 303 to /thank-you with its token', async () => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    const response = await agent.post('/free-audit').type('form').send({ ...validAudit, ...hidden });
    expect(response.status).toBe(303);
    expect(response.headers.location).toMatch(THANK_YOU_WITH_CHECK);
    const rows = testApp.db.prepare('SELECT * FROM audit_submissions').all() as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(validAudit);
    expect(rows[0]?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const mail = testApp.db.prepare('SELECT * FROM mail_outbox').all() as Record<string, unknown>[];
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: 'audit', source_id: rows[0]?.id, sent_at: null, attempts: 0 });
    expect(testApp.db.prepare('SELECT audit_id, url, host, status FROM site_checks').all()).toEqual([{ audit_id: rows[0]?.id, url: validAudit.website_url, host: 'www.shahpayroll.example', status: 'queued' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(testApp.mailKicks()).toBe(1);
    expect(testApp.checkKicks()).toBe(1);
  });

  it('queues no check and answers the plain /thank-you when no website is given', async () => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    const response = await agent.post('/free-audit').type('form').send({ ...validAudit, website_url: '', ...hidden });
    expect(response.headers.location).toBe('/thank-you');
    expect(countRows(testApp.db, 'site_checks')).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(testApp.checkKicks()).toBe(0);
  });

  it('trims values and keeps markup verbatim (it is escaped where shown)', async () => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    await agent.post('/free-audit').type('form').send({ ...validAudit, name: '  <b>Priya</b>  ', ...hidden }).expect(303);
    expect(testApp.db.prepare('SELECT name FROM audit_submissions').get()).toEqual({ name: '<b>Priya</b>' });
  });

  it('gives the form back with each error beside its field and every typed value kept', async () => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    const response = await agent
      .post('/free-audit')
      .type('form')
      .send({ ...validAudit, email: 'not-an-email', website_url: 'javascript:alert(1)', main_goal: '', ...hidden });
    expect(response.status).toBe(400);
    const document = parse(response.text);
    expect(document.querySelector('[role="alert"]')?.text).toContain('Please check the highlighted fields');
    const email = document.querySelector('#audit-email');
    expect(email?.getAttribute('value')).toBe('not-an-email');
    expect(email?.getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelector(`#${email?.getAttribute('aria-describedby')}`)?.text).toContain('valid e-mail address');
    expect(document.querySelector('#audit-website_url-error')?.text).toContain('https://');
    expect(document.querySelector('#audit-main_goal-error')?.text).toContain('Please enter');
    expect(document.querySelector('#audit-business_description')?.text).toBe(validAudit.business_description);
    expect(document.querySelector('input[name="_csrf"]')?.getAttribute('value')).toMatch(/^[\w-]{20,}$/);
    expect(countRows(testApp.db, 'audit_submissions')).toBe(0);
    expect(countRows(testApp.db, 'mail_outbox')).toBe(0);
  });

  it('refuses a post without a valid CSRF token (403), stores nothing, and keeps the values', async () => {
    const { agent } = await openForm(testApp.app, '/free-audit');
    const response = await agent.post('/free-audit').type('form').send({ ...validAudit, _csrf: 'forged-token' });
    expect(response.status).toBe(403);
    const document = parse(response.text);
    expect(document.querySelector('[role="alert"]')?.text).toContain('session expired');
    expect(document.querySelector('#audit-name')?.getAttribute('value')).toBe(validAudit.name);
    expect(countRows(testApp.db, 'audit_submissions')).toBe(0);
    // Without the cookie at all, the same.
    const stranger = await request(testApp.app).post('/free-audit').type('form').send({ ...validAudit, _csrf: 'x' });
    expect(stranger.status).toBe(403);
    expect(countRows(testApp.db, 'audit_submissions')).toBe(0);
  });

  it('does not take the token from the query string, where logs and histories would keep it', async () => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    const response = await agent.post(`/free-audit?_csrf=${encodeURIComponent(hidden._csrf)}`).type('form').send({ ...validAudit, _form_started: hidden._form_started });
    expect(response.status).toBe(403);
    expect(countRows(testApp.db, 'audit_submissions')).toBe(0);
  });

  it.each([
    ['Origin from another site', { Origin: 'https://evil.example' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a cross-site post (%s) with 403 even with a valid token', async (_name, headers) => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    const response = await agent.post('/free-audit').set(headers).type('form').send({ ...validAudit, ...hidden });
    expect(response.status).toBe(403);
    expect(parse(response.text).querySelector('[role="alert"]')?.text).toContain('only be sent from our own website');
    expect(countRows(testApp.db, 'audit_submissions')).toBe(0);
  });

  it('accepts a same-origin post that names SITE_URL as its Origin', async () => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    await agent
      .post('/free-audit')
      .set({ Origin: 'https://www.citewise.example', 'Sec-Fetch-Site': 'same-origin' })
      .type('form')
      .send({ ...validAudit, ...hidden })
      .expect(303);
  });

  it('answers 413 to a body over the limit', async () => {
    const { agent, hidden } = await openForm(testApp.app, '/free-audit');
    const response = await agent.post('/free-audit').type('form').send({ ...validAudit, main_goal: 'x'.repeat(1024 * 1024), ...hidden });
    expect(response.status).toBe(413);
    expect(parse(response.text).querySelector('[role="alert"]')?.text).toContain('more text than the form can take');
    expect(countRows(testApp.db, 'audit_submissions')).toBe(0);
  });
});

describe('GET /contact?sent=1', () => {
  it('says the message was sent, the same page for every visitor but for their own token', async () => {
    const first = await openForm(testApp.app, '/contact?sent=1');
    const second = await openForm(testApp.app, '/contact?sent=1');
    for (const { page } of [first, second]) {
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect(parse(page.text).querySelector('[role="status"]')?.text).toContain('your message has been sent');
    }
    expect(first.token).not.toBe(second.token);
    const withoutTokens = (html: string, tokens: { token: string; started: string }) => html.replaceAll(tokens.token, 'TOKEN').replaceAll(tokens.started, 'STARTED');
    expect(withoutTokens(first.page.text, first)).toBe(withoutTokens(second.page.text, second));
    // The token on it works like the form page's.
    testApp.clock.advance(5000);
    await first.agent.post('/contact').type('form').send({ ...validContactMessage, ...first.hidden }).expect(303);
    expect(countRows(testApp.db, 'contact_messages')).toBe(1);
  });

});

describe('POST /free-audit from JavaScript (fetch)', () => {
  const postJson = async (body: Record<string, string>, hidden: Record<string, string> = {}) => (await postForm(testApp, '/free-audit', body, { json: true, hidden })).response;

  it('answers 200 JSON with the next page', async () => {
    const response = await postJson(validAudit);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, redirect: expect.stringMatching(THANK_YOU_WITH_CHECK) });
    expect(countRows(testApp.db, 'audit_submissions')).toBe(1);
  });

  it('answers 400 with an error per field', async () => {
    const response = await postJson({ ...validAudit, name: 'Line one\nline two', email: 'a@b', seo_experience: 'y'.repeat(5001) });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.errors).sort()).toEqual(['email', 'name', 'seo_experience']);
    expect(response.body.errors.name).toContain('one line');
    expect(response.body.errors.seo_experience).toContain('5000');
  });

  it('answers 403 JSON to a bad token', async () => {
    const response = await postJson(validAudit, { _csrf: 'nope' });
    expect(response.status).toBe(403);
    expect(response.body.ok).toBe(false);
    expect(response.body.message).toContain('session expired');
  });

  it('hands a client-side navigation a token, and the token works', async () => {
    const tokenResponse = await request(testApp.app).get('/csrf-token').expect(200);
    expect(tokenResponse.headers['cache-control']).toBe('private, no-store');
    const cookie = (tokenResponse.headers['set-cookie'] as unknown as string[])[0]?.split(';')[0] ?? '';
    await request(testApp.app)
      .post('/free-audit')
      .set('Cookie', cookie)
      .set('Accept', 'application/json')
      .type('form')
      .send({ ...validAudit, _csrf: tokenResponse.body.csrfToken, _form_started: tokenResponse.body.formStarted })
      .expect(200);
    expect(countRows(testApp.db, 'audit_submissions')).toBe(1);
  });

  it('answers 503 and leaves nothing half-written when the database refuses the write', async () => {
    // The lead's insert succeeds and its mail's insert fails: the transaction must undo both.
    testApp.db.exec('DROP TABLE mail_outbox');
    const response = await postJson(validAudit);
    expect(response.status).toBe(503);
    expect(response.body.message).toContain('could not save your request');
    expect(countRows(testApp.db, 'audit_submissions')).toBe(0);
  });

  it('refuses wrong content types with 415', async () => {
    const { agent, token } = await openForm(testApp.app, '/free-audit');
    const response = await agent.post('/free-audit').set('Accept', 'application/json').set('X-CSRF-Token', token).set('Content-Type', 'text/plain').send('name=x');
    expect(response.status).toBe(415);
  });
});

describe('rate limit', () => {
  it('answers 429 with RateLimit headers after the limit, and a forged X-Forwarded-For does not reset it', async () => {
    const limited = createTestApp({ formRateLimit: { limit: 2, windowMs: 60_000 } });
    try {
      const { agent, token, started } = await openForm(limited.app, '/free-audit');
      const post = (forwardedFor: string) =>
        agent.post('/free-audit').set('Accept', 'application/json').set('X-CSRF-Token', token).set('X-Forwarded-For', forwardedFor).type('form').send({ ...validAudit, _form_started: started });
      expect((await post('203.0.113.1')).status).toBe(200);
      const second = await post('203.0.113.2');
      expect(second.status).toBe(200);
      expect(second.headers.ratelimit).toMatch(/r=0/);
      expect(second.headers['ratelimit-policy']).toBeDefined();
      const third = await post('203.0.113.3');
      expect(third.status).toBe(429);
      expect(third.body.message).toContain('wait a few minutes');
      expect(third.headers['retry-after']).toBeDefined();
      expect(countRows(limited.db, 'audit_submissions')).toBe(2);
    } finally {
      limited.close();
    }
  });

  it('behind a trusted proxy, limits by the address the proxy saw, not by what the client wrote', async () => {
    const proxied = createTestApp({ env: { TRUST_PROXY: '1' }, formRateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      const { agent, token, started } = await openForm(proxied.app, '/free-audit');
      const post = (forwardedFor: string) =>
        agent.post('/free-audit').set('Accept', 'application/json').set('X-CSRF-Token', token).set('X-Forwarded-For', forwardedFor).type('form').send({ ...validAudit, _form_started: started });
      // The client puts a fake address first; the proxy appends the real one last.
      expect((await post('198.51.100.7, 192.0.2.10')).status).toBe(200);
      expect((await post('198.51.100.8, 192.0.2.10')).status).toBe(429);
      // A different real client address has its own allowance.
      expect((await post('198.51.100.7, 192.0.2.11')).status).toBe(200);
    } finally {
      proxied.close();
    }
  });
});

describe('requests for what is made for one visitor, from one address', () => {
  it('past the bound wait their turn, and are refused once they have waited too long, while other addresses and shared pages go on', async () => {
    // For this test: one request at once, then none for a long while; a request waits 1 ms at most.
    const bounded = createTestApp({ env: { TRUST_PROXY: '1' }, formRequestsPerAddress: { burst: 1, perSecond: 0.001, maxWaitMs: 1, maxWaiting: 100 } });
    try {
      const from = (address: string) => (path: string) => request(bounded.app).get(path).set('X-Forwarded-For', address);
      const flooder = from('203.0.113.5');
      expect((await flooder('/free-audit')).status).toBe(200);
      for (const path of ['/contact', '/csrf-token']) {
        const refused = await flooder(path);
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        expect(refused.text).toContain('Please wait a minute');
      }
      const post = await request(bounded.app).post('/free-audit').set('X-Forwarded-For', '203.0.113.5').type('form').send(validAudit);
      expect(post.status).toBe(429);
      expect(countRows(bounded.db, 'audit_submissions')).toBe(0);
      // Another address's form page, and a page that is the same for everyone, are not held back.
      const visitor = await from('203.0.113.6')('/free-audit');
      expect(visitor.status).toBe(200);
      expect(parse(visitor.text).querySelector('input[name="_csrf"]')?.getAttribute('value')).toMatch(/\S/);
      expect((await flooder('/')).status).toBe(200);
    } finally {
      bounded.close();
    }
  });
});

describe("an audit request's site check", () => {
  it("skipped because the queue is full costs the address none of its hour's budget", async () => {
    const limited = createTestApp({ checksPerAddressPerHour: 1 });
    afterTest.push(() => limited.close());
    const store = new SiteCheckStore(limited.db);
    for (let index = 0; index < MAX_QUEUED_CHECKS; index += 1) store.enqueue(null, `https://queued-${index}.example/`, newCheckToken(), limited.clock());
    const checkOf = (email: string) =>
      limited.db.prepare('SELECT site_checks.status, site_checks.reason FROM site_checks JOIN audit_submissions ON audit_submissions.id = site_checks.audit_id WHERE email = ?').get(email);
    await submitLead(limited, '/free-audit', validAudit);
    expect(checkOf(validAudit.email)).toEqual({ status: 'skipped', reason: 'too many site checks are waiting to run just now' });
    // The worker works through the queue; the same visitor asks again.
    limited.db.prepare(`UPDATE site_checks SET status = 'failed', finished_at = ? WHERE audit_id IS NULL`).run(limited.clock().toISOString());
    await submitLead(limited, '/free-audit', { ...validAudit, email: 'again@shahpayroll.co.uk' });
    expect(checkOf('again@shahpayroll.co.uk')).toEqual({ status: 'queued', reason: null });
  });
});

describe('a form given back after a refusal before the CSRF check', () => {
  it('carries a working token, so that the corrected form goes through', async () => {
    const { agent, hidden, cookie } = await openForm(testApp.app, '/free-audit');
    const refused = await agent.post('/free-audit').type('form').send({ ...validAudit, main_goal: 'x'.repeat(200_000), ...hidden });
    expect(refused.status).toBe(413);
    const document = parse(refused.text);
    const token = document.querySelector('input[name="_csrf"]')?.getAttribute('value') ?? '';
    const started = document.querySelector('input[name="_form_started"]')?.getAttribute('value') ?? '';
    expect(token).toMatch(/^[\w-]{20,}$/);
    await request(testApp.app).post('/free-audit').set('Cookie', cookie).type('form').send({ ...validAudit, _csrf: token, _form_started: started }).expect(303);
    expect(countRows(testApp.db, 'audit_submissions')).toBe(1);
  });
});

describe('methods no route answers', () => {
  it('get 405 with Allow on a page and 404 elsewhere, with the full CSP', async () => {
    const onPage = await request(testApp.app).put('/free-audit');
    expect(onPage.status).toBe(405);
    expect(onPage.headers.allow).toBe('GET, HEAD, POST');
    expect((await request(testApp.app).post('/blog')).headers.allow).toBe('GET, HEAD');
    const unknown = await request(testApp.app).post('/nowhere');
    expect(unknown.status).toBe(404);
    for (const response of [onPage, unknown]) expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('the AI visibility probe\'s note above the button', () => {
  const TWO_KEYS = { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1' };
  const NOTE_START = 'To see whether they recommend you';

  /** The audit form as a visitor sees it: the sentence just above its button, and the state the page's script reads. */
  function formOf(html: string) {
    const document = parse(html);
    const button = document.querySelector('form[action="/free-audit"] button[type="submit"]');
    const state = JSON.parse(document.querySelector('#form-state')?.text ?? '{}') as { probeAssistants?: string[] };
    return { aboveButton: button?.previousElementSibling?.text ?? '', state, text: document.querySelector('main')?.text ?? '' };
  }

  it('is absent while no assistant\'s key is set: on the page, the page given back, and with a client-side navigation\'s token', async () => {
    const { page, agent, hidden } = await openForm(testApp.app, '/free-audit');
    expect(formOf(page.text).text).not.toContain(NOTE_START);
    expect(formOf(page.text).state.probeAssistants).toBeUndefined();
    const refused = await agent.post('/free-audit').type('form').send({ ...validAudit, email: 'nope', ...hidden }).expect(400);
    expect(formOf(refused.text).text).not.toContain(NOTE_START);
    expect((await request(testApp.app).get('/csrf-token').expect(200)).body.probeAssistants).toBeUndefined();
  });

  it('names the assistants whose keys are set and what is sent, never the person\'s details: on the page, the page given back, and with the token', async () => {
    const probing = createTestApp({ env: TWO_KEYS });
    afterTest.push(() => probing.close());
    const sentence =
      'To see whether they recommend you, we\'ll ask ChatGPT and Claude questions made from your keywords, ideal customer, products and description; we never send them your name, e-mail address, phone number or website.';
    const { page, agent, hidden } = await openForm(probing.app, '/free-audit');
    expect(formOf(page.text).aboveButton).toBe(sentence);
    expect(formOf(page.text).state.probeAssistants).toEqual(['ChatGPT', 'Claude']);
    const refused = await agent.post('/free-audit').type('form').send({ ...validAudit, email: 'nope', ...hidden }).expect(400);
    expect(formOf(refused.text).aboveButton).toBe(sentence);
    expect((await request(probing.app).get('/csrf-token').expect(200)).body.probeAssistants).toEqual(['ChatGPT', 'Claude']);
    // The other forms say nothing of it.
    expect((await request(probing.app).get('/contact').expect(200)).text).not.toContain(NOTE_START);

    const one = createTestApp({ env: { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });
    afterTest.push(() => one.close());
    expect(formOf((await request(one.app).get('/free-audit').expect(200)).text).aboveButton).toMatch(/^To see whether they recommend you, we'll ask ChatGPT questions made from/);
  });
});
