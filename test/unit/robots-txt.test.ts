import { namesAgent, parseRobotsTxt, verdicts } from '../../server/site-check/analysers/robots-txt';

// Most cases are those of Google's robots.txt parser (github.com/google/robotstxt, robots_test.cc),
// each named after the Google test it comes from.

/** The path and query of a URL as written, not re-encoded ("/" when it has none). */
const pathOf = (url: string) => /^[a-z]+:\/\/[^/?#]*([^#]*)/i.exec(url)?.[1] || '/';

const bytes = (text: string | Buffer) => (typeof text === 'string' ? Buffer.from(text) : text);

/** Whether robots.txt lets the agent fetch the URL. */
const isUserAgentAllowed = (robotsTxt: string | Buffer, agent: string, url: string) => verdicts(parseRobotsTxt(bytes(robotsTxt)), pathOf(url), [agent])[0];

describe('robots.txt read as Google reads it', () => {
  it('GoogleOnly_SystemTest: an empty file or an unnamed agent is allowed; an empty URL is the path /', () => {
    const robotsTxt = 'user-agent: FooBot\ndisallow: /\n';
    expect(isUserAgentAllowed('', 'FooBot', '')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, '', '')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', '')).toBe(false);
    expect(isUserAgentAllowed('', '', '')).toBe(true);
  });

  it('ID_LineSyntax_Line: key: value, or "key value" when the colon is forgotten', () => {
    const url = 'http://foo.bar/x/y';
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /\n', 'FooBot', url)).toBe(false);
    expect(isUserAgentAllowed('foo: FooBot\nbar: /\n', 'FooBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent FooBot\ndisallow /\n', 'FooBot', url)).toBe(false);
    // Only when the line is exactly two words: then the Disallow below is outside any group.
    expect(isUserAgentAllowed('user-agent FooBot extra\ndisallow: /\n', 'FooBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent FooBot\ndisallow \t /x\n', 'FooBot', url)).toBe(false);
  });

  it('ID_LineSyntax_Groups: user-agent lines then rules; groups for the same agent merge; rules outside groups are ignored', () => {
    const robotsTxt = [
      'allow: /foo/bar/',
      '',
      'user-agent: FooBot',
      'disallow: /',
      'allow: /x/',
      'user-agent: BarBot',
      'disallow: /',
      'allow: /y/',
      '',
      '',
      'allow: /w/',
      'user-agent: BazBot',
      '',
      'user-agent: FooBot',
      'allow: /z/',
      'disallow: /',
      '',
    ].join('\n');
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/x/b')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/z/d')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/y/c')).toBe(false);
    expect(isUserAgentAllowed(robotsTxt, 'BarBot', 'http://foo.bar/y/c')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'BarBot', 'http://foo.bar/w/a')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'BarBot', 'http://foo.bar/z/d')).toBe(false);
    expect(isUserAgentAllowed(robotsTxt, 'BazBot', 'http://foo.bar/z/d')).toBe(true);
    for (const agent of ['FooBot', 'BarBot', 'BazBot']) expect(isUserAgentAllowed(robotsTxt, agent, 'http://foo.bar/foo/bar/')).toBe(false);
    // Not even for *.
    expect(isUserAgentAllowed('disallow: /private\nuser-agent: *\nallow: /\n', 'QuxBot', 'http://foo.bar/private')).toBe(true);
  });

  it('ID_LineSyntax_Groups_OtherRules: a Sitemap or unknown line does not end a group', () => {
    for (const other of ['Sitemap: https://foo.bar/sitemap', 'Invalid-Unknown-Line: unknown']) {
      const robotsTxt = `User-agent: BarBot\n${other}\nUser-agent: *\nDisallow: /\n`;
      expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/')).toBe(false);
      expect(isUserAgentAllowed(robotsTxt, 'BarBot', 'http://foo.bar/')).toBe(false);
    }
  });

  it('ID_REPLineNamesCaseInsensitive: keys in any case, and the typos Google forgives', () => {
    for (const robotsTxt of ['USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n', 'user-agent: FooBot\nallow: /x/\ndisallow: /\n', 'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n']) {
      expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/x/y')).toBe(true);
      expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/a/b')).toBe(false);
    }
    for (const typo of ['useragent', 'user agent']) expect(isUserAgentAllowed(`${typo}: FooBot\ndisallow: /\n`, 'FooBot', 'http://foo.bar/a')).toBe(false);
    for (const typo of ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']) expect(isUserAgentAllowed(`user-agent: FooBot\n${typo}: /\n`, 'FooBot', 'http://foo.bar/a')).toBe(false);
    expect(isUserAgentAllowed('user-agent: FooBot\nalow: /a\ndisallow: /\n', 'FooBot', 'http://foo.bar/a')).toBe(false);
  });

  it('ID_UserAgentValueCaseInsensitive: the agent is matched in any case', () => {
    for (const robotsTxt of ['User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n', 'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n', 'User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n']) {
      for (const agent of ['Foo', 'foo']) {
        expect(isUserAgentAllowed(robotsTxt, agent, 'http://foo.bar/x/y')).toBe(true);
        expect(isUserAgentAllowed(robotsTxt, agent, 'http://foo.bar/a/b')).toBe(false);
      }
    }
  });

  it('GoogleOnly_AcceptUserAgentUpToFirstSpace: "Foo Bar" names Foo', () => {
    const robotsTxt = 'User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n';
    expect(isUserAgentAllowed(robotsTxt, 'Foo', 'http://foo.bar/x/y')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'Foo Bar', 'http://foo.bar/x/y')).toBe(false);
    // The same reading for a value the RFC allows no more than one word in.
    expect(isUserAgentAllowed('User-agent: GPTBOT BAR\nDisallow: /\n', 'GPTBot', 'http://foo.bar/')).toBe(false);
    expect(isUserAgentAllowed('User-agent: GPTBot/1.0\nDisallow: /\n', 'GPTBot', 'http://foo.bar/')).toBe(false);
  });

  it('ID_GlobalGroups_Secondary: an agent no group names obeys *, else nothing', () => {
    const url = 'http://foo.bar/x/y';
    expect(isUserAgentAllowed('', 'FooBot', url)).toBe(true);
    const global = 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n';
    expect(isUserAgentAllowed(global, 'FooBot', url)).toBe(false);
    expect(isUserAgentAllowed(global, 'BarBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n', 'QuxBot', url)).toBe(true);
    // Google reads "* something" as * too.
    expect(isUserAgentAllowed('user-agent: * everyone\ndisallow: /\n', 'QuxBot', url)).toBe(false);
    expect(isUserAgentAllowed('user-agent: *QuxBot\ndisallow: /\n', 'QuxBot', url)).toBe(true);
  });

  it('ID_AllowDisallow_Value_CaseSensitive: paths are matched case-sensitively', () => {
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(false);
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /X/\n', 'FooBot', 'http://foo.bar/x/y')).toBe(true);
  });

  it('ID_LongestMatch: the longest pattern wins, Allow wins a tie, an empty pattern decides nothing', () => {
    const url = 'http://foo.bar/x/page.html';
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', 'FooBot', url)).toBe(false);
    expect(isUserAgentAllowed('user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', 'FooBot', 'http://foo.bar/x/')).toBe(false);
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: \nallow: \n', 'FooBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /\nallow: /\n', 'FooBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /x\nallow: /x/\n', 'FooBot', 'http://foo.bar/x')).toBe(false);
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /x\nallow: /x/\n', 'FooBot', 'http://foo.bar/x/')).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', 'FooBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page.html')).toBe(false);
    expect(isUserAgentAllowed('user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/page')).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', 'FooBot', url)).toBe(true);
    expect(isUserAgentAllowed('user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', 'FooBot', 'http://foo.bar/x/y.html')).toBe(false);
    const groups = 'User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n';
    expect(isUserAgentAllowed(groups, 'FooBot', 'http://foo.bar/x/page')).toBe(true);
    expect(isUserAgentAllowed(groups, 'FooBot', 'http://foo.bar/y/page')).toBe(false);
    // A group that names the agent but has no rule that matches allows, whatever * says.
    expect(isUserAgentAllowed('User-agent: *\nDisallow: /\nUser-agent: FooBot\nDisallow:\n', 'FooBot', url)).toBe(true);
  });

  it('ID_Encoding: patterns are %-encoded as bytes; the URL is matched as it is given', () => {
    const query = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n';
    expect(isUserAgentAllowed(query, 'FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par')).toBe(true);
    const raw = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n';
    expect(isUserAgentAllowed(raw, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
    expect(isUserAgentAllowed(raw, 'FooBot', 'http://foo.bar/foo/bar/ツ')).toBe(false);
    const encoded = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n';
    expect(isUserAgentAllowed(encoded, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
    expect(isUserAgentAllowed(encoded, 'FooBot', 'http://foo.bar/foo/bar/ツ')).toBe(false);
    const unreserved = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n';
    expect(isUserAgentAllowed(unreserved, 'FooBot', 'http://foo.bar/foo/bar/baz')).toBe(false);
    expect(isUserAgentAllowed(unreserved, 'FooBot', 'http://foo.bar/foo/bar/%62%61%7A')).toBe(true);
  });

  it('TestMaybeEscapePattern: octets above 0x7F become %XX, %xx is upper-cased, the rest stays; priority is the escaped length', () => {
    expect(isUserAgentAllowed('User-agent: FooBot\nDisallow: /\nAllow: /a/b/c\n', 'FooBot', 'http://foo.bar/a/b/c')).toBe(true);
    expect(isUserAgentAllowed('User-agent: FooBot\nDisallow: /á\n', 'FooBot', 'http://foo.bar/%C3%A1')).toBe(false);
    expect(isUserAgentAllowed('User-agent: FooBot\nDisallow: /%aa\n', 'FooBot', 'http://foo.bar/%AA')).toBe(false);
    expect(isUserAgentAllowed('User-agent: FooBot\nDisallow: /%aa\n', 'FooBot', 'http://foo.bar/%aa')).toBe(true);
    // Latin-1 bytes are escaped byte by byte too, whatever the file's charset.
    expect(isUserAgentAllowed(Buffer.from('User-agent: FooBot\nDisallow: /caf\xe9\n', 'latin1'), 'FooBot', 'http://foo.bar/caf%E9')).toBe(false);
    // "/á" is 3 bytes but 7 escaped: it outweighs the 4 of "/%C3".
    expect(isUserAgentAllowed('User-agent: FooBot\nAllow: /%C3\nDisallow: /á\n', 'FooBot', 'http://foo.bar/%C3%A1')).toBe(false);
  });

  it('ID_SpecialCharacters: * is any run, $ ends the pattern, # starts a comment', () => {
    const star = 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n';
    expect(isUserAgentAllowed(star, 'FooBot', 'http://foo.bar/foo/bar/quz')).toBe(false);
    expect(isUserAgentAllowed(star, 'FooBot', 'http://foo.bar/foo/quz')).toBe(true);
    expect(isUserAgentAllowed(star, 'FooBot', 'http://foo.bar/foo//quz')).toBe(true);
    expect(isUserAgentAllowed(star, 'FooBot', 'http://foo.bar/foo/bax/quz')).toBe(true);
    const end = 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n';
    expect(isUserAgentAllowed(end, 'FooBot', 'http://foo.bar/foo/bar')).toBe(false);
    expect(isUserAgentAllowed(end, 'FooBot', 'http://foo.bar/foo/bar/qux')).toBe(true);
    expect(isUserAgentAllowed(end, 'FooBot', 'http://foo.bar/foo/bar/')).toBe(true);
    expect(isUserAgentAllowed(end, 'FooBot', 'http://foo.bar/foo/bar/baz')).toBe(true);
    const comment = 'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n';
    expect(isUserAgentAllowed(comment, 'FooBot', 'http://foo.bar/foo/bar')).toBe(true);
    expect(isUserAgentAllowed(comment, 'FooBot', 'http://foo.bar/foo/quz')).toBe(false);
    // A $ before the end is a character like any other.
    const dollar = 'User-agent: FooBot\nDisallow: /a$b\nDisallow: /c$$\n';
    expect(isUserAgentAllowed(dollar, 'FooBot', 'http://foo.bar/a$bc')).toBe(false);
    expect(isUserAgentAllowed(dollar, 'FooBot', 'http://foo.bar/ab')).toBe(true);
    expect(isUserAgentAllowed(dollar, 'FooBot', 'http://foo.bar/c$')).toBe(false);
    expect(isUserAgentAllowed(dollar, 'FooBot', 'http://foo.bar/c$d')).toBe(true);
  });

  it('GoogleOnly_IndexHTMLisDirectory: allowing /dir/index.html allows /dir/', () => {
    const robotsTxt = 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n';
    expect(isUserAgentAllowed(robotsTxt, 'foobot', 'http://foo.com/allowed-slash/')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'foobot', 'http://foo.com/allowed-slash/index.htm')).toBe(false);
    expect(isUserAgentAllowed(robotsTxt, 'foobot', 'http://foo.com/allowed-slash/index.html')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'foobot', 'http://foo.com/anyother-url')).toBe(false);
    // /dir/ itself only, and index.htm as well as index.html.
    expect(isUserAgentAllowed(robotsTxt, 'foobot', 'http://foo.com/allowed-slash/other')).toBe(false);
    expect(isUserAgentAllowed('User-Agent: *\nAllow: /a/index.htm\nDisallow: /\n', 'foobot', 'http://foo.com/a/')).toBe(true);
  });

  it('GoogleOnly_LineTooLong: a line is read up to 2083 x 8 bytes, less its terminating NUL', () => {
    const maxLineLength = 2083 * 8;
    const allow = 'allow: ';
    const disallow = 'disallow: ';
    const longDisallow = `/x/${'a'.repeat(maxLineLength - 3 - disallow.length + 1 - 3)}`;
    const cutDisallow = `user-agent: FooBot\n${disallow}${longDisallow}/qux\n`;
    expect(isUserAgentAllowed(cutDisallow, 'FooBot', 'http://foo.bar/fux')).toBe(true);
    expect(isUserAgentAllowed(cutDisallow, 'FooBot', `http://foo.bar${longDisallow}/fux`)).toBe(false);

    const longA = `/x/${'a'.repeat(maxLineLength - 3 - allow.length + 1 - 3)}`;
    const longB = `/x/${'b'.repeat(maxLineLength - 3 - allow.length + 1 - 3)}`;
    const cutAllow = `user-agent: FooBot\ndisallow: /\n${allow}${longA}/qux\n${allow}${longB}/qux\n`;
    expect(isUserAgentAllowed(cutAllow, 'FooBot', 'http://foo.bar/')).toBe(false);
    expect(isUserAgentAllowed(cutAllow, 'FooBot', `http://foo.bar${longA}/qux`)).toBe(true);
    expect(isUserAgentAllowed(cutAllow, 'FooBot', `http://foo.bar${longB}/fux`)).toBe(true);
    // The next line is read as usual.
    expect(isUserAgentAllowed(`${cutDisallow}disallow: /next\n`, 'FooBot', 'http://foo.bar/next')).toBe(false);
  });

  describe('GoogleOnly_DocumentationChecks', () => {
    const cases: [string, string[], string[]][] = [
      ['/fish', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'], ['/bar', '/Fish.asp', '/catfish', '/?id=fish']],
      ['/fish*', ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'], ['/bar', '/Fish.bar', '/catfish', '/?id=fish']],
      ['/fish/', ['/fish/', '/fish/salmon', '/fish/?salmon', '/fish/salmon.html', '/fish/?id=anything'], ['/bar', '/fish', '/fish.html', '/Fish/Salmon.html']],
      ['/*.php', ['/filename.php', '/folder/filename.php', '/folder/filename.php?parameters', '//folder/any.php.file.html', '/filename.php/', '/index?f=filename.php/'], ['/bar', '/php/', '/index?php', '/windows.PHP']],
      ['/*.php$', ['/filename.php', '/folder/filename.php'], ['/bar', '/filename.php?parameters', '/filename.php/', '/filename.php5', '/php/', '/filename?php', '/aaaphpaaa', '//windows.PHP']],
      ['/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/bar', '/Fish.PHP']],
    ];
    it.each(cases)('disallow: / and allow: %s', (pattern, allowed, disallowed) => {
      const robotsTxt = `user-agent: FooBot\ndisallow: /\nallow: ${pattern}\n`;
      for (const path of allowed) expect([path, isUserAgentAllowed(robotsTxt, 'FooBot', `http://foo.bar${path}`)]).toEqual([path, true]);
      for (const path of disallowed) expect([path, isUserAgentAllowed(robotsTxt, 'FooBot', `http://foo.bar${path}`)]).toEqual([path, false]);
    });

    it('order of precedence for group-member records', () => {
      expect(isUserAgentAllowed('user-agent: FooBot\nallow: /p\ndisallow: /\n', 'FooBot', 'http://example.com/page')).toBe(true);
      expect(isUserAgentAllowed('user-agent: FooBot\nallow: /folder\ndisallow: /folder\n', 'FooBot', 'http://example.com/folder/page')).toBe(true);
      expect(isUserAgentAllowed('user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n', 'FooBot', 'http://example.com/page.htm')).toBe(false);
      expect(isUserAgentAllowed('user-agent: FooBot\nallow: /$\ndisallow: /\n', 'FooBot', 'http://example.com/')).toBe(true);
      expect(isUserAgentAllowed('user-agent: FooBot\nallow: /$\ndisallow: /\n', 'FooBot', 'http://example.com/page.html')).toBe(false);
    });
  });

  it('ID_LinesNumbersAreCountedCorrectly: LF, CR and CRLF all end a line, and the last needs none', () => {
    const files = {
      unix: 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n',
      dos: 'User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n',
      mac: 'User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r',
      noFinalNewline: 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /',
      mixed: 'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /',
    };
    for (const [name, robotsTxt] of Object.entries(files)) {
      expect([name, verdicts(parseRobotsTxt(bytes(robotsTxt)), '/some/path', ['foo', 'bar'])]).toEqual([name, [true, false]]);
    }
  });

  it('ID_UTF8ByteOrderMarkIsSkipped: a byte-order mark, or a start of one, is skipped at the start only', () => {
    // Disallow in place of Google's Allow, so that whether the lines were read shows in the verdict.
    const lines = Buffer.from('User-Agent: foo\nDisallow: /AnyValue\n');
    const read = (body: Buffer) => verdicts(parseRobotsTxt(body), '/AnyValue', ['foo'])[0];
    expect(read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), lines]))).toBe(false);
    expect(read(Buffer.concat([Buffer.from([0xef, 0xbb]), lines]))).toBe(false);
    expect(read(Buffer.concat([Buffer.from([0xef]), lines]))).toBe(false);
    // A broken mark makes its line garbage ("\x11\xBFUser-Agent: foo"), so the rule is outside any group.
    expect(read(Buffer.concat([Buffer.from([0xef, 0x11, 0xbf]), lines]))).toBe(true);
    // In the middle of the file, a mark makes its own line garbage.
    expect(read(Buffer.concat([Buffer.from('User-Agent: foo\n'), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Disallow: /AnyValue\n')]))).toBe(true);
  });

  it('ID_NonStandardLineExample_Sitemap: Sitemap lines anywhere in the file', () => {
    const sitemap = 'http://foo.bar/sitemap.xml';
    const groups = 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n';
    expect(parseRobotsTxt(bytes(`${groups}Sitemap: ${sitemap}\n`)).sitemaps).toEqual([sitemap]);
    expect(parseRobotsTxt(bytes(`Sitemap: ${sitemap}\n${groups}`)).sitemaps).toEqual([sitemap]);
    // Not escaped: read back as UTF-8 text; the typo site-map too.
    expect(parseRobotsTxt(bytes('site-map: https://foo.bar/carte-café.xml\n')).sitemaps).toEqual(['https://foo.bar/carte-café.xml']);
  });
});

describe('robots.txt: our own readings', () => {
  it('keeps digits in a product token, where Google stops at them: AI2Bot names AI2Bot, not AI', () => {
    const robotsTxt = parseRobotsTxt(bytes('User-agent: *\nAllow: /\n\nUser-agent: AI2Bot\nDisallow: /\n\nUser-agent: AI\nDisallow: /ai-only\n'));
    expect(verdicts(robotsTxt, '/', ['AI2Bot', 'ai2bot', 'AI', 'GPTBot'])).toEqual([false, false, true, true]);
    expect(verdicts(robotsTxt, '/ai-only', ['AI2Bot', 'AI'])).toEqual([false, false]);
    expect(namesAgent(robotsTxt, 'ai2bot')).toBe(true);
    expect(namesAgent(robotsTxt, 'GPTBot')).toBe(false);
  });

  it('answers many agents from one reading, in the order asked', () => {
    const robotsTxt = parseRobotsTxt(bytes('User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n\nUser-agent: ccbot\nAllow: /open\n'));
    expect(verdicts(robotsTxt, '/open', ['GPTBot', 'ClaudeBot', 'CCBot'])).toEqual([false, true, true]);
    expect(verdicts(robotsTxt, '/private/x', ['GPTBot', 'ClaudeBot', 'CCBot', 'PerplexityBot'])).toEqual([false, false, false, false]);
  });

  it('keeps the first ten Sitemap lines, each cut to 2083 characters, and ignores empty ones', () => {
    const lines = ['Sitemap:', ...Array.from({ length: 12 }, (_, index) => `Sitemap: https://foo.bar/${index}.xml`), `Sitemap: https://foo.bar/${'x'.repeat(5000)}`];
    const { sitemaps } = parseRobotsTxt(bytes(`${lines.join('\n')}\n`));
    expect(sitemaps).toEqual(Array.from({ length: 10 }, (_, index) => `https://foo.bar/${index}.xml`));
    expect(parseRobotsTxt(bytes(`Sitemap: https://foo.bar/${'x'.repeat(5000)}\n`)).sitemaps[0]).toHaveLength(2083);
  });

  it('a `$` rule with a `*` needs its last part after the parts before it: /*ab*b$ does not match /ab', () => {
    const robotsTxt = 'User-agent: FooBot\nDisallow: /*ab*b$\n';
    // "/ab" ends in "b", but that "b" is the one of "ab": nothing is left for the last part.
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/ab')).toBe(true);
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/abb')).toBe(false);
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/xabyb')).toBe(false);
    expect(isUserAgentAllowed(robotsTxt, 'FooBot', 'http://foo.bar/xaby')).toBe(true);
  });

  it('reads a line only up to a NUL byte, as Google reads a line as a C string', () => {
    expect(isUserAgentAllowed(Buffer.from('User-agent: FooBot\nDisallow: /a\0b\n'), 'FooBot', 'http://foo.bar/ac')).toBe(false);
  });

  it('does not count latin1 white space (0x85, 0xA0) as white space', () => {
    expect(isUserAgentAllowed(Buffer.from('User-agent: FooBot\nDisallow: /a\xa0\n', 'latin1'), 'FooBot', 'http://foo.bar/a')).toBe(true);
    expect(isUserAgentAllowed(Buffer.from('User-agent: FooBot\nDisallow: /a\xa0\n', 'latin1'), 'FooBot', 'http://foo.bar/a%A0')).toBe(false);
  });
});

describe('robots.txt: the cost of a hostile file stays linear', () => {
  // Not timed: jest's timeout is the only bound. A matcher that costs pattern x path, run for each
  // of ~30 agents, takes minutes on these; one that backtracks, longer still.
  it('a rule of 400,000 `*` then `a`, cut like any line, and one of 16,000 `*` then `a`, against a 2,000-character path', () => {
    const path = `/${'b'.repeat(1999)}`;
    const agents = Array.from({ length: 30 }, (_, index) => `Bot${index}`);
    // Cut at 16,663 bytes, the line is `Disallow: /***...`: the `a` is never read.
    const huge = parseRobotsTxt(bytes(`User-agent: *\nDisallow: /${'*'.repeat(400_000)}a\n`));
    expect(verdicts(huge, path, agents)).toEqual(agents.map(() => false));
    const long = parseRobotsTxt(bytes(`User-agent: *\nDisallow: /${'*'.repeat(16_000)}a\n`));
    expect(verdicts(long, path, agents)).toEqual(agents.map(() => true));
    expect(verdicts(long, `${path}a`, agents)).toEqual(agents.map(() => false));
  });

  it('30 rules of 8,000 `*a` then `*b` against an 18,000-character path (as long as 2,000 characters of `ツ`, percent-encoded)', () => {
    const rule = `Disallow: /${'*a'.repeat(8000)}*b`;
    const robotsTxt = parseRobotsTxt(bytes(`User-agent: *\n${Array.from({ length: 30 }, () => rule).join('\n')}\n`));
    const path = `/${'a'.repeat(17_999)}`;
    expect(verdicts(robotsTxt, path, ['GPTBot'])).toEqual([true]);
    expect(verdicts(robotsTxt, `${path}b`, ['GPTBot'])).toEqual([false]);
  });

  it('20,000 rules like /*a*a*a*b against a path of 2,000 `a`', () => {
    const rules = Array.from({ length: 20_000 }, (_, index) => `Disallow: /*a*a*a*b${index % 10}`).join('\n');
    const robotsTxt = parseRobotsTxt(bytes(`User-agent: *\n${rules}\n`));
    const path = `/${'a'.repeat(2000)}`;
    expect(verdicts(robotsTxt, path, ['GPTBot', 'ClaudeBot'])).toEqual([true, true]);
    expect(verdicts(robotsTxt, `${path}b7`, ['GPTBot'])).toEqual([false]);
  });
});
