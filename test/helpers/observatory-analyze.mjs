// Runs the MDN HTTP Observatory's own header tests over responses our server gave, and prints
// each test's result and score modifier as JSON. Plain Node (the package is ES modules only);
// security-headers.test.ts starts it with the responses on stdin.
//
// The Observatory's scanner fetches a hostname itself (http:// and https:// on their default
// ports); our site's TLS is a reverse proxy in front of the process, so instead this builds the
// `Requests` object its scanner would build (src/retriever/retriever.js) from the real responses,
// as seen at the public https origin (SITE_URL), and calls every test in src/constants.js's
// ALL_TESTS except redirection, which judges the proxy's plain-http listener, not our responses.
import fs from 'node:fs';

// The package's install script downloads Chromium's HSTS preload list into conf/; it stays off
// (false in package.json's allowScripts), so the file is absent. Our host is not on that list, so
// an empty list gives the answer the real one would. A list that exists is read as usual.
const readFileSync = fs.readFileSync;
fs.readFileSync = function patchedReadFileSync(file, ...rest) {
  if (typeof file === 'string' && /[\\/]conf[\\/]hsts-preload\.json$/.test(file) && !fs.existsSync(file)) return '{}';
  return readFileSync.call(this, file, ...rest);
};

const { AxiosHeaders } = await import('axios');
const pkg = '@mdn/mdn-http-observatory/src';
const { Requests } = await import(`${pkg}/types.js`);
const { ALL_TESTS } = await import(`${pkg}/constants.js`);
const { getScoreModifier, getScoreDescription } = await import(`${pkg}/grader/grader.js`);
const { Session } = await import(`${pkg}/retriever/session.js`);
const { parseHttpEquivHeaders } = await import(`${pkg}/retriever/utils.js`);
const { redirectionTest } = await import(`${pkg}/analyzer/tests/redirection.js`);
const { CONFIG } = await import(`${pkg}/config.js`);

/**
 * @typedef {{ status: number, headers: Record<string, string | string[]>, body: string }} Captured
 * @type {{ siteUrl: string, pages: { path: string, page: Captured, robots: Captured, cors: Captured }[] }}
 */
const input = JSON.parse(fs.readFileSync(0, 'utf8'));

const output = input.pages.map(({ path, page, robots, cors }) => {
  const url = new URL(path, input.siteUrl);
  const requests = new Requests(url.hostname);
  // The scanner's session: its cookie jar holds what the page and robots.txt set.
  const session = new Session(url);
  for (const captured of [page, robots]) {
    const cookies = captured.headers['set-cookie'] ?? [];
    for (const cookie of Array.isArray(cookies) ? cookies : [cookies]) session.jar.setCookieSync(cookie, url.href);
  }
  // Headers as axios (the retriever's client) hands them to the tests: node's parsed headers in
  // an AxiosHeaders. `verified`: the certificate chain is valid; that is the proxy's, assumed here.
  const response = { status: page.status, headers: new AxiosHeaders(page.headers), data: page.body, verified: true };
  session.response = response;
  requests.session = session;
  requests.responses.auto = { ...response, httpEquiv: parseHttpEquivHeaders(page.body, url.href) };
  requests.responses.https = response;
  requests.responses.httpsRedirects = [{ url, status: page.status }];
  requests.resources.path = page.body;
  requests.responses.cors = {
    status: cors.status,
    headers: new AxiosHeaders(cors.headers),
    data: cors.body,
    verified: true,
    request: { headers: new AxiosHeaders({ origin: CONFIG.retriever.corsOrigin }) },
  };

  const tests = ALL_TESTS.filter((test) => test !== redirectionTest).map((test) => {
    const result = test(requests);
    return {
      test: result.constructor.name,
      result: result.result,
      pass: result.pass,
      scoreModifier: getScoreModifier(result.result),
      description: getScoreDescription(result.result).replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim(),
      data: result.data ?? null,
    };
  });
  return { path, tests };
});

process.stdout.write(JSON.stringify({ corsOrigin: CONFIG.retriever.corsOrigin, skipped: ['redirection'], results: output }));
