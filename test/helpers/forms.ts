import { parse } from 'node-html-parser';
import request from 'supertest';
import type { SiteApp } from '../../server/app';

/**
 * Where a stored (or held) audit request that names a website is sent: the thank-you page with
 * its site check's token.
 */
export const THANK_YOU_WITH_CHECK = /^\/thank-you\?check=[\w-]{43}$/;

/**
 * A complete, valid audit request, as a person would type it. Its website is at a name reserved
 * for documentation (RFC 2606), which resolves nowhere: a server under test that checks it never
 * reaches a real site.
 */
export const validAudit = {
  name: 'Priya Shah',
  email: 'priya@shahpayroll.co.uk',
  website_url: 'https://www.shahpayroll.example',
  business_description: 'Payroll bureau for small firms in Bristol.\nFourteen staff.',
  ideal_customer: 'Owners of firms with 5-50 employees',
  target_keywords: 'payroll bureau Bristol, outsourced payroll for small business',
  current_products: 'Payroll, auto-enrolment pensions, CIS returns',
  lead_sources: 'Referrals from accountants, Google Ads',
  seo_experience: 'A local SEO agency for a year; page one for two terms',
  main_goal: 'Be the payroll bureau ChatGPT names for Bristol',
};

export const validContact = {
  firstName: 'Dan',
  lastName: 'Okafor',
  email: 'dan@example.co.uk',
  company: 'Okafor Electrical',
  website: 'https://okafor.example.co.uk',
  industry: 'other',
  subject: 'consultation',
  message: 'Could we talk about the Authority package?',
};

/**
 * A visitor's session: GET the form page, keep its cookie and the token from the hidden field.
 * The test site is https, so the cookie is Secure and a cookie jar would not send it back over
 * supertest's plain HTTP; `agent` sends it explicitly, as the browser does behind TLS.
 */
export async function openForm(app: SiteApp, path: string) {
  const page = await request(app).get(path);
  const document = parse(page.text);
  const token = document.querySelector('input[name="_csrf"]')?.getAttribute('value') ?? '';
  const started = document.querySelector('input[name="_form_started"]')?.getAttribute('value') ?? '';
  const cookie = (page.headers['set-cookie'] as unknown as string[] | undefined)?.map((header) => header.split(';')[0]).join('; ') ?? '';
  const agent = {
    post: (url: string) => request(app).post(url).set('Cookie', cookie),
    get: (url: string) => request(app).get(url).set('Cookie', cookie),
  };
  /** The hidden fields a browser posts with the visible ones. */
  const hidden = { _csrf: token, _form_started: started };
  return { agent, page, token, started, hidden, cookie };
}

export function countRows(db: { prepare: (sql: string) => { get: () => unknown } }, table: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}
