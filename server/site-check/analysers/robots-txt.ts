/**
 * robots.txt read as Google's open-source parser reads it (github.com/google/robotstxt, the
 * implementation RFC 9309 was written from), with one departure: a user-agent line's product
 * token keeps its digits (see productToken).
 *
 * The reading is byte-based, as Google's is: the body is decoded as latin1, one character per
 * byte, so a byte-order mark, line lengths and the escaping of patterns are counted in bytes.
 *
 * Cost, for a hostile file: reading is linear in the body (each pattern is split at its `*`s,
 * and its pieces' tables built, once). Matching a path against one rule costs the pattern's
 * length plus twice the path's, however many `*`s it has: the pieces between `*`s are found left
 * to right by Knuth-Morris-Pratt, whose place in the path never moves back, and each search
 * starts where the previous one ended. Each group's rules are matched once per path, however
 * many agents fall to that group. So judging every agent costs at most the body plus
 * rules x path. 500 KiB holds at most ~57,000 rules that scan the whole path (`allow:*b`, 9
 * bytes each): ~10^8 character comparisons for a 2,000-character path, about half a second;
 * ~10^9 for an 18,000-character one (2,000 three-byte characters, percent-encoded), seconds.
 * A backtracking matcher pays pattern x path for each rule, and again for each agent.
 */

/** Google keeps 2083 x 8 bytes of a line, the last of them its terminating NUL; the rest is ignored. */
const MAX_LINE_BYTES = 2083 * 8 - 1;
const MAX_SITEMAPS = 10;
const MAX_SITEMAP_LENGTH = 2083;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/** A piece of a pattern between two `*`, with its Knuth-Morris-Pratt failure table. */
interface Piece {
  text: string;
  fail: Int32Array;
}

interface Rule {
  allow: boolean;
  /** RFC 9309 2.2.2: the most specific match wins, counted in octets of the pattern as written (escaped). */
  priority: number;
  /** The pattern up to its first `*`: a prefix of the path. */
  head: string;
  star: boolean;
  /** The pattern ended in `$`: it must reach the end of the path. */
  anchored: boolean;
  /** After the first `*` (and before the last one when anchored): each found at its leftmost place after the one before. */
  pieces: Piece[];
  /** When anchored and with a `*`: what follows the last `*`, a suffix of the path. */
  tail: string;
}

export interface RobotsTxt {
  /** Each group's rules. An empty pattern is left out: it matches with priority 0, which decides nothing. */
  groups: Rule[][];
  /** The groups that name each product token, by the token in lower case. */
  named: Map<string, number[]>;
  /** The groups for `*`. */
  global: number[];
  /** The Sitemap: lines, as written (the first ten). */
  sitemaps: string[];
}

type Kind = 'user-agent' | 'allow' | 'disallow' | 'sitemap';

/** Keys are known by how they start, in any case, with the typos Google forgives; other keys are ignored. */
const KEYS: [Kind, string[]][] = [
  ['user-agent', ['user-agent', 'useragent', 'user agent']],
  ['allow', ['allow']],
  ['disallow', ['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']],
  ['sitemap', ['sitemap', 'site-map']],
];

/** ASCII white space, as C's isspace: space, tab, LF, VT, FF, CR (not latin1's 0x85 or 0xA0). */
const isSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);

function trim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** A line's key and value: `key: value`, or `key value` when a colon was forgotten. */
function directive(raw: string): { kind: Kind | undefined; value: string } | null {
  // Google reads a line as a C string: at most MAX_LINE_BYTES of it, and a NUL byte ends it.
  const nul = raw.indexOf('\0');
  const line = trim(raw.slice(0, Math.min(nul < 0 ? raw.length : nul, MAX_LINE_BYTES)).split('#', 1)[0]!);
  let separator = line.indexOf(':');
  if (separator < 0) {
    // Whitespace stands for the colon only when the line is exactly two words ("disallow /").
    if (!/^[^ \t]+[ \t]+[^ \t]+$/.test(line)) return null;
    separator = line.search(/[ \t]/);
  }
  const key = trim(line.slice(0, separator)).slice(0, 10).toLowerCase();
  if (key === '') return null;
  const kind = KEYS.find(([, spellings]) => spellings.some((spelling) => key.startsWith(spelling)))?.[0];
  return { kind, value: trim(line.slice(separator + 1)) };
}

/**
 * RFC 9309 2.2.1: a user-agent line names a product token, its leading run of token characters
 * ("Foo Bar" names Foo). The RFC's, and Google's, are letters, `_` and `-`; ours add digits, as
 * AI crawlers' tokens have them: Google reads `User-agent: AI2Bot` as AI, and judges AI2Bot by `*`.
 */
const productToken = (value: string) => /^[A-Za-z0-9_-]*/.exec(value)![0];

/** `*` alone, or followed by white space and anything ("* foo"), is the global group. */
const isGlobal = (value: string) => value[0] === '*' && (value.length === 1 || isSpace(value.charCodeAt(1)));

/** Patterns are compared escaped: octets above 0x7F become %XX, and %xx escapes are upper-cased. */
function escapePattern(value: string): string {
  return value.replace(/%[0-9a-fA-F]{2}|[\x80-\xff]/g, (match) => (match.length === 3 ? match.toUpperCase() : `%${match.charCodeAt(0).toString(16).toUpperCase()}`));
}

function piece(text: string): Piece {
  const fail = new Int32Array(text.length);
  for (let at = 1, matched = 0; at < text.length; at++) {
    while (matched > 0 && text[at] !== text[matched]) matched = fail[matched - 1]!;
    if (text[at] === text[matched]) matched++;
    fail[at] = matched;
  }
  return { text, fail };
}

/** RFC 9309 2.2.3: `*` is any run of characters; `$` ends the pattern only as its last character. */
function compile(pattern: string, allow: boolean): Rule {
  const anchored = pattern.endsWith('$');
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const head = parts[0]!;
  const star = parts.length > 1;
  const tail = anchored && star ? parts.pop()! : '';
  // Runs of `*` leave empty pieces, and match as one `*` does.
  const pieces = parts.slice(1).filter((part) => part !== '').map(piece);
  return { allow, priority: pattern.length, head, star, anchored, pieces, tail };
}

/** Where the leftmost occurrence of the piece at or after `from` ends, or -1. */
function find({ text, fail }: Piece, path: string, from: number): number {
  for (let at = from, matched = 0; at < path.length; at++) {
    while (matched > 0 && path.charCodeAt(at) !== text.charCodeAt(matched)) matched = fail[matched - 1]!;
    if (path.charCodeAt(at) === text.charCodeAt(matched)) matched++;
    if (matched === text.length) return at + 1;
  }
  return -1;
}

/** Each piece at its leftmost place leaves the most room for the rest, so the first way found is the only one to try. */
function matches(rule: Rule, path: string): boolean {
  if (!path.startsWith(rule.head)) return false;
  if (!rule.star) return !rule.anchored || path.length === rule.head.length;
  let at = rule.head.length;
  for (const piece of rule.pieces) {
    at = find(piece, path, at);
    if (at < 0) return false;
  }
  return !rule.anchored || (path.length - rule.tail.length >= at && path.endsWith(rule.tail));
}

/** Reads a robots.txt body once, for as many paths and agents as asked. */
export function parseRobotsTxt(body: Uint8Array): RobotsTxt {
  const robots: RobotsTxt = { groups: [], named: new Map(), global: [], sitemaps: [] };
  // A byte-order mark at the start is skipped, and so is any start of one (EF, or EF BB).
  let start = 0;
  while (start < BYTE_ORDER_MARK.length && body[start] === BYTE_ORDER_MARK[start]) start++;
  const text = Buffer.from(body.buffer, body.byteOffset + start, body.byteLength - start).toString('latin1');
  let group = -1;
  let inRules = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const read = directive(line);
    if (!read) continue;
    const { kind, value } = read;
    if (kind === 'user-agent') {
      // RFC 9309 2.1: a group is one or more user-agent lines, then rules; a user-agent line after a rule starts the next.
      if (group < 0 || inRules) {
        group = robots.groups.push([]) - 1;
        inRules = false;
      }
      const token = productToken(value).toLowerCase();
      const groups = isGlobal(value) ? robots.global : (robots.named.get(token) ?? robots.named.set(token, []).get(token)!);
      if (groups.at(-1) !== group) groups.push(group);
    } else if (kind === 'allow' || kind === 'disallow') {
      // Rules before any user-agent line belong to no group and are ignored.
      if (group < 0) continue;
      inRules = true;
      const rules = robots.groups[group]!;
      const pattern = escapePattern(value);
      if (pattern !== '') rules.push(compile(pattern, kind === 'allow'));
      // Google reads an Allow for /dir/index.html (or /dir/index.htm...) as allowing /dir/ too.
      const slash = pattern.lastIndexOf('/');
      if (kind === 'allow' && slash >= 0 && pattern.startsWith('/index.htm', slash)) rules.push(compile(`${pattern.slice(0, slash + 1)}$`, true));
    } else if (kind === 'sitemap' && value !== '' && robots.sitemaps.length < MAX_SITEMAPS) {
      robots.sitemaps.push(Buffer.from(value, 'latin1').toString('utf8').slice(0, MAX_SITEMAP_LENGTH));
    }
  }
  return robots;
}

/** Whether some group names the agent, so that only such groups, not `*`'s, decide for it. */
export function namesAgent(robots: RobotsTxt, agent: string): boolean {
  return robots.named.has(agent.toLowerCase());
}

/**
 * Whether each agent may fetch `pathAndQuery`: the path and query of the URL as it will be
 * fetched, percent-encoded as the URL carries them. RFC 9309 2.2.1: an agent that some group
 * names obeys only those groups, else the `*` groups, else everything is allowed.
 */
export function verdicts(robots: RobotsTxt, pathAndQuery: string, agents: readonly string[]): boolean[] {
  const longest: [allow: number, disallow: number][] = [];
  const longestIn = (group: number) => {
    let found = longest[group];
    if (!found) {
      found = [0, 0];
      for (const rule of robots.groups[group]!) {
        const kind = rule.allow ? 0 : 1;
        if (rule.priority > found[kind] && matches(rule, pathAndQuery)) found[kind] = rule.priority;
      }
      longest[group] = found;
    }
    return found;
  };
  const byGroups = new Map<readonly number[], boolean>();
  return agents.map((agent) => {
    const groups = robots.named.get(agent.toLowerCase()) ?? robots.global;
    let allowed = byGroups.get(groups);
    if (allowed === undefined) {
      let allow = 0;
      let disallow = 0;
      for (const group of groups) {
        const [groupAllow, groupDisallow] = longestIn(group);
        allow = Math.max(allow, groupAllow);
        disallow = Math.max(disallow, groupDisallow);
      }
      // RFC 9309 2.2.2: the longest match wins and Allow wins a tie; no match (0) allows.
      allowed = disallow <= allow;
      byGroups.set(groups, allowed);
    }
    return allowed;
  });
}
