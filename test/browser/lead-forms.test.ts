import type { Browser, Page } from 'playwright-core';
import { validAudit, validContact } from '../helpers/forms';
import { waitForHydration, watchConsole } from '../helpers/browser';
import { waitFor } from '../helpers/process-forms';
import { sharedBrowser } from '../helpers/shared-site';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { decodeQuotedPrintable, startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import Database from 'better-sqlite3';
import path from 'node:path';

let server: ServerProcess;
let browser: Browser;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer('accept');
  [server, browser] = await Promise.all([startServerProcess({ SMTP_URL: smtp.url, TRUST_PROXY: '1' }), sharedBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

function readRows(table: string): Record<string, unknown>[] {
  const db = new Database(path.join(server.dir, 'site.db'), { readonly: true });
  try {
    return db.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

// A visitor with an address of their own (as the trusted proxy reports it), so that the posts of
// this file's other visitors do not count against their rate limit.
let visitors = 0;
const ownAddress = () => ({ extraHTTPHeaders: { 'X-Forwarded-For': `203.0.113.${(visitors += 1)}` } });


async function fillAudit(page: Page, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) await page.locator(`[name="${name}"]`).fill(value);
}

describe('the audit form with JavaScript', () => {
  it('shows Submitting... while sending, then navigates to /thank-you on the client and stores the lead', async () => {
    const page = await browser.newPage();
    const consoleRecords = watchConsole(page);
    await page.goto(`${server.url}/free-audit`);
    await waitForHydration(page);
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'no reload';
    });
    await fillAudit(page, validAudit);
    // Hold the request so that the submitting state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/free-audit', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await held;
      return route.continue();
    });
    const button = page.getByRole('button', { name: /Get My Free AI Audit|Submitting/ });
    await button.click();
    await page.getByRole('button', { name: 'Submitting...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Submitting...' }).isDisabled()).toBe(true);
    release();
    await page.waitForURL(/\/thank-you\?check=[\w-]{43}$/);
    await page.getByRole('heading', { level: 1, name: 'Thank You for Your Submission!' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no reload');
    const rows = readRows('audit_submissions');
    expect(rows.at(-1)).toMatchObject({ name: validAudit.name, email: validAudit.email, main_goal: validAudit.main_goal });
    expect(consoleRecords).toEqual([]);
    await page.close();
  });

  it('on a network failure shows the destructive toast, enables the button again and keeps every value', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/free-audit`);
    await waitForHydration(page);
    await fillAudit(page, validAudit);
    await page.route('**/free-audit', (route) => (route.request().method() === 'POST' ? route.abort('failed') : route.continue()));
    const before = readRows('audit_submissions').length;
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    const toast = page.locator('li[data-variant="destructive"]');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Error');
    expect(await toast.textContent()).toContain('There was an issue submitting your request. Please try again.');
    // The error is also in the page, not only in the toast.
    expect(await page.getByRole('alert').first().textContent()).toContain('could not reach our server');
    expect(await page.getByRole('button', { name: 'Get My Free AI Audit' }).isEnabled()).toBe(true);
    for (const [name, value] of Object.entries(validAudit)) expect(await page.locator(`[name="${name}"]`).inputValue()).toBe(value);
    expect(page.url()).toBe(`${server.url}/free-audit`);
    expect(readRows('audit_submissions')).toHaveLength(before);
    await page.close();
  });

  it('shows the server\'s field errors inline and in a toast, values kept (an address the browser accepts but we do not)', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/free-audit`);
    await waitForHydration(page);
    await fillAudit(page, { ...validAudit, email: 'priya@localhost' });
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    await page.locator('li[data-variant="destructive"]').waitFor();
    const email = page.locator('[name="email"]');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#audit-email-error').textContent()).toContain('valid e-mail address');
    expect(await email.inputValue()).toBe('priya@localhost');
    expect(await page.locator('[name="main_goal"]').inputValue()).toBe(validAudit.main_goal);
    await page.close();
  });

  it('after a client-side navigation to the form (no token in the first page) still submits', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    await page.locator('header').getByRole('link', { name: 'Book Free Audit' }).first().click();
    await page.waitForURL(`${server.url}/free-audit`);
    await page.locator('[name="name"]').waitFor();
    await fillAudit(page, { ...validAudit, email: 'navigated@example.co.uk' });
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    await page.waitForURL(/\/thank-you\?check=[\w-]{43}$/);
    expect(readRows('audit_submissions').some((row) => row.email === 'navigated@example.co.uk')).toBe(true);
    await page.close();
  });

  it('after a client-side navigation whose token request failed, still gets the lead through', async () => {
    const context = await browser.newContext(ownAddress());
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    // The request the form makes when it appears fails, as on a connection that dropped for a moment.
    await page.route('**/csrf-token', (route) => route.abort('failed'), { times: 1 });
    await page.locator('header').getByRole('link', { name: 'Book Free Audit' }).first().click();
    await page.waitForURL(`${server.url}/free-audit`);
    await fillAudit(page, { ...validAudit, email: 'token-retry@example.co.uk' });
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    await page.waitForURL(/\/thank-you\?check=[\w-]{43}$/);
    expect(readRows('audit_submissions').filter((row) => row.email === 'token-retry@example.co.uk')).toHaveLength(1);
    expect(readRows('quarantine').filter((row) => row.email === 'token-retry@example.co.uk')).toEqual([]);
    await context.close();
  });
});

describe('the forms without JavaScript', () => {
  it('post, redirect to /thank-you, and on an error give the form back with the values', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/free-audit`);
    await fillAudit(page, { ...validAudit, email: 'nojs@localhost' });
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').first().textContent()).toContain('Please check the highlighted fields');
    expect(await page.locator('[name="business_description"]').inputValue()).toBe(validAudit.business_description);
    await page.locator('[name="email"]').fill('nojs@example.co.uk');
    await page.getByRole('button', { name: 'Get My Free AI Audit' }).click();
    await page.waitForURL(/\/thank-you\?check=[\w-]{43}$/);
    expect(readRows('audit_submissions').some((row) => row.email === 'nojs@example.co.uk')).toBe(true);
    await context.close();
  });

  it('confirm a contact message on the page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/contact`);
    await page.locator('[name="email"]').fill(validContact.email);
    await page.locator('[name="message"]').fill(validContact.message);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.waitForURL(`${server.url}/contact?sent=1`);
    expect(await page.getByRole('status').first().textContent()).toMatch(/\S/);
    expect(readRows('contact_messages').some((row) => row.message === validContact.message)).toBe(true);
    await context.close();
  });
});

describe('the contact form with JavaScript', () => {
  it('confirms on the page and with a toast, and stores the message', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/contact`);
    await waitForHydration(page);
    await page.locator('[name="firstName"]').fill(validContact.firstName);
    await page.locator('[name="email"]').fill('js-contact@example.co.uk');
    await page.locator('[name="subject"]').selectOption('consultation');
    await page.locator('[name="message"]').fill('Sent with JavaScript');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message sent').first().waitFor();
    expect(page.url()).toBe(`${server.url}/contact`);
    expect(readRows('contact_messages').some((row) => row.email === 'js-contact@example.co.uk' && row.subject === 'consultation')).toBe(true);
    // The form is empty again for another message.
    expect(await page.locator('[name="message"]').inputValue()).toBe('');
    await page.close();
  });
});

/*
 * A visitor's session cookie can lapse while the form is open (the browser was restarted, or
 * cleared its cookies). The first press is refused with the answers kept; the next press must get
 * through as a lead, stored and mailed, not held in quarantine as if another visitor had sent it.
 */
describe('a visitor whose session lapsed while filling the form', () => {
  const forms = {
    audit: { path: '/free-audit', table: 'audit_submissions', values: validAudit, button: 'Get My Free AI Audit', longest: { column: 'business_description', typed: validAudit.business_description } },
    contact: { path: '/contact', table: 'contact_messages', values: validContact, button: 'Send Message', longest: { column: 'message', typed: validContact.message } },
  } as const;
  type FormKey = keyof typeof forms;

  async function fillForm(page: Page, values: Record<string, string>) {
    for (const [name, value] of Object.entries(values)) {
      const field = page.locator(`[name="${name}"]`);
      if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
      else await field.fill(value);
    }
  }

  /** Refused, with the message that says what to do and every answer still in its field. */
  async function expectRefusedWithAnswersKept(page: Page, values: Record<string, string>) {
    await page.getByRole('alert').filter({ hasText: 'session expired' }).waitFor();
    for (const [name, value] of Object.entries(values)) expect({ name, value: await page.locator(`[name="${name}"]`).inputValue() }).toEqual({ name, value });
  }

  /** What ops would find: the answers stored as typed, their mail delivered to the agency, nothing held. */
  async function expectStoredAndMailed(form: FormKey, email: string) {
    const { table, longest } = forms[form];
    expect(readRows(table).filter((row) => row.email === email).map((row) => row[longest.column])).toEqual([longest.typed]);
    await waitFor(`the mail about ${email}`, () => smtp.received.some((mail) => decodeQuotedPrintable(mail.raw).includes(email)), 20_000);
    expect(readRows('quarantine').filter((row) => row.email === email)).toEqual([]);
  }

  it.each([
    ['audit', 'opened directly'],
    ['audit', 'reached by client-side navigation'],
    ['contact', 'opened directly'],
    ['contact', 'reached by client-side navigation'],
  ] as const)('with JavaScript: the %s form (%s) is refused once, then the next press is thanked', async (form, arrival) => {
    const { path: formPath, button } = forms[form];
    const email = `lapsed-${form}-js-${arrival.split(' ')[0]}@example.co.uk`;
    const values = { ...forms[form].values, email };
    const context = await browser.newContext(ownAddress());
    const page = await context.newPage();
    if (arrival === 'opened directly') {
      await page.goto(`${server.url}${formPath}`);
      await waitForHydration(page);
    } else {
      await page.goto(`${server.url}/how-it-works`);
      await waitForHydration(page);
      await page.locator(`a[href="${formPath}"]`).first().click();
      await page.waitForURL(`${server.url}${formPath}`);
    }
    await fillForm(page, values);
    await context.clearCookies();

    await page.getByRole('button', { name: button }).click();
    await expectRefusedWithAnswersKept(page, values);
    expect(readRows(forms[form].table).filter((row) => row.email === email)).toEqual([]);

    // At once, as a person who has just read "please send the form again" would.
    await page.getByRole('button', { name: button }).click();
    if (form === 'audit') await page.getByRole('heading', { level: 1, name: 'Thank You for Your Submission!' }).waitFor();
    else await page.getByText('Message sent').first().waitFor();
    await expectStoredAndMailed(form, email);
    await context.close();
  });

  it.each(['audit', 'contact'] as const)('without JavaScript: the %s form is refused once, then the next press is thanked', async (form) => {
    const { path: formPath, button } = forms[form];
    const email = `lapsed-${form}-nojs@example.co.uk`;
    const values = { ...forms[form].values, email };
    const context = await browser.newContext({ ...ownAddress(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}${formPath}`);
    await fillForm(page, values);
    await context.clearCookies();

    await page.getByRole('button', { name: button }).click();
    await expectRefusedWithAnswersKept(page, values);

    await page.getByRole('button', { name: button }).click();
    await page.waitForURL(form === 'audit' ? /\/thank-you\?check=[\w-]{43}$/ : `${server.url}/contact?sent=1`);
    await expectStoredAndMailed(form, email);
    await context.close();
  });
});

/*
 * The server writes a form's state into the page once. A form shown again later in the same page
 * (client-side navigation) is a new showing: it fetches tokens of its own, so that its fill time
 * counts from then, and nothing of the earlier showing comes back.
 */
describe('a form shown again by client-side navigation', () => {
  const startedNote = (page: Page) => page.locator('input[name="_form_started"]').inputValue();

  /** To another page, and until the form is gone (the router keeps a page up while the next one loads). */
  async function leaveForm(page: Page) {
    await page.locator('header').getByRole('link', { name: 'How It Works' }).first().click();
    await page.locator('form').waitFor({ state: 'detached' });
  }

  it('gets a fill-time note of its own, not the one the page was loaded with', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/free-audit`);
    await waitForHydration(page);
    const loaded = await startedNote(page);
    expect(loaded).toMatch(/^\d+\.[\w-]+$/);
    await leaveForm(page);
    await page.locator('header').getByRole('link', { name: 'Book Free Audit' }).first().click();
    await page.waitForURL(`${server.url}/free-audit`);
    await page.waitForFunction((old) => {
      const note = document.querySelector<HTMLInputElement>('input[name="_form_started"]')?.value ?? '';
      return note !== '' && note !== old;
    }, loaded);
    await page.close();
  });

  it('does not say again that the message was sent', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/contact?sent=1`);
    await waitForHydration(page);
    const confirmation = page.locator('form [role="status"]');
    expect(await confirmation.textContent()).toMatch(/\S/);
    await leaveForm(page);
    await page.locator('footer a[href="/contact"]').first().click();
    await page.waitForURL(`${server.url}/contact`);
    await page.locator('[name="message"]').waitFor();
    expect(await confirmation.textContent()).toBe('');
    await page.close();
  });
});
