import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'node-html-parser';
import pino from 'pino';
import type { Response } from 'supertest';
import { smtpTransport } from '../../server/mail/mail-transport';
import { auditFields } from '../../shared/forms/audit-form';
import { contactFields } from '../../shared/forms/contact-form';
import { parseCsv } from '../helpers/csv';
import { countRows, openForm, submitLead, validAudit, validContact } from '../helpers/forms';
import { decodeQuotedPrintable, startSmtpServer } from '../helpers/smtp';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT } from '../helpers/locations';

jest.setTimeout(30_000);

/**
 * Whatever a script throws at the two form endpoints, the answer is a 4xx with a
 * message a person can act on, nothing reaches the database, and the server never answers 5xx.
 * Every case runs on both forms, as a plain form post (the form page comes back with the alert)
 * and as the fetch from our own script (JSON with `message`), always with a valid session.
 */

interface FormUnderTest {
  path: '/free-audit' | '/contact';
  idPrefix: 'audit' | 'contact';
  valid: Record<string, string>;
  table: 'audit_submissions' | 'contact_messages';
  required: string[];
  singleLine: { name: string; max: number };
  email: string;
  url: string;
  textarea: string;
}

const formsUnderTest: FormUnderTest[] = [
  {
    path: '/free-audit',
    idPrefix: 'audit',
    valid: validAudit,
    table: 'audit_submissions',
    required: auditFields.filter((field) => field.required).map((field) => field.name),
    singleLine: { name: 'name', max: 200 },
    email: 'email',
    url: 'website_url',
    textarea: 'main_goal',
  },
  {
    path: '/contact',
    idPrefix: 'contact',
    valid: validContact,
    table: 'contact_messages',
    required: contactFields.filter((field) => field.required).map((field) => field.name),
    singleLine: { name: 'firstName', max: 100 },
    email: 'email',
    url: 'website',
    textarea: 'message',
  },
];

const message = {
  invalid: 'Please check the highlighted fields and try again.',
  tooLarge: 'That was more text than the form can take.',
  unreadable: 'We could not read the form. Please reload the page and try again.',
};

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** A hostile request: its body (raw, exactly as sent), its Content-Type, and what must come back. */
interface HostileCase {
  name: string;
  /** `hidden` are the fields a browser adds (the fill-time token, and _csrf in a plain post). */
  build: (form: FormUnderTest, hidden: Record<string, string>) => { type: string | null; body: string | Buffer | null; headers?: Record<string, string> };
  status: number;
  message: string;
  /** Fields the answer must name as invalid (400 only). */
  fieldErrors?: (form: FormUnderTest) => string[];
}

const urlencoded = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();
const entries = (values: Record<string, string>) => Object.entries(values);
const without = (values: Record<string, string>, ...names: string[]) => Object.fromEntries(Object.entries(values).filter(([name]) => !names.includes(name)));

/** The valid submission with one field replaced, as a form body. */
const withField = (name: string, value: string): HostileCase['build'] => (form, hidden) => ({
  type: FORM,
  body: urlencoded(entries({ ...form.valid, [name]: value, ...hidden })),
});

const hostileCases: HostileCase[] = [
  {
    name: 'no fields at all (only the hidden ones)',
    build: (_form, hidden) => ({ type: FORM, body: urlencoded(entries(hidden)) }),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => form.required,
  },
  {
    name: 'a single-line field one character over its bound',
    build: (form, hidden) => withField(form.singleLine.name, 'x'.repeat(form.singleLine.max + 1))(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.singleLine.name],
  },
  {
    name: 'an e-mail address over 254 characters',
    build: (form, hidden) => withField(form.email, `${'a'.repeat(247)}@b.co.uk`)(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.email],
  },
  {
    name: 'a web address over 2048 characters',
    build: (form, hidden) => withField(form.url, `https://example.co.uk/${'a'.repeat(2048)}`)(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.url],
  },
  {
    name: 'a long text over 5000 characters',
    build: (form, hidden) => withField(form.textarea, 'y'.repeat(5001))(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.textarea],
  },
  {
    name: 'a 1 MB field',
    build: (form, hidden) => withField(form.textarea, 'z'.repeat(1024 * 1024))(form, hidden),
    status: 413,
    message: message.tooLarge,
  },
  {
    name: 'a repeated field (name=a&name=b)',
    build: (form, hidden) => ({
      type: FORM,
      body: urlencoded([...entries(without(form.valid, form.singleLine.name)), [form.singleLine.name, 'a'], [form.singleLine.name, 'b'], ...entries(hidden)]),
    }),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.singleLine.name],
  },
  {
    name: 'the e-mail given only through prototype-pollution keys (__proto__[...], constructor[prototype][...])',
    build: (form, hidden) => ({
      type: FORM,
      body: urlencoded([
        ...entries(without(form.valid, form.email)),
        ['__proto__[x]', '1'],
        ['__proto__[polluted]', '1'],
        [`__proto__[${form.email}]`, 'mallory@example.co.uk'],
        ['constructor[prototype][x]', '1'],
        [`constructor[prototype][${form.email}]`, 'mallory@example.co.uk'],
        ...entries(hidden),
      ]),
    }),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.email],
  },
  {
    name: 'JSON whose fields sit under "__proto__"',
    // Written by hand: an object literal with __proto__ would set the prototype, not send the key.
    build: (form, hidden) => ({
      type: JSON_TYPE,
      body: `{"__proto__":{"polluted":1,${JSON.stringify(form.valid).slice(1, -1)}},"constructor":{"prototype":{"polluted":1}},${JSON.stringify(hidden).slice(1, -1)}}`,
    }),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => form.required,
  },
  {
    name: 'JSON values that are not strings (array, object, number, boolean, null)',
    build: (form, hidden) => ({
      type: JSON_TYPE,
      body: JSON.stringify({
        ...form.valid,
        [form.singleLine.name]: ['a', 'b'],
        [form.email]: { $ne: '' },
        [form.textarea]: 42,
        [form.url]: true,
        ...hidden,
      }),
    }),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.singleLine.name, form.email, form.textarea, form.url],
  },
  {
    name: 'a NUL character',
    build: (form, hidden) => withField(form.singleLine.name, 'Pri\u0000ya')(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.singleLine.name],
  },
  // One-line fields reach the agency's mail headers (the Subject names the person): nothing there
  // may move text about, hide it, or be decoded by a mail client into something else.
  ...[
    ['a tab', 'Priya\tShah'],
    ['a C1 control (NEL, U+0085)', 'Priya\u0085Shah'],
    ['a C1 control (U+0080)', 'Priya\u0080Shah'],
    ['a bidirectional override (U+202E)', 'Priya \u202Eahs'],
    ['a bidirectional isolate (U+2066)', 'Priya \u2066Shah'],
    ['a MIME encoded word', '=?utf-8?q?Priya=0D=0ABcc:_x@evil.example?='],
  ].map(
    ([what, value]): HostileCase => ({
      name: `${what} in a one-line field`,
      build: (form, hidden) => withField(form.singleLine.name, value!)(form, hidden),
      status: 400,
      message: message.invalid,
      fieldErrors: (form) => [form.singleLine.name],
    }),
  ),
  {
    name: 'other control characters (BEL, ESC, VT, DEL) in a long text',
    build: (form, hidden) => withField(form.textarea, 'Ring\u0007 the \u001B[31mbell\u000B now\u007F')(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.textarea],
  },
  {
    name: 'CR/LF in the e-mail (a Bcc header injection attempt)',
    build: (form, hidden) => withField(form.email, 'a@b.co\r\nBcc: x@evil.example')(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.email],
  },
  {
    name: 'a line break in a single-line field',
    build: (form, hidden) => withField(form.singleLine.name, 'Line one\r\nX-Injected: yes')(form, hidden),
    status: 400,
    message: message.invalid,
    fieldErrors: (form) => [form.singleLine.name],
  },
  ...['javascript:alert(1)', 'JaVaScRiPt://example.co.uk/%0Aalert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd'].map(
    (url): HostileCase => ({
      name: `the URL ${url}`,
      build: (form, hidden) => withField(form.url, url)(form, hidden),
      status: 400,
      message: message.invalid,
      fieldErrors: (form) => [form.url],
    }),
  ),
  {
    name: 'malformed JSON',
    build: (_form, hidden) => ({ type: JSON_TYPE, body: `{"name": "Priya", "_form_started": "${hidden._form_started}",` }),
    status: 400,
    message: message.unreadable,
  },
  {
    name: 'a JSON string instead of an object',
    build: () => ({ type: JSON_TYPE, body: '"name=Priya"' }),
    status: 400,
    message: message.unreadable,
  },
  {
    name: 'Content-Type text/plain',
    build: (form, hidden) => ({ type: 'text/plain', body: urlencoded(entries({ ...form.valid, ...hidden })) }),
    status: 415,
    message: message.unreadable,
  },
  {
    name: 'Content-Type multipart/form-data',
    build: (form, hidden) => {
      const boundary = '----hostile7c1d';
      const parts = entries({ ...form.valid, ...hidden }).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
      return { type: `multipart/form-data; boundary=${boundary}`, body: `${parts.join('')}--${boundary}--\r\n` };
    },
    status: 415,
    message: message.unreadable,
  },
  {
    name: 'no Content-Type',
    build: (form, hidden) => ({ type: null, body: urlencoded(entries({ ...form.valid, ...hidden })) }),
    status: 415,
    message: message.unreadable,
  },
  {
    name: 'a form body in a charset the server does not read (UTF-7)',
    build: (form, hidden) => ({ type: `${FORM}; charset=utf-7`, body: urlencoded(entries({ ...form.valid, ...hidden })) }),
    status: 415,
    message: message.unreadable,
  },
  {
    name: 'a body claiming gzip that is not gzip',
    build: (form, hidden) => ({ type: FORM, body: urlencoded(entries({ ...form.valid, ...hidden })), headers: { 'Content-Encoding': 'gzip' } }),
    status: 400,
    message: message.unreadable,
  },
  {
    name: 'a body in an unknown content encoding',
    build: (form, hidden) => ({ type: FORM, body: urlencoded(entries({ ...form.valid, ...hidden })), headers: { 'Content-Encoding': 'x-hostile' } }),
    status: 415,
    message: message.unreadable,
  },
  {
    name: 'a thousand parameters',
    build: (form, hidden) => ({
      type: FORM,
      body: urlencoded([...entries({ ...form.valid, ...hidden }), ...Array.from({ length: 1000 }, (_, index): [string, string] => [`p${index}`, '1'])]),
    }),
    status: 413,
    message: message.tooLarge,
  },
];

/**
 * The body exactly as given. superagent sends a string as it is once a Content-Type is set, but
 * would serialise a Buffer by that type; without a type, a Buffer is sent raw and no type added.
 */
function asSent(type: string | null, body: string | Buffer | null): string | Buffer | undefined {
  if (body === null) return undefined;
  if (type === null) return Buffer.from(body);
  return body.toString();
}

type Mode = 'plain form post' | 'fetch (JSON)';
const modes: Mode[] = ['plain form post', 'fetch (JSON)'];

const matrix = formsUnderTest.flatMap((form) => modes.flatMap((mode) => hostileCases.map((hostile) => [form.path, mode, hostile.name, form, hostile] as const)));

function expectNothingStored(db: TestApp['db']) {
  expect({
    audit_submissions: countRows(db, 'audit_submissions'),
    contact_messages: countRows(db, 'contact_messages'),
    mail_outbox: countRows(db, 'mail_outbox'),
  }).toEqual({ audit_submissions: 0, contact_messages: 0, mail_outbox: 0 });
}

function expectPrototypeClean() {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).x).toBeUndefined();
  expect(({} as Record<string, unknown>).email).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toEqual(expect.arrayContaining(['polluted']));
}

describe('hostile input on the form endpoints', () => {
  let testApp: TestApp;
  beforeAll(() => {
    // The rate limit has its own tests; here it must not cut the matrix short.
    testApp = createTestApp({ formRateLimit: { limit: 10_000, windowMs: 60_000 } });
  });
  afterAll(() => testApp.close());

  it.each(matrix)('%s, %s: %s', async (_path, mode, _name, form, hostile) => {
    const session = await openForm(testApp.app, form.path);
    const json = mode === 'fetch (JSON)';
    // A browser's plain post carries the token in the body; our script sends it in a header.
    const hidden = json ? { _form_started: session.started } : session.hidden;
    const { type, body, headers = {} } = hostile.build(form, hidden);
    let request = session.agent.post(form.path).set('Accept', json ? 'application/json' : 'text/html,application/xhtml+xml');
    if (json) request = request.set('X-CSRF-Token', session.token);
    if (type !== null) request = request.set('Content-Type', type);
    request = request.set(headers);
    const response: Response = await request.send(asSent(type, body));

    expect(response.status).toBe(hostile.status);
    if (json) {
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body.ok).toBe(false);
      expect(response.body.message).toContain(hostile.message);
      if (hostile.fieldErrors) expect(Object.keys(response.body.errors).sort()).toEqual([...hostile.fieldErrors(form)].sort());
    } else {
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      const document = parse(response.text);
      expect(document.querySelector('[role="alert"]')?.text).toContain(hostile.message);
      // The form is back, so the visitor can correct it and send it again.
      expect(document.querySelector(`form[action="${form.path}"]`)).not.toBeNull();
      if (hostile.fieldErrors) expect(document.querySelector(`form[action="${form.path}"] input[name="_csrf"]`)?.getAttribute('value')).toMatch(/^[\w-]{20,}$/);
      for (const field of hostile.fieldErrors?.(form) ?? []) {
        expect(document.querySelector(`#${form.idPrefix}-${field}`)?.getAttribute('aria-invalid')).toBe('true');
        expect(document.querySelector(`#${form.idPrefix}-${field}-error`)?.text.length).toBeGreaterThan(5);
      }
    }
    expectNothingStored(testApp.db);
    expectPrototypeClean();
  });

  it.each(formsUnderTest)('$path: an empty body is refused (plain post: the token is missing, 403) or dropped as a bot (fetch: no fill-time token)', async (form) => {
    const plain = await openForm(testApp.app, form.path);
    const refused = await plain.agent.post(form.path).set('Accept', 'text/html').set('Content-Type', FORM).send('');
    expect(refused.status).toBe(403);
    expect(parse(refused.text).querySelector('[role="alert"]')?.text).toContain('Your session expired before the form was sent');

    // With the token in the header the request is a valid session, but it has no fill-time token:
    // the server treats that as a bot, answered as if it succeeded so that it learns nothing.
    const scripted = await openForm(testApp.app, form.path);
    const dropped = await scripted.agent.post(form.path).set('Accept', 'application/json').set('X-CSRF-Token', scripted.token).set('Content-Type', JSON_TYPE).send('');
    expect(dropped.status).toBe(200);
    expectNothingStored(testApp.db);
  });

  it.each(formsUnderTest)('$path: prototype-pollution keys beside a valid submission are ignored; only the form\'s own fields are stored', async (form) => {
    const pollutedApp = createTestApp();
    try {
      const session = await openForm(pollutedApp.app, form.path);
      const body = urlencoded([...entries(form.valid), ['__proto__[polluted]', '1'], ['constructor[prototype][polluted]', '1'], ['__proto__', 'x'], ...entries(session.hidden)]);
      await session.agent.post(form.path).set('Content-Type', FORM).send(body).expect(303);
      expect(countRows(pollutedApp.db, form.table)).toBe(1);
      expect(countRows(pollutedApp.db, 'mail_outbox')).toBe(1);
      expectPrototypeClean();
    } finally {
      pollutedApp.close();
    }
  });
});

describe('markup typed into a field', () => {
  const script = '<script>alert(1)</script>';
  const attribute = '"><img src=x onerror=alert(1)>';
  const markedUp: Record<FormUnderTest['path'], Record<string, string>> = {
    '/free-audit': { ...validAudit, name: attribute, business_description: `${script}\n${attribute}`, main_goal: `</textarea>${script}` },
    '/contact': { ...validContact, firstName: attribute, company: `<b>Acme</b> ${script}`, message: `</textarea>${script}\n${attribute}` },
  };
  const columns: Record<FormUnderTest['path'], Record<string, string>> = {
    '/free-audit': { name: 'name', business_description: 'business_description', main_goal: 'main_goal' },
    '/contact': { firstName: 'first_name', company: 'company', message: 'message' },
  };

  let testApp: TestApp;
  beforeEach(() => {
    testApp = createTestApp({ env: { MAIL_TO: 'leads@citewise.example', MAIL_FROM: 'web@citewise.example' } });
  });
  afterEach(() => testApp.close());


  it.each(formsUnderTest)('$path: is stored verbatim', async (form) => {
    await submitLead(testApp, form.path, markedUp[form.path]);
    const row = testApp.db.prepare(`SELECT * FROM ${form.table}`).get() as Record<string, string>;
    for (const [field, column] of Object.entries(columns[form.path])) expect(row[column]).toBe(markedUp[form.path][field]);
  });

  it.each(formsUnderTest)('$path: is escaped in the form page sent back without JavaScript', async (form) => {
    const session = await openForm(testApp.app, form.path);
    // An invalid e-mail (itself markup) makes the server send the form back with every value kept.
    const email = `x${attribute}${script}`;
    const response = await session.agent.post(form.path).type('form').send({ ...markedUp[form.path], email, ...session.hidden });
    expect(response.status).toBe(400);
    // Not one tag of what was typed made it into the markup as a tag.
    expect(response.text).not.toContain(script);
    expect(response.text).not.toContain('<img src=x');
    expect(response.text).not.toContain('</textarea><script>');
    const document = parse(response.text);
    expect(document.querySelectorAll('img[onerror]')).toHaveLength(0);
    // The hydration data repeats the values inside a JSON script, with `<` escaped, so it
    // cannot close its script element.
    expect(document.querySelectorAll('script').map((element) => element.rawText).filter((code) => /<\/?(script|img|textarea)/i.test(code))).toEqual([]);
    // ...and every value is shown back exactly as typed, as text.
    expect(document.querySelector(`#${form.idPrefix}-email`)?.getAttribute('value')).toBe(email);
    for (const field of Object.keys(columns[form.path])) {
      const control = document.querySelector(`#${form.idPrefix}-${field}`);
      const shown = control?.tagName === 'TEXTAREA' ? control.text : control?.getAttribute('value');
      expect(shown).toBe(markedUp[form.path][field]);
    }
    expectNothingStored(testApp.db);
  });

  it.each(formsUnderTest)('$path: is plain text in the notification mail and escaped in its HTML body', async (form) => {
    await submitLead(testApp, form.path, markedUp[form.path]);
    const stored = JSON.parse((testApp.db.prepare('SELECT message FROM mail_outbox').get() as { message: string }).message) as { text: string; html: string };
    // The text body shows what was typed (multi-line values indented line by line).
    for (const field of Object.keys(columns[form.path])) {
      for (const line of markedUp[form.path][field]!.split('\n')) expect(stored.text).toContain(line);
    }
    // The HTML body has no element of what was typed, and each cell decodes back to it.
    const html = parse(stored.html);
    expect(html.querySelectorAll('script')).toHaveLength(0);
    expect(html.querySelectorAll('img')).toHaveLength(0);
    expect(html.querySelectorAll('b')).toHaveLength(0);
    const cells = html.querySelectorAll('td').map((cell) => cell.innerHTML.replace(/<br>/g, '\n'));
    const decoded = cells.map((cell) => parse(`<p>${cell}</p>`).text);
    for (const field of Object.keys(columns[form.path])) expect(decoded).toContain(markedUp[form.path][field]);

    // And as delivered over SMTP: the HTML part carries the escaped text, never the tags.
    const smtp = await startSmtpServer('accept');
    const logger = pino({ level: 'silent' }, new Writable({ write: (_chunk, _encoding, callback) => callback() }));
    const worker = testApp.outboxWorker(smtpTransport(smtp.url), { logger });
    try {
      worker.kick();
      await worker.idle();
      expect(smtp.received).toHaveLength(1);
      const raw = decodeQuotedPrintable(smtp.received[0]!.raw);
      const htmlPart = raw.slice(raw.indexOf('Content-Type: text/html'));
      expect(htmlPart.length).toBeGreaterThan(100);
      expect(htmlPart).not.toContain(script);
      expect(htmlPart).not.toContain('<img src=x');
      expect(htmlPart).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
      expect(htmlPart).toContain('&#34;&#62;&#60;img src=x onerror=alert(1)&#62;');
      // No header was added by anything typed (the Reply-To name is encoded, not injected).
      const headers = raw.slice(0, raw.indexOf('\r\n\r\n'));
      expect(headers).not.toMatch(/^(Bcc|X-Injected):/im);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it.each(formsUnderTest)('$path: is quoted text in the CSV export', async (form) => {
    await submitLead(testApp, form.path, markedUp[form.path]);
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'dist', 'scripts', 'export-csv.js'), '--table', form.path === '/free-audit' ? 'audit' : 'contact', '--no-bom'],
      { env: { PATH: process.env.PATH ?? '', DATABASE_PATH: testApp.config.databasePath }, encoding: 'utf8' },
    );
    expect(result.status).toBe(0);
    // RFC 4180: a cell with a quote, comma or line break is quoted and its quotes doubled, so
    // the markup stays inside its cell as text.
    for (const field of Object.keys(columns[form.path])) {
      const value = markedUp[form.path][field]!;
      if (/[",\r\n]/.test(value)) expect(result.stdout).toContain(`"${value.replace(/"/g, '""')}"`);
    }
    const [header, row] = parseCsv(result.stdout);
    for (const [field, column] of Object.entries(columns[form.path])) expect(row?.[header!.indexOf(column)]).toBe(markedUp[form.path][field]);
  });
});
