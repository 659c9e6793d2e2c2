import { gzipSync } from 'node:zlib';
import { addressRefusal, parseAddressList } from '../../server/site-check/address-policy';
import { decodeBody, type FetchedText } from '../../server/site-check/analysers/fetched-text';
import { analyseHomePage, declaresOrganization, PAGE_TEXT_LIMITS, type HomePageAnalysis } from '../../server/site-check/analysers/home-page';
import { analyseLlmsTxt } from '../../server/site-check/analysers/llms-txt';
import { analyseRobots } from '../../server/site-check/analysers/robots';
import { analyseSitemap, sitemapText } from '../../server/site-check/analysers/sitemap';
import { SCORE_WEIGHTS, scoreFindings } from '../../server/site-check/scoring';
import { EMPTY_SHELL, sitemapOf, WELL_MADE_LLMS_TXT, wellMadePage } from '../helpers/fixture-sites';
import { hostileSites } from '../helpers/hostile-sites';

const ORIGIN = 'https://www.okafor.example';
const AGENTS = ['GPTBot', 'OAI-SearchBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'CCBot'];
const CHECKER = 'CitewiseSiteCheck';

const fetched = (text: string, overrides: Partial<FetchedText> = {}): FetchedText => ({ url: `${ORIGIN}/robots.txt`, status: 200, contentType: 'text/plain', text, truncated: false, ...overrides });
/** robots.txt as the fetcher gives it: the final URL, the status and the body's bytes. */
const robotsFile = (body: string | Uint8Array, overrides: Partial<{ url: string; status: number; truncated: boolean }> = {}) => ({ url: `${ORIGIN}/robots.txt`, status: 200, body: typeof body === 'string' ? Buffer.from(body) : body, truncated: false, ...overrides });
/** What the score reads, around one page's analysis: the rest as a well-made site has it. */
const scoredFacts = (page: HomePageAnalysis) => ({
  robots: analyseRobots(robotsFile('User-agent: *\nAllow: /\n'), `${ORIGIN}/`, AGENTS, CHECKER),
  page,
  redirects: [],
  llmsTxt: analyseLlmsTxt(fetched(WELL_MADE_LLMS_TXT)),
  sitemap: { url: `${ORIGIN}/sitemap.xml`, fromRobots: false, urls: 3, parses: true, detail: 'lists 3 URLs' },
  markdown: { via: 'link' as const, url: `${ORIGIN}/index.md` },
});
const verdicts = (text: string, page = `${ORIGIN}/`) => Object.fromEntries(analyseRobots(robotsFile(text), page, AGENTS, CHECKER).agents.map((agent) => [agent.agent, agent.allowed]));

describe('robots.txt, as RFC 9309 reads it', () => {
  it('judges each AI agent by the group that names it, else by *', () => {
    expect(verdicts('User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n')).toEqual({
      GPTBot: false, 'OAI-SearchBot': true, ClaudeBot: true, PerplexityBot: true, 'Google-Extended': true, CCBot: false,
    });
  });

  it('reads the bytes a server sends: a byte-order mark and CRLF line ends', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('User-agent: ClaudeBot\r\nDisallow: /\r\n\r\nUser-agent: *\r\nAllow: /\r\n')]);
    const { agents } = analyseRobots(robotsFile(bytes), `${ORIGIN}/`, AGENTS, CHECKER);
    expect(agents.find((agent) => agent.agent === 'ClaudeBot')?.allowed).toBe(false);
    expect(agents.find((agent) => agent.agent === 'GPTBot')?.allowed).toBe(true);
  });

  it('matches * and $ wildcards, and the longest rule wins (Allow on a tie)', () => {
    const rules = 'User-agent: *\nDisallow: /*.php$\nDisallow: /\nAllow: /$\nAllow: /shop/*/public\n';
    expect(verdicts(rules, `${ORIGIN}/`).GPTBot).toBe(true);
    expect(verdicts(rules, `${ORIGIN}/index.php`).GPTBot).toBe(false);
    expect(verdicts(rules, `${ORIGIN}/about`).GPTBot).toBe(false);
    expect(verdicts(rules, `${ORIGIN}/shop/hats/public`).GPTBot).toBe(true);
    expect(verdicts('User-agent: *\nDisallow: /page\nAllow: /page\n', `${ORIGIN}/page`).GPTBot).toBe(true);
  });

  it('judges the page at its own URL: a path that starts with // stays a path on the same host', () => {
    expect(Object.values(verdicts('User-agent: *\nDisallow: /\n', `${ORIGIN}//windows.PHP`))).toEqual(AGENTS.map(() => false));
    expect(Object.values(verdicts('User-agent: *\nDisallow: //windows.PHP\n', `${ORIGIN}//windows.PHP?x=1`))).toEqual(AGENTS.map(() => false));
    expect(Object.values(verdicts('User-agent: *\nDisallow: /windows.PHP\n', `${ORIGIN}//windows.PHP`))).toEqual(AGENTS.map(() => true));
  });

  it('judges the path and query the URL carries, percent-encoded, without its fragment', () => {
    const rules = 'User-agent: *\nDisallow: /caf%C3%A9?q=1$\n';
    expect(verdicts(rules, `${ORIGIN}/café?q=1#top`).GPTBot).toBe(false);
    expect(verdicts(rules, `${ORIGIN}/café?q=12`).GPTBot).toBe(true);
  });

  it('treats a 404 or redirects not followed to the end as "everything allowed", and a 5xx or no answer as "everything disallowed"', () => {
    const missing = analyseRobots(robotsFile('<html>not found</html>', { status: 404 }), `${ORIGIN}/`, AGENTS, CHECKER);
    expect(missing.state).toBe('missing');
    expect(missing.agents.every((agent) => agent.allowed)).toBe(true);
    const notFollowed = analyseRobots({ notFollowed: `${ORIGIN}/robots.txt redirects more than 5 times (a redirect loop?)` }, `${ORIGIN}/`, AGENTS, CHECKER);
    expect(notFollowed).toMatchObject({ state: 'not-followed', sitemaps: [], checkerBlocked: false });
    expect(notFollowed.agents.every((agent) => agent.allowed)).toBe(true);
    expect(notFollowed.detail).toBe(`${ORIGIN}/robots.txt redirects more than 5 times (a redirect loop?): a crawler that cannot follow robots.txt to the end treats it as missing, as Google does, so every crawler may fetch every page and none of its rules apply`);
    const broken = analyseRobots(robotsFile('', { status: 503 }), `${ORIGIN}/`, AGENTS, CHECKER);
    expect(broken.state).toBe('unreachable');
    expect(broken.agents.every((agent) => !agent.allowed)).toBe(true);
    expect(broken.detail).toContain('503');
    expect(analyseRobots({ unreachable: 'no answer within 10 s' }, `${ORIGIN}/`, AGENTS, CHECKER).agents.some((agent) => agent.allowed)).toBe(false);
  });

  it('reads the first 500 KiB of a body however much it is given: a rule that ends there is obeyed, one cut by it or after it is not', () => {
    const rule = 'User-agent: GPTBot\nDisallow: /';
    /** `bytes` of comment lines, then the rule, then `after`. */
    const file = (bytes: number, after = '') => {
      const line = `# ${'x'.repeat(97)}\n`;
      const rest = bytes % line.length;
      return `${line.repeat(Math.floor(bytes / line.length))}${rest > 0 ? `${'#'.repeat(rest - 1)}\n` : ''}${rule}${after}`;
    };
    const gptBot = (body: string) => {
      const robots = analyseRobots(robotsFile(body), `${ORIGIN}/`, AGENTS, CHECKER);
      return { allowed: robots.agents.find((agent) => agent.agent === 'GPTBot')?.allowed, detail: robots.detail };
    };
    const KiB500 = 500 * 1024;
    const padding = KiB500 - rule.length;
    // The rule's last byte is the 500 KiB's last: obeyed, and the file said to be cut.
    expect(file(padding, `\n${'#'.repeat(100)}\n`).length).toBeGreaterThan(KiB500);
    expect(gptBot(file(padding, `\n${'#'.repeat(100)}\n`))).toEqual({ allowed: false, detail: expect.stringContaining('(its first 500 KiB read, as RFC 9309 allows)') });
    // One byte later, the cut leaves "Disallow: ", which decides nothing; further on, the rule is not read at all.
    expect(gptBot(file(padding + 1)).allowed).toBe(true);
    expect(gptBot(file(KiB500 + 10)).allowed).toBe(true);
    // The same rule with nothing past 500 KiB: obeyed, and nothing said about a cut.
    expect(gptBot(file(1000))).toEqual({ allowed: false, detail: 'robots.txt lets 5 of 6 AI agents fetch the page' });
  });

  it('lists the Sitemap: lines as absolute URLs', () => {
    expect(analyseRobots(robotsFile('Sitemap: /sitemap-index.xml\nSitemap: https://cdn.example/map.xml\nUser-agent: *\nAllow: /\n'), `${ORIGIN}/`, AGENTS, CHECKER).sitemaps).toEqual([
      `${ORIGIN}/sitemap-index.xml`,
      'https://cdn.example/map.xml',
    ]);
  });

  it('honours a group that names the checker, and not a Disallow for *', () => {
    expect(analyseRobots(robotsFile(`User-agent: ${CHECKER}\nDisallow: /\n\nUser-agent: *\nAllow: /\n`), `${ORIGIN}/`, AGENTS, CHECKER).checkerBlocked).toBe(true);
    expect(analyseRobots(robotsFile('User-agent: *\nDisallow: /\n'), `${ORIGIN}/`, AGENTS, CHECKER).checkerBlocked).toBe(false);
    expect(analyseRobots(robotsFile(`User-agent: ${CHECKER}\nAllow: /\n\nUser-agent: *\nDisallow: /\n`), `${ORIGIN}/`, AGENTS, CHECKER).checkerBlocked).toBe(false);
    expect(analyseRobots(robotsFile(`User-agent: ${CHECKER.toLowerCase()}\nDisallow: /\n`), `${ORIGIN}/`, AGENTS, CHECKER).checkerBlocked).toBe(true);
  });
});

describe('llms.txt', () => {
  it('is well formed with an H1 first, a summary and a section of links', () => {
    expect(analyseLlmsTxt(fetched(WELL_MADE_LLMS_TXT))).toMatchObject({ present: true, wellFormed: true });
  });

  it('names what a present file lacks', () => {
    const result = analyseLlmsTxt(fetched('Okafor Electrical\n\n## Links\n\nnone yet\n'));
    expect(result).toMatchObject({ present: true, wellFormed: false });
    expect(result.detail).toBe('llms.txt is present but lacks an H1 title first, a > summary, an H2 section of links');
  });

  it('is absent on a 404, and an HTML page answered in its place is not one', () => {
    expect(analyseLlmsTxt(fetched('', { status: 404 }))).toMatchObject({ present: false });
    expect(analyseLlmsTxt(fetched('<!doctype html><html><body>Home</body></html>', { contentType: 'text/html' }))).toMatchObject({ present: false, detail: 'llms.txt answers with an HTML page, not a Markdown file' });
    expect(analyseLlmsTxt(fetched('', { status: 500 })).detail).toBe('llms.txt answered 500');
  });

  it('reads lines of megabytes (all spaces, a summary or a link never closed) without overflowing a stack', () => {
    const huge = 5 * 1024 * 1024;
    const file = [`${' '.repeat(huge)}`, `# Okafor Electrical${' '.repeat(huge)}`, `>${' '.repeat(huge)}x`, '## Links', `- [${'a'.repeat(huge)}`, `${' '.repeat(huge)}- [Home](https://okafor.example/)`].join('\n');
    expect(analyseLlmsTxt(fetched(file)).detail).toBe('llms.txt is present but lacks a > summary, an H2 section of links');
    expect(analyseLlmsTxt(fetched(`# Okafor Electrical\n> Electricians\n## Links\n- [Home](https://okafor.example/)${' '.repeat(huge)}`)).wellFormed).toBe(true);
  });
});

describe('the sitemap', () => {
  it('counts the <url> entries of a urlset', () => {
    expect(analyseSitemap({ text: sitemapOf(ORIGIN, ['/', '/a', '/b']), truncated: false, url: `${ORIGIN}/sitemap.xml` })).toMatchObject({ kind: 'urlset', entries: 3, error: null });
  });

  it('lists an index\'s sitemaps', () => {
    const index = `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/posts.xml</loc></sitemap><sitemap><loc>${ORIGIN}/pages.xml</loc></sitemap></sitemapindex>`;
    expect(analyseSitemap({ text: index, truncated: false, url: `${ORIGIN}/sitemap.xml` })).toMatchObject({ kind: 'index', entries: 2, sitemaps: [`${ORIGIN}/posts.xml`, `${ORIGIN}/pages.xml`] });
  });

  it('says where XML that is not well formed breaks, and refuses another root element', () => {
    const broken = analyseSitemap({ text: '<urlset><url><loc>/a</loc></url><url><loc>/b</url></urlset>', truncated: false, url: ORIGIN });
    expect(broken.error).toMatch(/\d+:\d+/);
    expect(analyseSitemap({ text: '<html><body>hi</body></html>', truncated: false, url: ORIGIN }).error).toMatch(/root element is <html>/);
    expect(analyseSitemap({ text: '<!doctype html><html><body>hi</body></html>', truncated: false, url: ORIGIN }).error).toMatch(/^1:9: /);
  });

  it('counts what was read of a body cut at the size limit, and unpacks a .gz sitemap within it', () => {
    const cut = sitemapOf(ORIGIN, ['/a', '/b', '/c']).slice(0, -40);
    expect(analyseSitemap({ text: cut, truncated: true, url: ORIGIN })).toMatchObject({ entries: 2, error: null, truncated: true });
    expect(sitemapText(gzipSync(sitemapOf(ORIGIN, ['/'])), 1024 * 1024).text).toContain('<urlset');
    expect(sitemapText(gzipSync(Buffer.alloc(2 * 1024 * 1024, 32)), 1024 * 1024).error).toContain('does not unpack');
  });
});

describe('the page as served', () => {
  const page = (body: string, overrides: Partial<FetchedText> = {}) => fetched(body, { url: `${ORIGIN}/`, contentType: 'text/html', ...overrides });

  it('reads the head, the words in the HTML and the JSON-LD types, nested ones included', () => {
    const result = analyseHomePage(page(wellMadePage(ORIGIN)), {});
    expect(result).toMatchObject({
      html: true,
      https: true,
      title: 'Okafor Electrical | Electricians in Guildford',
      canonical: `${ORIGIN}/`,
      lang: 'en-GB',
      noindex: null,
      openGraph: { title: true, description: true, image: true },
      jsonLdTypes: ['Electrician', 'WebSite', 'FAQPage', 'Question', 'Answer'],
      jsonLdBlocks: 2,
      jsonLdErrors: [],
      markdownLink: `${ORIGIN}/index.md`,
    });
    expect(result.textWords).toBeGreaterThan(300);
    expect(declaresOrganization(result.jsonLdTypes)).toBe(true);
  });

  it('counts no text in an empty JavaScript shell (the <noscript> plea is not content)', () => {
    expect(analyseHomePage(page(EMPTY_SHELL), {}).textWords).toBe(0);
  });

  it('finds noindex in the robots meta tag or the X-Robots-Tag header, not in max-image-preview:none', () => {
    expect(analyseHomePage(page('<html><head><meta name="robots" content="noindex, follow"></head><body>x</body></html>'), {}).noindex).toBe('meta');
    expect(analyseHomePage(page('<html><body>x</body></html>'), { 'x-robots-tag': 'googlebot: noindex' }).noindex).toBe('header');
    expect(analyseHomePage(page('<html><head><meta name="robots" content="max-image-preview:none"></head><body>x</body></html>'), {}).noindex).toBeNull();
  });

  it('reports a JSON-LD block that does not parse, and keeps the types of the ones that do', () => {
    const result = analyseHomePage(page('<html><head><script type="application/ld+json">{"@type":"Organization",}</script><script type="application/ld+json">{"@type":"WebSite"}</script></head><body>x</body></html>'), {});
    expect(result.jsonLdBlocks).toBe(2);
    expect(result.jsonLdErrors).toHaveLength(1);
    expect(result.jsonLdTypes).toEqual(['WebSite']);
  });

  it('reads nothing from a PDF', () => {
    expect(analyseHomePage(page('%PDF-1.7 Electricians in Guildford', { contentType: 'application/pdf' }), {})).toMatchObject({ html: false, textWords: 0, title: null });
  });

  it('decodes the charset the page declares', () => {
    const latin1 = Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf\xe9</title></head><body>x</body></html>', 'latin1');
    expect(analyseHomePage(page(decodeBody(latin1, 'text/html').text), {}).title).toBe('Café');
  });
});

describe('a page that means harm is read whole, in one pass, and what it says is bounded', () => {
  const page = (body: string) => fetched(body, { url: `${ORIGIN}/`, contentType: 'text/html' });
  const read = (name: keyof typeof hostileSites) => {
    const site = hostileSites[name];
    const answer = site.paths()[site.path];
    if (!answer || typeof answer === 'function') throw new Error(`no page for ${name}`);
    return analyseHomePage(page(String(answer.body)), {});
  };

  it('1 MB of nested unclosed tags', () => {
    expect(read('nested unclosed tags')).toMatchObject({ html: true, title: 'Hostile', lang: 'en', textWords: 0 });
  });

  it('5 MB runs of text with no space, or only spaces, counted without overflowing a stack', () => {
    const words = (text: string) => analyseHomePage(page(`<html><head><title>t</title></head><body><p>${text}</p><p>Call us</p></body></html>`), {}).textWords;
    for (const fill of ['x', 'é', '7', '🙂x']) expect(words(fill.repeat(5 * 1024 * 1024))).toBe(3);
    expect(words(' '.repeat(5 * 1024 * 1024))).toBe(2);
    expect(words(`(c)${' '.repeat(5 * 1024 * 1024)}`)).toBe(3);
  });

  it('140,000 sibling elements, without overflowing a stack', () => {
    expect(read('140,000 sibling elements')).toMatchObject({ html: true, title: 'Hostile', textWords: 0 });
  });

  it('20,000 JSON-LD types: a few are listed, the Organization among them, and its name is kept', () => {
    const result = read('20,000 JSON-LD types');
    expect(result.jsonLdTypes.length).toBeLessThanOrEqual(PAGE_TEXT_LIMITS.types + 1);
    expect(result.jsonLdTypes).toContain('LocalBusiness');
    expect(declaresOrganization(result.jsonLdTypes)).toBe(true);
    expect(result.organizationNames).toEqual(['Hostile Ltd']);
  });

  it('JSON-LD nested 100,000 deep is read without overflowing the call stack', () => {
    const deep = `${'['.repeat(100_000)}{"@type":"Organization","name":"Deep"}${']'.repeat(100_000)}`;
    const result = analyseHomePage(page(`<html><head><script type="application/ld+json">${deep}</script></head><body>x</body></html>`), {});
    expect(result.jsonLdInvalid + result.jsonLdTypes.length).toBeGreaterThan(0);
  });

  it('cuts each value to a length a report can show, and counts what it does not list', () => {
    const broken = '<script type="application/ld+json">{"@type": "Thing",</script>'.repeat(50);
    const result = analyseHomePage(
      page(
        `<html lang="${'x'.repeat(500)}"><head><title>${'T'.repeat(100_000)}</title><meta name="description" content="${'d '.repeat(50_000)}">` +
          `<link rel="canonical" href="/${'c'.repeat(5000)}">${broken}</head><body>x</body></html>`,
      ),
      {},
    );
    expect(result.title?.length).toBe(PAGE_TEXT_LIMITS.title);
    expect(result.metaDescription?.length).toBeLessThanOrEqual(PAGE_TEXT_LIMITS.description);
    expect(result.lang?.length).toBeLessThanOrEqual(PAGE_TEXT_LIMITS.lang);
    expect(result.canonical).toBeNull();
    expect(result.jsonLdBlocks).toBe(50);
    expect(result.jsonLdInvalid).toBe(50);
    expect(result.jsonLdErrors).toHaveLength(PAGE_TEXT_LIMITS.errors);
    const structured = scoreFindings(scoredFacts(result)).findings.find((finding) => finding.id === 'structuredDataParses');
    expect(structured?.detail).toMatch(/^50 of 50 JSON-LD blocks do not parse: /);
    expect(JSON.stringify(result).length).toBeLessThan(3000);
  });

  it('counts the words a reader would: runs holding a letter or a digit, in any script, split by any space', () => {
    const words = (text: string) => analyseHomePage(page(`<html><head><title>t</title></head><body><p>${text}</p></body></html>`), {}).textWords;
    expect(words('Acme Plumbing &amp; Heating — est. 1987 | 24/7')).toBe(6);
    expect(words('Café\u00a0Ōsaka\u2003日本 · — 🙂 🙂x')).toBe(4);
    expect(words('\t\n one\r\ntwo\u3000three ')).toBe(3);
    expect(words('— | · … 🙂')).toBe(0);
    // Every character a regular expression's \s matches parts two words, and no other does.
    const codes = Array.from({ length: 0x10000 }, (_, code) => code).filter((code) => code < 0xd800 || code > 0xdfff);
    const spaces = codes.filter((code) => /\s/.test(String.fromCharCode(code)));
    expect(spaces.length).toBeGreaterThan(20);
    expect(words(`${spaces.map((code) => `a${String.fromCharCode(code)}`).join('')}a`)).toBe(spaces.length + 1);
    const others = codes.filter((code) => !/\s/.test(String.fromCharCode(code)) && code !== 0x3c && code !== 0x26 && code !== 0);
    expect(words(`a${others.map((code) => String.fromCharCode(code)).join('')}`)).toBe(1);
  });

  it('ends the head where a browser does, though </head> is missing', () => {
    expect(analyseHomePage(page('<html><head><title>t</title><p>one two three</p></html>'), {}).textWords).toBe(3);
    expect(analyseHomePage(page('<html><head><title>t</title>four five<body><p>six</p></body></html>'), {}).textWords).toBe(3);
  });

  it('keeps the names the page gives itself: its Organizations\' (a few, each once), og:site_name and the title, each as written', () => {
    const named = (headHtml: string) => {
      const { organizationNames, siteName, title } = analyseHomePage(page(`<html><head>${headHtml}</head><body>x</body></html>`), {});
      return { organizationNames, siteName, title };
    };
    expect(named('<title>Home | Okafor</title><meta property="og:site_name" content="Okafor Electrical"><script type="application/ld+json">{"@type":"Electrician","name":"Okafor Electrical Ltd"}</script>')).toEqual({
      organizationNames: ['Okafor Electrical Ltd'],
      siteName: 'Okafor Electrical',
      title: 'Home | Okafor',
    });
    expect(named('<title>Home | Okafor</title><meta property="og:site_name" content="Okafor Electrical"><script type="application/ld+json">{"@type":"WebSite","name":"Not the business"}</script>')).toEqual({
      organizationNames: [],
      siteName: 'Okafor Electrical',
      title: 'Home | Okafor',
    });
    // A platform's page: its own Organization, then the listed business's.
    const graph = [{ '@type': 'Organization', name: 'Yell' }, ...Array.from({ length: 8 }, (_, index) => ({ '@type': 'Plumber', name: `Firm ${index}` })), { '@type': 'Plumber', name: 'Firm 0' }];
    expect(named(`<script type="application/ld+json">${JSON.stringify({ '@graph': graph })}</script>`).organizationNames).toEqual(['Yell', 'Firm 0', 'Firm 1', 'Firm 2', 'Firm 3'].slice(0, PAGE_TEXT_LIMITS.names));
    expect(named('<title>Home | Okafor</title>')).toEqual({ organizationNames: [], siteName: null, title: 'Home | Okafor' });
  });

  it("keeps the body's signs of whose page it is: the copyright lines (the footer's last), the logo's text and the first heading", () => {
    const signs = (bodyHtml: string) => {
      const { copyrightLines, logoText, firstHeading } = analyseHomePage(page(`<html><head><title>t</title></head><body>${bodyHtml}</body></html>`), {});
      return { copyrightLines, logoText, firstHeading };
    };
    expect(
      signs(
        '<header><div class="site-logo"><a href="/"><img src="/a.png" alt="Acme Plumbing"></a></div></header><h1>Emergency <em>plumbers</em> in Leeds</h1><h1>Second</h1>' +
          '<p>Photo &copy; Getty Images</p><footer><p>&copy; 2026 <a href="/">Acme Plumbing &amp; Heating Ltd</a>. All rights reserved.<br>Website by Bluefin</p></footer>',
      ),
    ).toEqual({ copyrightLines: ['Photo © Getty Images', '© 2026 Acme Plumbing & Heating Ltd. All rights reserved.'], logoText: 'Acme Plumbing', firstHeading: 'Emergency plumbers in Leeds' });
    // A logo by its file name or its own text; a logo written as text in its holder; "Copyright" and "(c) 2026".
    expect(signs('<img src="/wp-content/uploads/acme-logo.png" alt="Acme Roofing"><div class="footer">Copyright 2019-2026 Acme Roofing</div>')).toMatchObject({ copyrightLines: ['Copyright 2019-2026 Acme Roofing'], logoText: 'Acme Roofing' });
    expect(signs('<p class="site-title"><a href="/">Acme <span>Bakery</span></a></p><small>(c) 2026 Acme Bakery</small>')).toMatchObject({ copyrightLines: ['(c) 2026 Acme Bakery'], logoText: 'Acme Bakery' });
    // Neither an image that is not the logo, nor a heading or copyright in a script, nor a copyright mark in an attribute.
    expect(signs('<img src="/team.jpg" alt="Our team"><script>var h="<h1>x</h1> ©"</script><img alt="© 2026 someone" src="/x.png">')).toEqual({ copyrightLines: [], logoText: null, firstHeading: null });
  });

  it('keeps the last few copyright lines and the first heading bounded, however a page repeats or stretches them', () => {
    const repeated = analyseHomePage(page(`<html><body><h1>${'Acme '.repeat(10_000)}</h1>${'<p>© 2026 Firm</p>'.repeat(10_000)}<p>© ${'x'.repeat(100_000)}</p></body></html>`), {});
    expect(repeated.copyrightLines).toHaveLength(PAGE_TEXT_LIMITS.copyrightLines);
    expect(repeated.copyrightLines.every((line) => line.length <= PAGE_TEXT_LIMITS.copyrightLine)).toBe(true);
    expect(repeated.firstHeading?.length).toBeLessThanOrEqual(PAGE_TEXT_LIMITS.name);
    // A heading or footer the page is cut in the middle of is read as it stands.
    expect(analyseHomePage(page('<html><body><h1>Acme Plumbing'), {}).firstHeading).toBe('Acme Plumbing');
    expect(analyseHomePage(page('<html><body><footer>© 2026 Acme'), {}).copyrightLines).toEqual(['© 2026 Acme']);
  });
});

describe('the score', () => {
  const facts = (pageHtml: string) => scoredFacts(analyseHomePage(fetched(pageHtml, { url: `${ORIGIN}/`, contentType: 'text/html' }), {}));

  it('has weights that add up to 100, one finding for each', () => {
    expect(Object.values(SCORE_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBe(100);
    const { findings } = scoreFindings(facts(wellMadePage(ORIGIN)));
    expect(findings.map((finding) => finding.id).sort()).toEqual(Object.keys(SCORE_WEIGHTS).sort());
  });

  it('gives a site that does everything right 100, each finding with its line of advice', () => {
    const { score, findings } = scoreFindings(facts(wellMadePage(ORIGIN)));
    expect(score).toBe(100);
    for (const finding of findings) {
      expect(finding.verdict).toBe('pass');
      expect(finding.advice).toMatch(/\w.*\.$/);
    }
  });

  it('takes the weight of each thing an empty JavaScript shell lacks', () => {
    const { score, findings } = scoreFindings(facts(EMPTY_SHELL));
    const failed = findings.filter((finding) => finding.verdict === 'fail').map((finding) => finding.id);
    expect(failed).toEqual(expect.arrayContaining(['textInHtml', 'organization', 'metaDescription', 'canonical', 'openGraph', 'structuredDataParses']));
    expect(score).toBe(100 - failed.reduce((sum, id) => sum + SCORE_WEIGHTS[id], 0));
    expect(findings.find((finding) => finding.id === 'textInHtml')?.advice).toContain('Most AI crawlers do not run JavaScript');
  });

  it('gives part of the weight for some of the Open Graph tags (a warning, not a failure)', () => {
    const one = wellMadePage(ORIGIN).replace(/<meta property="og:(description|image)"[^>]*>/g, '');
    const openGraph = scoreFindings(facts(one)).findings.find((finding) => finding.id === 'openGraph');
    expect(openGraph).toMatchObject({ verdict: 'warn', points: 1, detail: 'missing: og:description, og:image' });
  });

  it('takes the whole weight of indexing from a page that says noindex, in its meta tag or its header, and says which', () => {
    const inMeta = wellMadePage(ORIGIN).replace('<head>', '<head><meta name="robots" content="noindex">');
    const meta = scoreFindings(facts(inMeta));
    expect(meta.findings.find((finding) => finding.id === 'indexable')).toMatchObject({ verdict: 'fail', points: 0, detail: 'a robots meta tag says noindex' });
    expect(meta.score).toBe(100 - SCORE_WEIGHTS.indexable);
    const header = scoredFacts(analyseHomePage(fetched(wellMadePage(ORIGIN), { url: `${ORIGIN}/`, contentType: 'text/html' }), { 'x-robots-tag': 'noindex' }));
    expect(scoreFindings(header).findings.find((finding) => finding.id === 'indexable')).toMatchObject({ verdict: 'fail', detail: 'the X-Robots-Tag header says noindex' });
  });

  it('scores robots.txt by the share of AI agents allowed', () => {
    const some = { ...facts(wellMadePage(ORIGIN)), robots: analyseRobots(robotsFile('User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n'), `${ORIGIN}/`, AGENTS, CHECKER) };
    const robots = scoreFindings(some).findings.find((finding) => finding.id === 'aiCrawlers');
    expect(robots).toMatchObject({ verdict: 'warn', points: Math.round(((SCORE_WEIGHTS.aiCrawlers * 4) / 6) * 10) / 10 });
    expect(robots?.detail).toContain('blocks GPTBot, CCBot');
  });
});

describe('the address rules', () => {
  const none = parseAddressList('');
  it('allow a public address on the web ports only', () => {
    expect(addressRefusal('93.184.215.14', 443, none)).toBeNull();
    expect(addressRefusal('2a00:1450:4009:81f::200e', 80, none)).toBeNull();
    expect(addressRefusal('93.184.215.14', 8080, none)).toContain('port 8080');
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.9', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['fd00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['2002:7f00:1::1', '6to4'],
    ['::7f00:1', 'not a public address'],
  ])('refuse %s (%s)', (address, kind) => {
    expect(addressRefusal(address, 443, none)).toContain(kind);
  });

  it('let an allowlisted address or CIDR through on any port, and nothing else', () => {
    const allow = parseAddressList('127.0.0.1, 10.0.0.0/8');
    expect(addressRefusal('127.0.0.1', 41234, allow)).toBeNull();
    expect(addressRefusal('10.9.8.7', 22, allow)).toBeNull();
    expect(addressRefusal('127.0.0.2', 80, allow)).toContain('loopback');
    expect(addressRefusal('::ffff:7f00:1', 80, allow)).toContain('IPv4-mapped');
  });

  it('refuse an allowlist entry that is not an address or CIDR, typos like 127.1 included', () => {
    expect(() => parseAddressList('localhost')).toThrow('"localhost" is not an IP address or CIDR');
    expect(() => parseAddressList('127.1')).toThrow('"127.1"');
    expect(() => parseAddressList('10.0.0.0/33')).toThrow('"10.0.0.0/33"');
  });
});
