import { parse, type HTMLElement } from 'node-html-parser';
import request from 'supertest';
import { appRoutes, NOT_FOUND_PATH } from '../../client/routes';
import { createTestApp, type TestApp } from '../helpers/test-app';

// The first request to each page renders it; a run over every page takes seconds on a busy machine.
jest.setTimeout(60_000);

let testApp: TestApp;
beforeAll(() => {
  testApp = createTestApp();
});
afterAll(() => testApp.close());

const NOT_FOUND_EXAMPLE = '/no-such-page';
const pagePaths = appRoutes.filter((route) => route.path !== NOT_FOUND_PATH).map((route) => route.path);

interface Fetched {
  status: number;
  location?: string;
  /** Parsed when the answer is HTML. */
  document?: HTMLElement;
}

const fetched = new Map<string, Promise<Fetched>>();

/** Each URL is fetched once however many pages link to it. */
function fetchOnce(url: string): Promise<Fetched> {
  let result = fetched.get(url);
  if (!result) {
    result = request(testApp.app)
      .get(url)
      .then((response) => ({
        status: response.status,
        location: response.headers.location,
        document: /^text\/html/.test(response.headers['content-type'] ?? '') ? parse(response.text) : undefined,
      }));
    fetched.set(url, result);
  }
  return result;
}

/** Every same-site link on a page: hrefs that start with one "/" (not "//", another host) or "#". */
function localHrefs(document: HTMLElement): string[] {
  const hrefs = document.querySelectorAll('[href]').map((element) => element.getAttribute('href') ?? '');
  return [...new Set(hrefs.filter((href) => (href.startsWith('/') && !href.startsWith('//')) || href.startsWith('#')))];
}

const hasId = (document: HTMLElement | undefined, id: string) =>
  document?.querySelectorAll('[id]').some((element) => element.getAttribute('id') === id) ?? false;

/** Why a link on a page (its parsed `document`) is broken, or undefined when it resolves. */
async function brokenReason(document: HTMLElement, href: string): Promise<string | undefined> {
  const hashAt = href.indexOf('#');
  const fragment = hashAt === -1 ? '' : decodeURIComponent(href.slice(hashAt + 1));
  // "#id" stays on the page that holds it (the 404 page's skip link too, whatever its status).
  if (hashAt === 0) return hasId(document, fragment) ? undefined : `no element with id "${fragment}" on the page`;
  let target = hashAt === -1 ? href : href.slice(0, hashAt);

  let answer = await fetchOnce(target);
  if (answer.status === 301) {
    const location = answer.location ?? '';
    if (!location.startsWith('/') || location.startsWith('//')) return `301 to "${location}", off-site`;
    target = location;
    answer = await fetchOnce(location);
    if (answer.status !== 200) return `301 to ${location}, which answers ${answer.status}`;
  } else if (answer.status !== 200) {
    return `answers ${answer.status}`;
  }
  if (fragment && !hasId(answer.document, fragment)) return `no element with id "${fragment}" on ${target}`;
  return undefined;
}

describe('internal links', () => {
  it('every page of the route table (and the 404 page) answers, and every link on it resolves', async () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of [...pagePaths, NOT_FOUND_EXAMPLE]) {
      const answer = await fetchOnce(page);
      expect([page, answer.status]).toEqual([page, page === NOT_FOUND_EXAMPLE ? 404 : 200]);
      const document = answer.document ?? parse('');
      const hrefs = localHrefs(document);
      expect([page, hrefs.length > 10]).toEqual([page, true]);
      for (const href of hrefs) {
        checked += 1;
        const reason = await brokenReason(document, href);
        if (reason) broken.push(`${page} links to ${href}: ${reason}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(pagePaths.length * 10);
  });

  it('include the home page anchors #faq and #pricing, which exist there', async () => {
    const allHrefs = new Set<string>();
    for (const page of pagePaths) localHrefs((await fetchOnce(page)).document ?? parse('')).forEach((href) => allHrefs.add(href));
    expect([...allHrefs]).toEqual(expect.arrayContaining(['/#faq', '/#pricing']));
    const home = (await fetchOnce('/')).document;
    expect(hasId(home, 'faq')).toBe(true);
    expect(hasId(home, 'pricing')).toBe(true);
  });

  it.each([
    ['/blog/ai-vs-google', '/blog/ai-vs-google-search-revolution'],
    ['/blog/reddit-quora-medium', '/blog/reddit-quora-medium-ai-training'],
    ['/blog/prompt-engineering', '/blog/prompt-engineering-for-business'],
  ])('the legacy short slug %s answers 301 to %s', async (legacy, full) => {
    const response = await request(testApp.app).get(legacy);
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe(full);
    expect((await request(testApp.app).get(full)).status).toBe(200);
  });
});
