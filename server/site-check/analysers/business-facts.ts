import { findPhoneNumbersInText, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { StartTag } from 'parse5-sax-parser';
import { excerpt } from '../../../shared/excerpt';
import { BUSINESS_TEXT_LIMIT, FACTS_PER_KIND, type BusinessFacts, type FactSource, type SiteFact } from '../../business/business-facts';
import { isPlace } from '../../business/search-words';
import type { FetchedText } from './fetched-text';
import { analyseHomePage, declaresOrganization, eachJsonLdNode, shortType, type HomePageAnalysis, type PageListener } from './home-page';

/**
 * What a business's own page states about it: telephone numbers, e-mail addresses, its address
 * and postcode, its town, its opening hours and the services it lists, each with where it was
 * read (its structured data, its tel: and mailto: links, or its visible text), and the page's
 * readable text.
 *
 * The page is a stranger's. It is read in the home page's own pass (home-page.ts's tokenizer, one
 * pass, no tree: this reader is fed its tags, visible text and JSON-LD), and every search here
 * costs a bounded amount per character: no regular expression that can backtrack over its input
 * (each is tried at a start and matches a bounded length), e-mail addresses cut by hand around
 * each "@", phone numbers looked for by libphonenumber-js only in short runs of the characters a
 * number is written with (a long run in windows of PHONE_WINDOW characters), and at most
 * PHONE_SEARCHES of those on a page. Each value is cut to a length a report can show and each
 * kind capped at FACTS_PER_KIND; once a kind is full it is not looked for any more.
 */

/** The facts of one page, and where it links its own contact page. */
export interface PageFacts extends Omit<BusinessFacts, 'contactPage'> {
  /** The page's first link to a contact page on its own origin ("/contact", "Get in touch"), made absolute; null: none. */
  contactLink: string | null;
}

type Kind = 'phones' | 'emails' | 'addresses' | 'postcodes' | 'towns' | 'openingHours' | 'services';
type From = FactSource['from'];

const KINDS: readonly Kind[] = ['phones', 'emails', 'addresses', 'postcodes', 'towns', 'openingHours', 'services'];

/** The facts of every kind, each list made by `of`. */
const eachKind = (of: (kind: Kind) => SiteFact[]) => Object.fromEntries(KINDS.map((kind) => [kind, of(kind)])) as Record<Kind, SiteFact[]>;
/** The order facts are trusted in: what a page declares for machines, then what it links, then what it says. */
const TRUST: readonly From[] = ['structured data', 'link', 'text'];

/** How much of each value is kept. */
export const VALUE_LIMITS: Record<Kind, number> = { phones: 40, emails: 254, addresses: 200, postcodes: 8, towns: 60, openingHours: 120, services: 100 };

/** The text between block boundaries is read in chunks of this size, each with the end of the one before (a fact cut in two is read whole). */
const CHUNK = 2000;
const CHUNK_OVERLAP = 100;
/** A line longer than this is prose, not a line of opening hours. */
const HOURS_LINE = 200;
/**
 * A run of number characters longer than this is searched in windows of this length, each
 * PHONE_STEP after the one before; a window keeps the numbers that start in its middle third,
 * which it reads whole, with the characters before them (a number is at most PHONE_STEP long).
 * libphonenumber-js costs more than linearly on a long run (40,000 characters of "1 1 1 ..."
 * took 504 ms, 10,000 took 61 ms); a window of 96 costs 0.6 ms at worst.
 */
const PHONE_WINDOW = 96;
const PHONE_STEP = PHONE_WINDOW / 3;
/** The most runs (or windows) of a page given to the phone number finder. */
export const PHONE_SEARCHES = 100;
/** The fewest digits a UK telephone number is written with (a national number of 9 digits, without its 0). */
const PHONE_DIGITS = 9;
/** The longest link or heading text read. */
const LABEL_LIMIT = 200;

const bounded = (value: string, limit: number): string => excerpt(value.slice(0, limit * 4), limit);

/**
 * What makes two facts of a kind the same: a telephone number's digits as an international number
 * ("0113 496 0000" and "+44 (0)113 496 0000"), an e-mail address in lower case, a postcode
 * without its spacing, an address's postcode (one business at one postcode is at one address,
 * however it is written), other text's letters and digits in lower case.
 */
function factKey(kind: Kind, value: string): string {
  if (kind === 'phones') return parsePhoneNumberFromString(value, 'GB')?.number ?? value.replace(/\D/g, '');
  if (kind === 'emails') return value.toLowerCase();
  if (kind === 'postcodes') return value.replace(/\s/g, '').toUpperCase();
  if (kind === 'addresses') {
    const postcode = FIRST_POSTCODE.exec(value)?.[0];
    if (postcode !== undefined) return factKey('postcodes', postcode);
  }
  return value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Up to FACTS_PER_KIND distinct values of one kind from one source, in the order they were read. */
class FactList {
  readonly values: string[] = [];
  private readonly keys = new Set<string>();

  constructor(private readonly kind: Kind) {}

  get full(): boolean {
    return this.values.length >= FACTS_PER_KIND;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  add(raw: string): void {
    if (this.full) return;
    const value = bounded(raw, VALUE_LIMITS[this.kind]);
    const key = factKey(this.kind, value);
    if (value === '' || key === '' || this.keys.has(key)) return;
    this.keys.add(key);
    this.values.push(value);
  }
}

/** Facts of one kind, however many sources and pages, as kept: the most trusted first, each once, FACTS_PER_KIND at most. */
function keepFacts(kind: Kind, facts: readonly SiteFact[]): SiteFact[] {
  const rank = (fact: SiteFact) => TRUST.indexOf(fact.source.from) * 2 + (fact.source.page === 'home page' ? 0 : 1);
  const kept: SiteFact[] = [];
  const keys = new Set<string>();
  for (const fact of [...facts].sort((a, b) => rank(a) - rank(b))) {
    const key = factKey(kind, fact.value);
    if (keys.has(key)) continue;
    keys.add(key);
    kept.push(fact);
    if (kept.length === FACTS_PER_KIND) break;
  }
  return kept;
}

/* ------------------------------------------------------------------------------------------ */
/* Text patterns. Each is tried at a start and matches a bounded length: linear on any text.   */

/** A UK postcode ("LS1 5HD", "SW1A 1AA", "ls15hd"): the inward code's letters are never C, I, K, M, O or V. */
const POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?[ \u00a0]?\d[ABD-HJLNP-UW-Z]{2}\b/gi;
/** The first postcode of a text (no state kept between searches, unlike POSTCODE). */
const FIRST_POSTCODE = new RegExp(POSTCODE.source, 'i');
const WHOLE_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}$/i;
/** A day, or a run of them, as opening hours name them. */
const DAYS = /\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thurs?|thu|fri|sat|sun|weekdays?|weekends?|daily|every day|7 days|seven days|bank holidays?)\b/i;
/** A time ("8am", "8.30 pm", "08:00"), a range of hours ("9-5"), or closed. */
const TIMES = /\b\d{1,2}(?:[:.]\d{2})? ?[ap]\.?m\b|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2} ?[-–] ?\d{1,2}\b|\b(?:noon|midday|midnight|closed)\b/i;
/** Open all hours. */
const ALWAYS_OPEN = /\b24 ?\/ ?7\b|\b24 hours\b|\bopen 24\b/i;
/** A heading over the services a business lists. */
const SERVICES_HEADING = /\b(?:services|what we do|treatments|we offer)\b/i;
/** A link's text that leads to the contact page. */
const CONTACT_TEXT = /\bcontact\b|\bget in touch\b/i;
const CONTACT_IN_HREF = /contact|get-in-touch/i;
/** The last part of a path that is a contact page ("/contact", "/contact-us.html", "/get-in-touch"). */
const CONTACT_PATH = /^(?:contact(?:[-_]?us)?|get-in-touch)(?:\.[a-z]{2,5})?$/;
/** Parts of an address that name a county or a nation, not a town ("West Yorkshire", "Kent", "UK"). */
const NOT_A_TOWN = new Set(['england', 'scotland', 'wales', 'northern ireland', 'uk', 'united kingdom', 'great britain', 'gb', 'kent', 'surrey', 'essex', 'sussex', 'east sussex', 'west sussex', 'norfolk', 'suffolk', 'devon', 'cornwall', 'dorset', 'somerset', 'cumbria', 'merseyside', 'middlesex', 'tyne and wear', 'county durham', 'west midlands', 'greater london', 'greater manchester']);
const isCounty = (part: string) => {
  const key = part.toLowerCase();
  return NOT_A_TOWN.has(key) || key.endsWith('shire') || key.startsWith('county ');
};

const isSpace = (code: number) => code === 32 || code === 0xa0;
/**
 * Whether the character at `at` stands between two numbers rather than inside one: the second of
 * two spaces, a dash with a space either side ("0113 496 0000 - 07700 900123"), a full stop before
 * a space. libphonenumber-js finds numbers one after the other, but not one that follows the end
 * of another in the same run of digits and separators.
 */
function separatesNumbers(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (isSpace(code)) return isSpace(text.charCodeAt(at - 1));
  if (code === 45) return isSpace(text.charCodeAt(at - 1)) && isSpace(text.charCodeAt(at + 1));
  return code === 46 && (at + 1 === text.length || isSpace(text.charCodeAt(at + 1)));
}

/** Characters a telephone number is written with: digits and what separates them. */
const isPhoneChar = (code: number) => (code >= 48 && code <= 57) || code === 32 || code === 0xa0 || code === 43 || code === 40 || code === 41 || code === 45 || code === 46;
const isDigit = (code: number) => code >= 48 && code <= 57;
const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);
/** Characters of an e-mail address's local part, and of its domain. */
const isLocalChar = (code: number) => isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 46 || code === 95 || code === 37 || code === 43 || code === 45;
const isDomainChar = (code: number) => isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 46 || code === 45;

/** The e-mail address around the "@" at `at`, or null. Reads at most 64 characters before it and 254 after (an address is no longer). */
function emailAt(text: string, at: number): string | null {
  let start = at;
  while (start > 0 && at - start < 64 && isLocalChar(text.charCodeAt(start - 1))) start -= 1;
  if (start === at || (start > 0 && isLocalChar(text.charCodeAt(start - 1)))) return null;
  let end = at + 1;
  while (end < text.length && end - at <= 253 && isDomainChar(text.charCodeAt(end))) end += 1;
  if (end < text.length && isDomainChar(text.charCodeAt(end))) return null;
  // A sentence's full stop after the address is not its own.
  while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end -= 1;
  while (start < at && text[start] === '.') start += 1;
  const local = text.slice(start, at);
  const domain = text.slice(at + 1, end);
  const labels = domain.split('.');
  if (local === '' || labels.length < 2 || labels.some((label) => label === '')) return null;
  if (!/^[a-z]{2,}$/i.test(labels.at(-1) ?? '')) return null;
  return `${local}@${domain}`;
}

/** The days of an OpeningHoursSpecification, a run of three or more as one ("Monday-Friday"). */
const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
function daysOf(value: unknown): string {
  const days = strings(value, 14).map((day) => shortType(day.trim()));
  const indexes = days.map((day) => WEEK.indexOf(day));
  const run = indexes.length >= 3 && indexes.every((index, position) => index !== -1 && (position === 0 || index === (indexes[position - 1] ?? -2) + 1));
  return run ? `${days[0] ?? ''}-${days.at(-1) ?? ''}` : days.join(', ');
}
/** "08:00:00" is 08:00. */
const time = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 20).replace(/^(\d{1,2}:\d{2}):00$/, '$1') : '');

/** The strings a JSON-LD value holds: itself, or the strings of an array (the first `most`), or a node's name. */
function strings(value: unknown, most: number = FACTS_PER_KIND * 10): string[] {
  const found: string[] = [];
  for (const item of (Array.isArray(value) ? value : [value]).slice(0, most)) {
    const name: unknown = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).name : item;
    if (typeof name === 'string') found.push(name);
  }
  return found;
}
const objects = (value: unknown): Record<string, unknown>[] =>
  (Array.isArray(value) ? value : [value]).slice(0, FACTS_PER_KIND * 10).filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object' && !Array.isArray(item));
const typesOf = (record: Record<string, unknown>): string[] => {
  const declared = record['@type'];
  return (Array.isArray(declared) ? declared : [declared]).filter((type): type is string => typeof type === 'string').map(shortType);
};

/** Elements that start and end a block of text (a line of an address, a row of opening hours). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'button', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html', 'legend', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tr', 'ul',
]);
/** A table's cells stay on their row's line ("Monday | 8am-6pm"), kept apart by a tab. */
const CELLS = new Set(['td', 'th']);
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const LANDMARKS = new Set(['header', 'footer', 'nav', 'aside']);
const HEADING_LEVEL: ReadonlyMap<string, number> = new Map([['h1', 1], ['h2', 2], ['h3', 3], ['h4', 4], ['h5', 5], ['h6', 6]]);

/** Text gathered up to a bound (a link's, a heading's, a list item's). */
class Label {
  text = '';
  add(piece: string): void {
    if (this.text.length < LABEL_LIMIT * 4) this.text += piece.slice(0, LABEL_LIMIT * 4);
  }
  value(): string {
    return bounded(this.text, LABEL_LIMIT);
  }
}

/** The page's readable text: white space collapsed, block boundaries a space, BUSINESS_TEXT_LIMIT characters at most. */
class ReadableText {
  text = '';
  private space = false;

  add(piece: string): void {
    for (let at = 0; at < piece.length && this.text.length < BUSINESS_TEXT_LIMIT; at += 4096) {
      let words = piece.slice(at, at + 4096).replace(/\s+/g, ' ');
      if (words.startsWith(' ')) {
        this.space = true;
        words = words.slice(1);
      }
      const trailing = words.endsWith(' ');
      if (trailing) words = words.slice(0, -1);
      if (words !== '') {
        if (this.space && this.text !== '') this.text += ' ';
        this.text += words;
        this.space = false;
      }
      if (trailing) this.space = true;
    }
  }

  boundary(): void {
    this.space = true;
  }

  value(): string {
    return this.text.slice(0, BUSINESS_TEXT_LIMIT);
  }
}

/**
 * Reads one page's facts from the events of home-page.ts's pass (a PageListener): its JSON-LD,
 * its links and its visible text. `page` says which page it is; `url` is its address, links are
 * resolved against it and a contact link must share its origin.
 */
class BusinessFactsReader implements PageListener {
  private readonly lists = Object.fromEntries(TRUST.map((from) => [from, Object.fromEntries(KINDS.map((kind) => [kind, new FactList(kind)]))])) as Record<From, Record<Kind, FactList>>;
  private readonly origin: string;
  /** This page's own address without its fragment: a link to it ("#contact") leads nowhere new. */
  private readonly here: string;
  private readonly readable = new ReadableText();
  /** The block of text being read: '\n' for a <br>, '\t' between a row's cells. */
  private block = '';
  /** Open elements, counted (no stack): a services section ends when the element its heading stands in closes. */
  private depth = 0;
  private heading: { level: number; depth: number; label: Label } | null = null;
  /** The services section being read: its heading's level, how many elements were open around it, and whether in a header, footer, nav or aside. */
  private services: { level: number; depth: number; inLandmark: boolean } | null = null;
  /** Headers, footers, navs and asides open. */
  private landmarks = 0;
  private item: { label: Label; named: boolean } | null = null;
  private anchor: { href: string; label: Label } | null = null;
  private contactLink: string | null = null;
  private phoneSearches = 0;
  private readonly runsSearched = new Set<string>();

  constructor(
    private readonly page: FactSource['page'],
    private readonly url: string,
  ) {
    const here = new URL(url);
    here.hash = '';
    this.origin = here.origin;
    this.here = here.href;
  }

  private add(kind: Kind, from: From, value: string): void {
    this.lists[from][kind].add(value);
  }

  private full(kind: Kind, from: From): boolean {
    return this.lists[from][kind].full;
  }

  startTag(tag: StartTag): void {
    const name = tag.tagName;
    if (BLOCKS.has(name)) this.endBlock();
    else if (name === 'br') this.lineBreak();
    else if (CELLS.has(name)) this.cell();
    if (name === 'a') this.startAnchor(tag);
    const level = HEADING_LEVEL.get(name);
    if (level !== undefined && !tag.selfClosing) {
      this.endHeading();
      this.heading = { level, depth: this.depth, label: new Label() };
    }
    if (LANDMARKS.has(name) && !tag.selfClosing) {
      this.landmarks += 1;
      // A services section of the page's main content ends where its header, footer or menus begin.
      if (this.services !== null && !this.services.inLandmark) {
        this.endItem();
        this.services = null;
      }
    }
    if (name === 'li' && this.services !== null) {
      this.endItem();
      this.item = { label: new Label(), named: false };
    }
    if (!tag.selfClosing && !VOID_ELEMENTS.has(name)) this.depth += 1;
  }

  endTag(name: string): void {
    if (BLOCKS.has(name)) this.endBlock();
    else if (CELLS.has(name)) this.cell();
    if (name === 'a') this.endAnchor();
    if (HEADING_LEVEL.has(name)) this.endHeading();
    if (name === 'li') this.endItem();
    if (LANDMARKS.has(name) && this.landmarks > 0) this.landmarks -= 1;
    if (!VOID_ELEMENTS.has(name) && this.depth > 0) this.depth -= 1;
    // The element the services heading stands in has closed: so has the section.
    if (this.services !== null && this.depth < this.services.depth) {
      this.endItem();
      this.services = null;
    }
  }

  text(text: string): void {
    this.readable.add(text);
    this.heading?.label.add(text);
    this.item?.label.add(text);
    this.anchor?.label.add(text);
    // The page's own line breaks are spaces: a line of text is what its markup makes one.
    for (let at = 0; at < text.length; ) {
      const room = CHUNK - this.block.length;
      this.append(text.slice(at, at + room).replace(/[\t\n\r\f\v]/g, ' '));
      at += room;
    }
  }

  /** Text onto the block; a block grown to CHUNK is read, and the next chunk starts with its end. */
  private append(piece: string): void {
    this.block += piece;
    if (this.block.length < CHUNK) return;
    this.readBlock(this.block);
    this.block = this.block.slice(-CHUNK_OVERLAP);
  }

  jsonLd(value: unknown): void {
    eachJsonLdNode(value, (record, types) => {
      if (declaresOrganization(types)) this.readOrganization(record);
      if (types.includes('PostalAddress')) this.readPostalAddress(record);
      if (types.includes('ContactPoint')) this.readContactPoint(record);
      if (types.includes('OpeningHoursSpecification')) this.readSpecification(record);
      if (types.includes('Service') && typeof record.name === 'string') this.add('services', 'structured data', record.name);
      for (const service of strings(record.serviceType)) this.add('services', 'structured data', service);
      for (const offered of strings(record.itemOffered)) this.add('services', 'structured data', offered);
    });
  }


  /** The facts read, the page's first contact link, and its readable text. */
  facts(): PageFacts {
    this.endBlock();
    this.endHeading();
    this.endItem();
    this.endAnchor();
    const of = (kind: Kind) =>
      keepFacts(
        kind,
        TRUST.flatMap((from) => this.lists[from][kind].values.map((value) => ({ value, source: { page: this.page, from } }))),
      );
    return {
      ...eachKind(of),
      contactLink: this.contactLink,
      text: this.readable.value(),
    };
  }

  /* Structured data ------------------------------------------------------------------------ */

  private readOrganization(record: Record<string, unknown>): void {
    for (const phone of strings(record.telephone)) this.readPhone(phone, 'structured data');
    for (const email of strings(record.email)) this.readEmail(email, 'structured data');
    for (const address of Array.isArray(record.address) ? record.address.slice(0, FACTS_PER_KIND * 10) : [record.address]) {
      if (typeof address === 'string') this.readAddressText(address, 'structured data');
      // A typed PostalAddress is read where the walk meets it.
      else if (address !== null && typeof address === 'object' && typesOf(address as Record<string, unknown>).length === 0) this.readPostalAddress(address as Record<string, unknown>);
    }
    for (const hours of strings(record.openingHours)) this.add('openingHours', 'structured data', hours);
    for (const specification of objects(record.openingHoursSpecification)) if (typesOf(specification).length === 0) this.readSpecification(specification);
    for (const contact of objects(record.contactPoint)) if (typesOf(contact).length === 0) this.readContactPoint(contact);
    for (const subject of strings(record.knowsAbout)) this.add('services', 'structured data', subject);
  }

  private readContactPoint(record: Record<string, unknown>): void {
    for (const phone of strings(record.telephone)) this.readPhone(phone, 'structured data');
    for (const email of strings(record.email)) this.readEmail(email, 'structured data');
  }

  private readPostalAddress(record: Record<string, unknown>): void {
    const part = (value: unknown) => (typeof value === 'string' ? bounded(value, VALUE_LIMITS.addresses) : '');
    const street = part(record.streetAddress);
    const town = part(record.addressLocality);
    const postcode = part(record.postalCode);
    if (street !== '') this.add('addresses', 'structured data', [street, town, postcode].filter((item) => item !== '').join(', '));
    if (town !== '') this.add('towns', 'structured data', town);
    if (WHOLE_POSTCODE.test(postcode)) this.add('postcodes', 'structured data', postcode);
  }

  private readSpecification(record: Record<string, unknown>): void {
    const days = daysOf(record.dayOfWeek);
    const opens = time(record.opens);
    const closes = time(record.closes);
    const hours = opens === '00:00' && closes === '00:00' ? 'closed' : [opens, closes].filter((item) => item !== '').join('-');
    const line = [days, hours].filter((item) => item !== '').join(' ');
    if (line !== '') this.add('openingHours', 'structured data', line);
  }

  private readPhone(value: string, from: From): void {
    const digits = value.slice(0, VALUE_LIMITS.phones * 2).replace(/\D/g, '').length;
    if (digits >= 7 && digits <= 15) this.add('phones', from, value.trim());
  }

  private readEmail(value: string, from: From): void {
    const address = value.trim().replace(/^mailto:/i, '');
    const at = address.indexOf('@');
    if (at > 0 && emailAt(address, at) === address) this.add('emails', from, address);
  }

  /** An address written as one string (structured data's, or a line of the page): itself, its postcode and its town. */
  private readAddressText(address: string, from: From): void {
    const text = bounded(address, VALUE_LIMITS.addresses);
    this.add('addresses', from, text);
    const match = FIRST_POSTCODE.exec(text);
    if (match) {
      this.add('postcodes', from, match[0]);
      this.readTown(text.slice(0, match.index), from);
    }
  }

  /** The town of an address, from the text before its postcode: the last part that is a UK place, a county only when no town is named. */
  private readTown(before: string, from: From): void {
    if (this.full('towns', from)) return;
    const parts = before.split(',').map((part) => part.trim()).filter((part) => part !== '').slice(-4).reverse();
    let county: string | null = null;
    for (const part of parts) {
      const words = part.split(/\s+/);
      for (let length = Math.min(3, words.length); length >= 1; length -= 1) {
        const phrase = words.slice(-length).join(' ');
        if (!isPlace(phrase)) continue;
        if (!isCounty(phrase)) return this.add('towns', from, phrase);
        county ??= phrase;
        break;
      }
    }
    if (county !== null) this.add('towns', from, county);
  }

  /* Links ---------------------------------------------------------------------------------- */

  private startAnchor(tag: StartTag): void {
    this.endAnchor();
    const href = (tag.attrs.find((attr) => attr.name === 'href')?.value ?? '').trim();
    const scheme = href.slice(0, 7).toLowerCase();
    if (scheme.startsWith('tel:')) this.readPhone(decoded(href.slice(4, 4 + VALUE_LIMITS.phones * 3)), 'link');
    else if (scheme === 'mailto:') {
      // "mailto:a@x.co.uk,b@x.co.uk?subject=Hello": each address, the query left off.
      const addresses = decoded(href.slice(7, 7 + VALUE_LIMITS.emails * 3).split('?')[0] ?? '');
      for (const address of addresses.split(',').slice(0, FACTS_PER_KIND)) this.readEmail(address, 'link');
    } else if (this.contactLink === null && href !== '') this.anchor = { href: href.slice(0, 2000), label: new Label() };
  }

  private endAnchor(): void {
    const anchor = this.anchor;
    this.anchor = null;
    if (anchor === null || this.contactLink !== null) return;
    const label = anchor.label.value();
    if (!CONTACT_TEXT.test(label) && !CONTACT_IN_HREF.test(anchor.href)) return;
    let target: URL;
    try {
      target = new URL(anchor.href, this.url);
    } catch {
      return;
    }
    target.hash = '';
    // Only the site's own pages, and not this one ("#contact").
    if (target.origin !== this.origin || target.href === this.here || target.href.length > 2000) return;
    const last = target.pathname.toLowerCase().split('/').filter((part) => part !== '').at(-1) ?? '';
    if (CONTACT_PATH.test(last) || CONTACT_TEXT.test(label)) this.contactLink = target.href;
  }

  /* Headings and the services they head ---------------------------------------------------- */

  private endHeading(): void {
    const heading = this.heading;
    this.heading = null;
    if (heading === null) return;
    const text = heading.label.value();
    if (this.services !== null && heading.level <= this.services.level) {
      this.endItem();
      this.services = null;
    }
    if (this.services !== null) {
      // A heading inside the services section names one, and the list item it stands in.
      if (this.item !== null) this.item.named = true;
      this.addService(text);
    } else if (SERVICES_HEADING.test(text)) {
      this.endItem();
      this.services = { level: heading.level, depth: heading.depth, inLandmark: this.landmarks > 0 };
    }
  }

  private endItem(): void {
    const item = this.item;
    this.item = null;
    if (item !== null && !item.named && this.services !== null) this.addService(item.label.value());
  }

  private addService(text: string): void {
    // A long item is a description, not the name of a service.
    if (text.length < LABEL_LIMIT / 2 && /\p{L}/u.test(text)) this.add('services', 'text', text);
  }

  /* Lines of text -------------------------------------------------------------------------- */

  private lineBreak(): void {
    this.readable.boundary();
    this.append('\n');
  }

  private cell(): void {
    this.readable.boundary();
    this.append('\t');
  }

  private endBlock(): void {
    this.readable.boundary();
    if (this.block !== '') this.readBlock(this.block);
    this.block = '';
  }

  /** One block of text (or a chunk of a long one): the facts it states. */
  private readBlock(block: string): void {
    if (!/\S/.test(block)) return;
    if (!this.full('phones', 'text') && this.phoneSearches < PHONE_SEARCHES) this.readPhones(block);
    if (!this.full('emails', 'text')) {
      for (let at = block.indexOf('@'); at !== -1; at = block.indexOf('@', at + 1)) {
        const address = emailAt(block, at);
        if (address !== null) this.add('emails', 'text', address);
        if (this.full('emails', 'text')) break;
      }
    }
    if (!this.full('postcodes', 'text')) this.readPostcodes(block);
    if (!this.full('openingHours', 'text')) {
      for (const line of block.split('\n')) {
        if (line.length > HOURS_LINE) continue;
        if ((DAYS.test(line) && TIMES.test(line)) || ALWAYS_OPEN.test(line)) this.add('openingHours', 'text', line.replace(/\t/g, ' '));
      }
    }
  }

  /**
   * Telephone numbers as written: each run of the characters numbers are written with that holds
   * enough digits is given to libphonenumber-js (UK by default), a long run in overlapping windows,
   * PHONE_SEARCHES runs or windows a page at most. A number is kept when it is valid, or has a UK
   * number's shape (ten digits after the 0: Ofcom's numbers for drama are no valid number); written
   * with its leading 0 or +, so that a reference or an order number is not taken for one.
   */
  private readPhones(block: string): void {
    let start = -1;
    let digits = 0;
    for (let at = 0; at <= block.length; at += 1) {
      const code = at < block.length ? block.charCodeAt(at) : -1;
      if (code !== -1 && isPhoneChar(code) && !separatesNumbers(block, at)) {
        if (start === -1) start = at;
        if (isDigit(code)) digits += 1;
        continue;
      }
      if (start !== -1 && digits >= PHONE_DIGITS) this.searchRun(block, start, at);
      start = -1;
      digits = 0;
      if (this.full('phones', 'text') || this.phoneSearches >= PHONE_SEARCHES) return;
    }
  }

  private searchRun(block: string, start: number, end: number): void {
    if (end - start <= PHONE_WINDOW) return this.searchWindow(block, start, end, 0, PHONE_WINDOW);
    for (let core = start; core < end && this.phoneSearches < PHONE_SEARCHES; core += PHONE_STEP) {
      const from = Math.max(start, core - PHONE_STEP);
      this.searchWindow(block, from, Math.min(end, core + 2 * PHONE_STEP), core - from, core - from + PHONE_STEP);
    }
  }

  /** Numbers in block[start, end) that start at `lo` to `hi` of it. */
  private searchWindow(block: string, start: number, end: number, lo: number, hi: number): void {
    const run = block.slice(start, end);
    const key = `${lo} ${run}`;
    if (this.runsSearched.has(key)) return;
    if (this.runsSearched.size < PHONE_SEARCHES) this.runsSearched.add(key);
    this.phoneSearches += 1;
    for (const found of findPhoneNumbersInText(run, { defaultCountry: 'GB', extended: true })) {
      if (found.startsAt < lo || found.startsAt >= hi) continue;
      const written = run.slice(found.startsAt, found.endsAt);
      // Not part of a word or a longer code ("REF0113496000").
      if (isWordChar(block[start + found.startsAt - 1]) || isWordChar(block[start + found.endsAt])) continue;
      const { number } = found;
      const ukShape = number.countryCallingCode === '44' && number.nationalNumber.length === 10;
      if (/^\(?[+0]/.test(written) && (ukShape || number.isValid())) this.add('phones', 'text', written);
    }
  }

  /** Each postcode of a block, the address line that holds it, and that address's town. */
  private readPostcodes(block: string): void {
    const seen = this.lists.text.postcodes;
    POSTCODE.lastIndex = 0;
    for (let match = POSTCODE.exec(block); match !== null; match = POSTCODE.exec(block)) {
      const postcode = match[0].replace(/\u00a0/g, ' ');
      // A postcode read before has had its address read.
      if (seen.has(factKey('postcodes', postcode))) continue;
      this.add('postcodes', 'text', postcode);
      const address = addressLine(block, match.index, match.index + match[0].length);
      this.add('addresses', 'text', address);
      this.readTown(address.slice(0, address.length - match[0].length), 'text');
      if (seen.full) return;
    }
  }
}

/**
 * The address line a postcode ends: its line of the block, from after a label ("Address:") or the
 * sentence before; with the lines above it when its own holds little more than a town (an address
 * written one part to a line), as many as fit, none that is a label, a telephone or an e-mail.
 */
function addressLine(block: string, start: number, end: number): string {
  const lineStart = block.lastIndexOf('\n', start - 1) + 1;
  let before = block.slice(Math.max(lineStart, start - VALUE_LIMITS.addresses), start);
  const cut = Math.max(before.lastIndexOf(': '), before.lastIndexOf('. '), before.lastIndexOf('\t'));
  if (cut !== -1) before = before.slice(cut + 1);
  const parts = [`${before.trim().replace(/,$/, '')} ${block.slice(start, end)}`.trim()];
  let length = parts[0]?.length ?? 0;
  if (cut === -1 && before.trim().split(/\s+/).length <= 3) {
    const from = Math.max(0, lineStart - VALUE_LIMITS.addresses);
    const above = block.slice(from, Math.max(0, lineStart - 1)).split('\n');
    // The first line may be cut: it is not read.
    if (from > 0) above.shift();
    for (const line of above.slice(-3).reverse()) {
      const part = line.trim().replace(/,$/, '');
      if (part === '' || /[:@]/.test(part) || length + part.length > VALUE_LIMITS.addresses) break;
      parts.unshift(part);
      length += part.length + 2;
    }
  }
  return parts.join(', ').replace(/\t/g, ' ');
}

/** A link's value, its %-escapes undone where they make sense. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** One page's facts, read in the home page's own pass: the analysis home-page.ts makes, and the facts. */
export function readPage(page: FetchedText, headers: Record<string, string>, where: FactSource['page']): { page: HomePageAnalysis; facts: PageFacts } {
  // Only a page that answered is the business's: a 404 page's text is not.
  const reader = page.status >= 200 && page.status < 300 ? new BusinessFactsReader(where, page.url) : null;
  const analysis = analyseHomePage(page, headers, reader ?? undefined);
  return { page: analysis, facts: reader?.facts() ?? new BusinessFactsReader(where, page.url).facts() };
}

/** The facts one fetched page states, and its readable text. */
export function analyseBusinessFacts(page: FetchedText, where: FactSource['page']): PageFacts {
  return readPage(page, {}, where).facts;
}

/**
 * The business's facts from its home page and, when one was read, its contact page: each kind
 * the most trusted first (structured data, links, text; the home page before the contact page
 * within each), each fact once, FACTS_PER_KIND at most; the contact page's text after the home
 * page's, BUSINESS_TEXT_LIMIT characters in all.
 */
export function mergeBusinessFacts(home: PageFacts, contact: { url: string; facts: PageFacts } | null): BusinessFacts {
  const of = (kind: Kind) => keepFacts(kind, [...home[kind], ...(contact?.facts[kind] ?? [])]);
  const text = [home.text, contact?.facts.text ?? ''].filter((part) => part !== '').join(' ');
  return {
    ...eachKind(of),
    contactPage: contact?.url ?? null,
    text: text.slice(0, BUSINESS_TEXT_LIMIT),
  };
}
