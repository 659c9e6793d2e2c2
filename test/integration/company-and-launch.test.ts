import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';
import request from 'supertest';
import { parseDocument } from 'yaml';
import { company, registeredOfficeLine } from '../../shared/company';
import { illustrativeLabel, illustrativeNotes } from '../../shared/illustrative';
import { site } from '../../shared/site';
import { startServerProcess } from '../helpers/server-process';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ROOT, TEST_SITE_URL } from '../helpers/locations';

/*
 * The company behind the site, as a visitor and the agency's solicitor see it: its registration on
 * the pages the law expects, invented examples labelled as such, and a launch check that keeps
 * placeholders off a public site.
 */

let app: TestApp;
beforeAll(() => {
  app = createTestApp();
});
afterAll(() => app.close());

const page = async (pagePath: string): Promise<HTMLElement> => {
  const response = await request(app.app).get(pagePath);
  expect([pagePath, response.status]).toEqual([pagePath, 200]);
  return parse(response.text);
};
const textOf = (element: HTMLElement | null | undefined) => (element?.textContent ?? '').replace(/\s+/g, ' ');
const twin = async (twinPath: string) => {
  const response = await request(app.app).get(twinPath);
  expect([twinPath, response.status]).toEqual([twinPath, 200]);
  return response.text.replace(/\s+/g, ' ');
};

/** The four facts UK law asks a company's website to show. */
const registration = [company.legalName, `registered in ${company.registeredIn}`, company.companyNumber, registeredOfficeLine(company.registeredOffice)];
const legalPaths = ['/privacy-policy', '/terms-conditions', '/refund-policy'];

describe("the company's registration", () => {
  it('is in the footer of every kind of page: name, place of registration, number and registered office', async () => {
    for (const pagePath of ['/', '/contact', '/blog', ...legalPaths]) {
      const footer = textOf((await page(pagePath)).querySelector('footer'));
      for (const fact of registration) expect([pagePath, footer]).toEqual([pagePath, expect.stringContaining(fact)]);
    }
  });

  it("is in the contact page's About block, and in its Markdown twin", async () => {
    const about = textOf((await page('/contact')).querySelector('#about-title')?.parentNode);
    for (const fact of registration) expect(about).toContain(fact);
    const markdown = await twin('/contact.md');
    for (const fact of registration) expect(markdown).toContain(fact);
  });

  it.each(legalPaths)('%s states it, with the phone, in its text and in its Markdown twin', async (pagePath) => {
    const text = textOf((await page(pagePath)).querySelector('main'));
    const markdown = await twin(`${pagePath}.md`);
    for (const fact of [...registration, site.phone]) {
      expect(text).toContain(fact);
      expect(markdown).toContain(fact);
    }
  });

  it('is in the Organization structured data: legal name, company number and registered office', async () => {
    const blocks = (await page('/')).querySelectorAll('script[type="application/ld+json"]').map((script) => JSON.parse(script.rawText) as { '@graph'?: Record<string, unknown>[] });
    const organization = blocks.flatMap((block) => block['@graph'] ?? []).find((node) => node['@type'] === 'Organization');
    expect(organization).toMatchObject({
      legalName: company.legalName,
      identifier: { '@type': 'PropertyValue', value: company.companyNumber },
      address: { '@type': 'PostalAddress', streetAddress: company.registeredOffice.streetAddress, postalCode: company.registeredOffice.postalCode, addressCountry: 'GB' },
    });
  });
});

describe('illustrative testimonials and case studies', () => {
  it("the home page's testimonial says it is an illustrative example, in the page and its twin", async () => {
    const section = textOf((await page('/')).querySelector('#testimonial-title')?.parentNode);
    expect(section).toContain(illustrativeLabel);
    expect(section).toContain(illustrativeNotes.testimonial);
    expect(await twin('/index.md')).toContain(`**${illustrativeLabel}.** ${illustrativeNotes.testimonial}`);
  });

  it('each case study and its quote say they are illustrative, in the page and its twin', async () => {
    const document = await page('/case-studies');
    const studies = document.querySelectorAll('main article');
    expect(studies).toHaveLength(2);
    for (const study of studies) {
      const header = textOf(study.querySelector('header'));
      expect(header).toContain(`${illustrativeLabel}${illustrativeNotes.caseStudy}`);
      expect(textOf(study.querySelector('figure'))).toContain(illustrativeLabel);
    }
    const markdown = await twin('/case-studies.md');
    expect(markdown.split(`**${illustrativeLabel}.** ${illustrativeNotes.caseStudy}`)).toHaveLength(3);
  });

  it("each illustrative case study's article says so under its title, in the page and its twin; other articles do not", async () => {
    const studied = ['/blog/claude-case-study', '/blog/surrey-electrical-safety-case-study'];
    for (const articlePath of [...studied, '/blog/perplexity-seo']) {
      const header = textOf((await page(articlePath)).querySelector('main header'));
      const markdown = await twin(`${articlePath}.md`);
      const labelled = studied.includes(articlePath);
      expect({ articlePath, page: header.includes(`${illustrativeLabel}${illustrativeNotes.caseStudy}`) }).toEqual({ articlePath, page: labelled });
      expect({ articlePath, twin: markdown.includes(`**${illustrativeLabel}.** ${illustrativeNotes.caseStudy}`) }).toEqual({ articlePath, twin: labelled });
    }
  });
});

/** `npm run launch-check` as ops run it, on the repository's content or another folder. */
function launchCheck(contentDir?: string) {
  const result = spawnSync('npm', ['run', '--silent', 'launch-check', ...(contentDir ? ['--', '--content', contentDir] : [])], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  return { status: result.status, lines: result.stdout.trim().split('\n') };
}

/** A copy of content/ with every placeholder and illustrative item replaced, as the agency would. */
function cleanContentCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'citewise-content-'));
  cpSync(path.join(ROOT, 'content'), dir, { recursive: true });
  const edit = (name: string, change: (doc: ReturnType<typeof parseDocument>) => void) => {
    const doc = parseDocument(readFileSync(path.join(dir, name), 'utf8'));
    change(doc);
    writeFileSync(path.join(dir, name), doc.toString());
  };
  edit('site.yaml', (doc) => {
    doc.set('email', 'hello@citewise.co.uk');
    doc.set('phone', '020 3870 1234');
    doc.set('phoneE164', '+442038701234');
    doc.set('bookingUrl', 'https://cal.citewise.co.uk/free-audit');
    doc.set('websiteUrl', 'https://www.citewise.co.uk');
    doc.set('mailFrom', 'noreply@citewise.co.uk');
    doc.set('mailTo', 'leads@citewise.co.uk');
    doc.set('companyNumber', '12345678');
    doc.setIn(['registeredOffice', 'streetAddress'], '12 Clerkenwell Road');
  });
  const source = { publisher: 'Office for National Statistics', title: 'Internet users, UK', date: '2025-04', url: 'https://www.ons.gov.uk/releases/internet-users' };
  edit('home.yaml', (doc) => {
    doc.setIn(['testimonial', 'kind'], 'real');
    for (let index = 0; index < 4; index += 1) doc.setIn(['hero', 'stats', index, 'source'], source);
    for (let index = 0; index < 3; index += 1) doc.setIn(['aiShift', 'stats', index, 'source'], source);
  });
  edit('case-studies.yaml', (doc) => {
    for (const index of [0, 1]) {
      doc.setIn(['studies', index, 'kind'], 'real');
      doc.setIn(['studies', index, 'testimonial', 'kind'], 'real');
    }
  });
  return dir;
}

describe('npm run launch-check', () => {
  it('lists, as file and field, everything in the shipped content still a placeholder or illustrative, and exits 1', () => {
    const { status, lines } = launchCheck();
    expect(status).toBe(1);
    expect(lines).toEqual(
      expect.arrayContaining([
        'content/site.yaml  email  hello@example.com (example.com is reserved for documentation)',
        'content/site.yaml  bookingUrl  https://booking.example.com/citewise/free-audit (example.com is reserved for documentation)',
        'content/site.yaml  websiteUrl  https://www.example.com (example.com is reserved for documentation)',
        "content/site.yaml  phone  020 7946 0321 (Ofcom's range 020 7946 0xxx is reserved for TV and radio drama)",
        'content/site.yaml  companyNumber  00000000 (a placeholder: no company has this number)',
        'content/site.yaml  registeredOffice.streetAddress  1 Example Street (a placeholder address)',
        'content/home.yaml  hero.stats[1].source  missing for "70% of Gen Z use AI first"',
        'content/home.yaml  testimonial.kind  illustrative: an invented quote from "Hannah, A home care provider, Reading"',
        expect.stringMatching(/^content\/case-studies\.yaml {2}studies\[0\]\.kind {2}illustrative: /),
        expect.stringMatching(/^content\/case-studies\.yaml {2}studies\[1\]\.testimonial\.kind {2}illustrative: /),
      ]),
    );
  });

  it('exits 0 on content with nothing left to replace, and 1 with the one line of a single placeholder', () => {
    const dir = cleanContentCopy();
    try {
      expect(launchCheck(dir)).toEqual({ status: 0, lines: ['Nothing left to replace: no placeholder or illustrative content.'] });
      const sitePath = path.join(dir, 'site.yaml');
      const siteYaml = parseDocument(readFileSync(sitePath, 'utf8'));
      siteYaml.set('phone', '07700 900123');
      writeFileSync(sitePath, siteYaml.toString());
      const { status, lines } = launchCheck(dir);
      expect(status).toBe(1);
      expect(lines[0]).toBe("content/site.yaml  phone  07700 900123 (Ofcom's range 07700 900xxx is reserved for TV and radio drama)");
      expect(lines.filter((line) => line.startsWith('content/'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the server with placeholder content', () => {
  const serverEntry = path.join(ROOT, 'dist', 'server', 'index.js');

  it('refuses to start on an https SITE_URL: exit 1, an error line listing each item and saying how to override', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'citewise-launch-'));
    try {
      const result = spawnSync(process.execPath, [serverEntry], {
        env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: path.join(dir, 'site.db'), NODE_ENV: 'production', SITE_URL: TEST_SITE_URL },
        encoding: 'utf8',
        // A server that starts instead of refusing would hold this call: killed, it fails the test.
        timeout: 20_000,
        killSignal: 'SIGKILL',
      });
      expect(result.status).toBe(1);
      const logs = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { level: number; msg: string; findings?: string[] });
      expect(logs.map((log) => log.msg)).not.toContain('Listening');
      const refusal = logs.find((log) => log.level === 50);
      expect(refusal?.msg).toMatch(/^Refusing to start on https:\/\/www\.citewise\.example: \d+ placeholder or illustrative content items remain/);
      expect(refusal?.msg).toContain('ALLOW_PLACEHOLDER_CONTENT=1');
      expect(refusal?.findings).toEqual(expect.arrayContaining(['content/site.yaml  email  hello@example.com (example.com is reserved for documentation)']));
      expect(refusal?.findings).toEqual(launchCheck().lines.filter((line) => line.startsWith('content/')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('starts on an https SITE_URL with ALLOW_PLACEHOLDER_CONTENT=1, warning with the list', async () => {
    const server = await startServerProcess({ SITE_URL: TEST_SITE_URL, ALLOW_PLACEHOLDER_CONTENT: '1', AI_LEDGER: 'off' });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const warning = server.logs.find((log) => log.level === 40 && String(log.msg).includes('ALLOW_PLACEHOLDER_CONTENT=1'));
      expect(warning?.findings).toEqual(expect.arrayContaining(['content/site.yaml  companyNumber  00000000 (a placeholder: no company has this number)']));
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('starts on an http SITE_URL (local, tests) as before, without the override', async () => {
    const server = await startServerProcess({ SITE_URL: 'http://localhost:3000', ALLOW_PLACEHOLDER_CONTENT: '0', AI_LEDGER: 'off' });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
