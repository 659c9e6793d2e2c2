import type { Browser, Page } from 'playwright-core';
import { validAudit, validContact } from '../helpers/forms';
import { launchBrowser, waitForHydration, watchConsole } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import Database from 'better-sqlite3';
import path from 'node:path';

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServerProcess(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function readRows(table: string): Record<string, unknown>[] {
  const db = new Database(path.join(server.dir, 'site.db'), { readonly: true });
  try {
    return db.prepare(`SELECT * FROM ${table} ORDER BY id`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** The server drops a post sent sooner than a person could fill the form (MIN_FILL_MS, 3 s). */
const PERSON_PAUSE_MS = 3200;

async function fillAudit(page: Page, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) await page.locator(`[name="${name}"]`).fill(value);
  await page.waitForTimeout(PERSON_PAUSE_MS);
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
    await page.waitForTimeout(PERSON_PAUSE_MS);
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
    await page.waitForTimeout(PERSON_PAUSE_MS);
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
    await page.waitForTimeout(PERSON_PAUSE_MS);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message sent').first().waitFor();
    expect(page.url()).toBe(`${server.url}/contact`);
    expect(readRows('contact_messages').some((row) => row.email === 'js-contact@example.co.uk' && row.subject === 'consultation')).toBe(true);
    // The form is empty again for another message.
    expect(await page.locator('[name="message"]').inputValue()).toBe('');
    await page.close();
  });
});
