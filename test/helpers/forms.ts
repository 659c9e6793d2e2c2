import { parse } from 'node-html-parser';
import request from 'supertest';
import type { SiteApp } from '../../server/app';
import type { TestApp } from './test-app';

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

/** The form pages, each posting to its own path. */
export type FormPath = '/free-audit' | '/contact';

/** What a browser keeps from a form page: its cookie, and the hidden fields it posts back. */
export interface FormSession {
  cookie: string;
  token: string;
  started: string;
  /** The hidden fields a browser posts with the visible ones. */
  hidden: { _csrf: string; _form_started: string };
}

/**
 * Reads a form page as a browser does: the cookie it sets and the tokens in the hidden fields its
 * form sends. Only the form is parsed (what a submission sends is inside it), not the page's
 * hundred kilobytes of styles and text.
 */
export function formSession(html: string, setCookie: string[] | undefined): FormSession {
  const document = parse(html.slice(html.indexOf('<form'), html.lastIndexOf('</form>') + '</form>'.length));
  const field = (name: string) => document.querySelector(`input[name="${name}"]`)?.getAttribute('value') ?? '';
  const token = field('_csrf');
  const started = field('_form_started');
  const cookie = (setCookie ?? []).map((header) => header.split(';')[0]).join('; ');
  return { cookie, token, started, hidden: { _csrf: token, _form_started: started } };
}

/**
 * A visitor's session with the app: GET the form page and keep what a browser keeps. The test
 * site is https, so the cookie is Secure and a cookie jar would not send it back over supertest's
 * plain HTTP; `agent` sends it explicitly, as the browser does behind TLS.
 */
export async function openForm(app: SiteApp, path: string) {
  const page = await request(app).get(path);
  const session = formSession(page.text, page.headers['set-cookie'] as unknown as string[] | undefined);
  const agent = {
    post: (url: string) => request(app).post(url).set('Cookie', session.cookie),
    get: (url: string) => request(app).get(url).set('Cookie', session.cookie),
  };
  return { ...session, agent, page };
}

/**
 * A visitor's post of `values` on the form at `path`: the form opened, `fillMs` of the app's clock
 * spent filling it, then sent with its hidden fields, as a browser without JavaScript sends it
 * (with `json`, as the page's script does). `hidden` replaces hidden fields (a forged note, a
 * filled trap).
 */
export async function postForm(
  testApp: TestApp,
  path: FormPath,
  values: Record<string, string>,
  options: { json?: boolean; fillMs?: number; hidden?: Record<string, string> } = {},
) {
  const session = await openForm(testApp.app, path);
  if (options.fillMs) testApp.clock.advance(options.fillMs);
  const post = session.agent.post(path).type('form');
  if (options.json) post.set('Accept', 'application/json');
  const response = await post.send({ ...values, ...session.hidden, ...options.hidden });
  return { session, response };
}

/** A lead sent as a visitor without JavaScript sends it, and acknowledged (303). */
export async function submitLead(testApp: TestApp, path: FormPath, values: Record<string, string>): Promise<void> {
  const { response } = await postForm(testApp, path, values);
  expect(response.status).toBe(303);
}

export function countRows(db: { prepare: (sql: string) => { get: () => unknown } }, table: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}
