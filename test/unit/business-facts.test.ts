import { BUSINESS_TEXT_LIMIT, FACTS_PER_KIND, type BusinessFacts, type SiteFact } from '../../server/business/business-facts';
import { analyseBusinessFacts, mergeBusinessFacts, PHONE_SEARCHES, readPage, VALUE_LIMITS, type PageFacts } from '../../server/site-check/analysers/business-facts';
import type { FetchedText } from '../../server/site-check/analysers/fetched-text';

const ORIGIN = 'https://www.hartley-plumbing.example';
const page = (text: string, overrides: Partial<FetchedText> = {}): FetchedText => ({ url: `${ORIGIN}/`, status: 200, contentType: 'text/html', text, truncated: false, ...overrides });
const home = (html: string) => analyseBusinessFacts(page(html), 'home page');
/** Each fact as "value (from)", the way a test reads them. */
const read = (facts: readonly SiteFact[]) => facts.map((fact) => `${fact.value} (${fact.source.from})`);
const KINDS = ['phones', 'emails', 'addresses', 'postcodes', 'towns', 'openingHours', 'services'] as const;

/** A Leeds plumber's home page as such sites are made: a number in the header, a services list, the hours, the address in the footer. */
const PLUMBER = `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Hartley Plumbing &amp; Heating | Plumbers in Leeds</title>
<style>.phone::after { content: "0113 496 9999"; }</style>
</head>
<body>
<header>
  <a href="/" class="site-logo">Hartley Plumbing</a>
  <nav><ul><li><a href="/">Home</a></li><li><a href="/boilers">Boilers</a></li><li><a href="/contact-us/">Contact us</a></li></ul></nav>
  <p class="phone">Call <a href="tel:+441134960000">0113 496 0000</a></p>
</header>
<main>
  <h1>Plumbers and heating engineers in Leeds</h1>
  <p>Emergency call-outs on +44 (0)113 496 0000, or text our engineer on 07700 900123.</p>
  <section>
    <h2>Our services</h2>
    <ul>
      <li>Boiler repair and servicing</li>
      <li>Bathroom fitting</li>
      <li><a href="/leaks">Leak detection</a></li>
    </ul>
  </section>
  <section>
    <h2>Opening hours</h2>
    <p>Mon–Fri 8am–6pm<br>Saturday: 9:00 - 13:00<br>Sunday closed</p>
    <p>Open 24/7 for emergencies.</p>
  </section>
  <p>Over 2,500 boilers fitted since 2009. Gas Safe registered 123456. Company No. 01234567, VAT No. 123 4567 89.</p>
  <template><p>Call 0113 496 7777</p></template>
  <noscript>Call 0113 496 8888</noscript>
</main>
<footer>
  <address>Hartley Plumbing &amp; Heating Ltd<br>12 Park Row<br>Leeds<br>LS1 5HD</address>
  <p>Office: 0113-496-0001 / Mobile: 07700 900123</p>
  <p>Email <a href="mailto:Info@Hartley-Plumbing.example?subject=Quote%20request">info@hartley-plumbing.example</a> or jobs@hartley-plumbing.example.</p>
  <p>&copy; 2026 Hartley Plumbing &amp; Heating Ltd</p>
</footer>
<script>window.dataLayer = [{ phone: "0113 496 5555", email: "tracking@analytics.example" }];</script>
</body>
</html>`;

/** A dentist whose site declares everything in a LocalBusiness (Dentist) block, and says some of it again in its text. */
const DENTIST_JSON_LD = {
  '@context': 'https://schema.org',
  '@type': 'Dentist',
  '@id': 'https://www.castle-dental.example/#practice',
  name: 'Castle Dental Practice',
  telephone: '01904 496 0123',
  email: 'mailto:reception@castle-dental.example',
  address: { '@type': 'PostalAddress', streetAddress: '4 Castle Street', addressLocality: 'York', postalCode: 'YO1 9RN', addressCountry: 'GB' },
  openingHoursSpecification: [
    { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '08:30', closes: '17:30' },
    { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Saturday', opens: '09:00:00', closes: '13:00:00' },
    { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Sunday', opens: '00:00', closes: '00:00' },
  ],
  hasOfferCatalog: {
    '@type': 'OfferCatalog',
    name: 'Treatments',
    itemListElement: [
      { '@type': 'Offer', itemOffered: { '@type': 'Service', name: 'Dental implants' } },
      { '@type': 'Offer', itemOffered: { '@type': 'Service', name: 'Teeth whitening' } },
    ],
  },
  makesOffer: { '@type': 'Offer', itemOffered: 'Invisalign' },
  knowsAbout: ['Emergency dentistry'],
  contactPoint: { '@type': 'ContactPoint', contactType: 'emergency', telephone: '+44 7700 900456' },
};
const DENTIST = `<!doctype html><html lang="en-GB"><head><title>Castle Dental Practice, York</title>
<script type="application/ld+json">${JSON.stringify(DENTIST_JSON_LD)}</script></head>
<body><h1>Castle Dental Practice</h1><p>Call us on <a href="tel:01904%20496%200123">01904 496 0123</a> or email RECEPTION@castle-dental.example.</p>
<p>Find us at 4 Castle Street, York YO1 9RN.</p></body></html>`;

describe("a business's facts, read from its own page", () => {
  it("a plumber's home page: the tel: and mailto: links, numbers in several formats, the footer's address and town, the hours and the services list", () => {
    const facts = home(PLUMBER);
    expect(read(facts.phones)).toEqual(['+441134960000 (link)', '07700 900123 (text)', '0113-496-0001 (text)']);
    expect(read(facts.emails)).toEqual(['Info@Hartley-Plumbing.example (link)', 'jobs@hartley-plumbing.example (text)']);
    expect(read(facts.addresses)).toEqual(['Hartley Plumbing & Heating Ltd, 12 Park Row, Leeds, LS1 5HD (text)']);
    expect(read(facts.postcodes)).toEqual(['LS1 5HD (text)']);
    expect(read(facts.towns)).toEqual(['Leeds (text)']);
    expect(read(facts.openingHours)).toEqual(['Mon–Fri 8am–6pm (text)', 'Saturday: 9:00 - 13:00 (text)', 'Sunday closed (text)', 'Open 24/7 for emergencies. (text)']);
    expect(read(facts.services)).toEqual(['Boiler repair and servicing (text)', 'Bathroom fitting (text)', 'Leak detection (text)']);
    expect(facts.phones.every((fact) => fact.source.page === 'home page')).toBe(true);
    expect(facts.contactLink).toBe(`${ORIGIN}/contact-us/`);
  });

  it("keeps the page's readable text, white space collapsed: none of its scripts, styles, templates, <noscript> or structured data", () => {
    const { text } = home(PLUMBER);
    expect(text).toMatch(/^Hartley Plumbing Home Boilers Contact us Call 0113 496 0000 Plumbers and heating engineers in Leeds Emergency call-outs on \+44 \(0\)113 496 0000, /);
    expect(text).toContain('Hartley Plumbing & Heating Ltd 12 Park Row Leeds LS1 5HD Office: 0113-496-0001');
    for (const hidden of ['0113 496 9999', '0113 496 7777', '0113 496 8888', '0113 496 5555', 'tracking@', 'dataLayer', 'Castle Dental']) expect(text).not.toContain(hidden);
    expect(text).not.toMatch(/\s{2}/);
    expect(read(home(DENTIST).phones).join(' ')).not.toContain('5555');
  });

  it('takes no company, VAT or order number, date, price or code glued to a word for a telephone number', () => {
    const facts = home(
      '<p>Company No. 01234567. VAT No. 123 4567 89. Order 1234567890 placed 01/02/2026 - 03/04/2026 for £1,250,000.00.</p><p>Part REF01134960000, serial 0113496000012345678.</p><p>Call 0113 496 0000.</p>',
    );
    expect(read(facts.phones)).toEqual(['0113 496 0000 (text)']);
  });

  it('a line of several numbers: each found, however they are set apart', () => {
    const numbers = Array.from({ length: 9 }, (_, index) => `0113 496 000${index + 1}`);
    for (const between of [' - ', '  ', '. ', ' / ', ', ', ' or ', ' | ']) {
      expect(home(`<p>Call ${numbers.join(between)}.</p>`).phones.map((fact) => fact.value)).toEqual(numbers);
    }
  });

  it('a dentist declaring everything in a LocalBusiness block: each fact from its structured data, the same said again in the text or a link kept once', () => {
    const facts = analyseBusinessFacts(page(DENTIST, { url: 'https://www.castle-dental.example/' }), 'home page');
    expect(read(facts.phones)).toEqual(['01904 496 0123 (structured data)', '+44 7700 900456 (structured data)']);
    expect(read(facts.emails)).toEqual(['reception@castle-dental.example (structured data)']);
    expect(read(facts.addresses)).toEqual(['4 Castle Street, York, YO1 9RN (structured data)']);
    expect(read(facts.postcodes)).toEqual(['YO1 9RN (structured data)']);
    expect(read(facts.towns)).toEqual(['York (structured data)']);
    expect(read(facts.openingHours)).toEqual(['Monday-Friday 08:30-17:30 (structured data)', 'Saturday 09:00-13:00 (structured data)', 'Sunday closed (structured data)']);
    // The business's own subjects first, then its offers in the order written.
    expect(read(facts.services)).toEqual(['Emergency dentistry (structured data)', 'Dental implants (structured data)', 'Teeth whitening (structured data)', 'Invisalign (structured data)']);
  });

  it('reads openingHours strings, an address written as one string, and an untyped PostalAddress, and no other node\'s telephone', () => {
    const block = {
      '@graph': [
        { '@type': 'Person', name: 'Dr A', telephone: '0113 496 1111', email: 'a@person.example' },
        { '@type': ['Plumber', 'LocalBusiness'], telephone: ['0113 496 0000', '0113 496 0000'], openingHours: ['Mo-Fr 08:00-18:00', 'Sa 09:00-12:00'], address: ['3 Mill Lane, Otley, West Yorkshire, LS21 1AA', { streetAddress: '5 Kirkgate', addressLocality: 'Otley' }] },
        { '@type': 'Service', serviceType: ['Boiler installation'], provider: { '@id': '#firm' } },
      ],
    };
    const facts = home(`<html><head><script type="application/ld+json">${JSON.stringify(block)}</script></head><body><p>Hello</p></body></html>`);
    expect(read(facts.phones)).toEqual(['0113 496 0000 (structured data)']);
    expect(facts.emails).toEqual([]);
    expect(read(facts.openingHours)).toEqual(['Mo-Fr 08:00-18:00 (structured data)', 'Sa 09:00-12:00 (structured data)']);
    expect(read(facts.addresses)).toEqual(['3 Mill Lane, Otley, West Yorkshire, LS21 1AA (structured data)', '5 Kirkgate, Otley (structured data)']);
    expect(read(facts.postcodes)).toEqual(['LS21 1AA (structured data)']);
    // The town, not the county after it.
    expect(read(facts.towns)).toEqual(['Otley (structured data)']);
    expect(read(facts.services)).toEqual(['Boiler installation (structured data)']);
  });

  it('keeps each fact once, from the most trusted source (structured data, then links, then text), as that source writes it', () => {
    const facts = home(
      '<html><body><header><p>Call 0113 496 0000 or email INFO@acme.example</p><p>ls1 5hd</p><a href="tel:+44-113-496-0000">Call</a><a href="mailto:info@ACME.example">Mail</a></header>' +
        '<script type="application/ld+json">{"@type":"LocalBusiness","telephone":"+44 (0)113 496 0000","email":"Info@Acme.example","address":{"@type":"PostalAddress","streetAddress":"1 Kirkgate","addressLocality":"Leeds","postalCode":"LS1 5HD"}}</script></body></html>',
    );
    expect(read(facts.phones)).toEqual(['+44 (0)113 496 0000 (structured data)']);
    expect(read(facts.emails)).toEqual(['Info@Acme.example (structured data)']);
    expect(read(facts.postcodes)).toEqual(['LS1 5HD (structured data)']);
    // Without structured data, the link's; without a link, the text's.
    expect(read(home('<p>Call 0113 496 0000</p><a href="tel:01134960000">call</a>').phones)).toEqual(['01134960000 (link)']);
  });

  it('reads hours from a table row, the services a section of cards names in its headings, and ends the section at the next heading of its level', () => {
    const facts = home(
      '<main><h2>Opening hours</h2><table><tr><th>Monday</th><td>08:00</td><td>18:00</td></tr><tr><td>Sat</td><td>Closed</td></tr></table>' +
        '<section><h2>What we do</h2><div class="cards"><div class="card"><h3>Rewires</h3><p>Full and partial rewires, with a certificate.</p></div><div class="card"><h3>EV chargers</h3></div></div>' +
        '<h2>Reviews</h2><ul><li>Great job, would use again</li></ul></section></main>',
    );
    expect(read(facts.openingHours)).toEqual(['Monday 08:00 18:00 (text)', 'Sat Closed (text)']);
    expect(read(facts.services)).toEqual(['Rewires (text)', 'EV chargers (text)']);
    // A list under a services heading in the footer is read; the page's main section stops where the footer starts.
    const footer = home('<main><h2>Our services</h2><p>We do it all.</p></main><footer><div><h4>Quick links</h4><ul><li>Privacy</li></ul></div><div><h4>Services</h4><ul><li>Roofing</li><li>Guttering</li></ul></div><div><h4>Legal</h4><ul><li>Terms</li></ul></div></footer>');
    expect(read(footer.services)).toEqual(['Roofing (text)', 'Guttering (text)']);
    // The section ends where the element its heading stands in closes, and where the page's footer or menus begin.
    expect(read(home('<div class="services"><h2>Our services</h2><ul><li>Roofing</li></ul></div><div><ul><li>Free quotes</li></ul></div>').services)).toEqual(['Roofing (text)']);
    expect(read(home('<body><h2>Treatments</h2><ul><li>Fillings</li></ul><footer><ul><li>Privacy policy</li></ul></footer></body>').services)).toEqual(['Fillings (text)']);
  });

  it('finds the contact page: the first link on its own origin whose path or text says contact, never another site, a mailto: or this page', () => {
    const link = (body: string) => home(`<html><body>${body}</body></html>`).contactLink;
    expect(link('<a href="https://other.example/contact">Contact</a><a href="#contact">Contact us</a><a href="mailto:a@b.example">Contact</a><a href="/about">About</a><a href="/get-in-touch">Talk to us</a>')).toBe(`${ORIGIN}/get-in-touch`);
    expect(link('<a href="/pages/7?x=1">Get in touch</a><a href="/contact">Contact</a>')).toBe(`${ORIGIN}/pages/7?x=1`);
    expect(link('<a href="/contact.html#form">Write to us</a>')).toBe(`${ORIGIN}/contact.html`);
    expect(link('<a href="/contact-lenses">Lenses</a><a href="http://www.hartley-plumbing.example/contact">Contact</a>')).toBeNull();
  });

  it("reads nothing from a page that did not answer 2xx, nor from one that is not HTML", () => {
    expect(analyseBusinessFacts(page(PLUMBER, { status: 404 }), 'home page')).toMatchObject({ phones: [], text: '', contactLink: null });
    expect(analyseBusinessFacts(page('Call 0113 496 0000', { contentType: 'text/plain' }), 'home page')).toMatchObject({ phones: [], text: '' });
    // The page's own analysis is made all the same, in the one pass.
    expect(readPage(page(PLUMBER), {}, 'home page').page.title).toBe('Hartley Plumbing & Heating | Plumbers in Leeds');
  });
});

describe('the home page and its contact page, merged', () => {
  const CONTACT_URL = `${ORIGIN}/contact`;
  const homeOnly = analyseBusinessFacts(page('<html><body><nav><a href="/contact">Get in touch</a></nav><h1>Hartley Plumbing</h1><p>Plumbers in Leeds.</p></body></html>'), 'home page');
  const contactPage = analyseBusinessFacts(
    page(
      '<html><body><h1>Contact us</h1><p>Ring <a href="tel:0113 496 0000">0113 496 0000</a> or 07700 900123.</p><p>12 Park Row, Leeds LS1 5HD</p><p>Monday to Friday: 08:00 - 18:00</p>' +
        '<script type="application/ld+json">{"@type":"Plumber","email":"office@hartley-plumbing.example"}</script></body></html>',
      { url: CONTACT_URL },
    ),
    'contact page',
  );

  it('a page whose details are only on its contact page: the facts come from there, and say so', () => {
    expect(homeOnly.contactLink).toBe(CONTACT_URL);
    expect(homeOnly.phones).toEqual([]);
    const facts: BusinessFacts = mergeBusinessFacts(homeOnly, { url: CONTACT_URL, facts: contactPage });
    expect(facts.contactPage).toBe(CONTACT_URL);
    expect(facts.phones).toEqual([
      { value: '0113 496 0000', source: { page: 'contact page', from: 'link' } },
      { value: '07700 900123', source: { page: 'contact page', from: 'text' } },
    ]);
    expect(facts.emails).toEqual([{ value: 'office@hartley-plumbing.example', source: { page: 'contact page', from: 'structured data' } }]);
    expect(read(facts.addresses)).toEqual(['12 Park Row, Leeds LS1 5HD (text)']);
    expect(read(facts.towns)).toEqual(['Leeds (text)']);
    expect(read(facts.openingHours)).toEqual(['Monday to Friday: 08:00 - 18:00 (text)']);
    expect(facts.text).toBe('Get in touch Hartley Plumbing Plumbers in Leeds. Contact us Ring 0113 496 0000 or 07700 900123. 12 Park Row, Leeds LS1 5HD Monday to Friday: 08:00 - 18:00');
    // No contact page read: none.
    expect(mergeBusinessFacts(homeOnly, null)).toMatchObject({ contactPage: null, phones: [], text: 'Get in touch Hartley Plumbing Plumbers in Leeds.' });
  });

  it('keeps a fact both pages state once, from the more trusted source whichever page it is on, the home page first among equals; each kind capped, the text within its limit', () => {
    const numbers = (count: number, from: number) => Array.from({ length: count }, (_, index) => `<p>Call 0113 496 ${String(from + index).padStart(4, '0')}</p>`).join('');
    const homePage: PageFacts = analyseBusinessFacts(page(`<p>${'word '.repeat(3000)}</p><p>Call 0113 496 0000</p>${numbers(12, 100)}`), 'home page');
    const contact = analyseBusinessFacts(page(`<a href="tel:01134960000">x</a>${numbers(3, 200)}<p>${'more '.repeat(2000)}</p>`, { url: CONTACT_URL }), 'contact page');
    expect(homePage.phones).toHaveLength(FACTS_PER_KIND);
    const facts = mergeBusinessFacts(homePage, { url: CONTACT_URL, facts: contact });
    expect(facts.phones).toHaveLength(FACTS_PER_KIND);
    expect(facts.phones[0]).toEqual({ value: '01134960000', source: { page: 'contact page', from: 'link' } });
    expect(facts.phones.slice(1).every((fact) => fact.source.page === 'home page' && fact.source.from === 'text')).toBe(true);
    expect(facts.text.length).toBe(BUSINESS_TEXT_LIMIT);
    expect(facts.text).toContain('Call 0113 496 0000 Call 0113 496 0100');
    expect(facts.text.endsWith('more more')).toBe(true);
  });
});

describe('a page that means harm: read in one pass, each kind capped, each value and the text bounded', () => {
  /** What a page's facts may weigh at most, whatever it says. */
  const MOST = BUSINESS_TEXT_LIMIT + KINDS.reduce((sum, kind) => sum + FACTS_PER_KIND * (VALUE_LIMITS[kind] + 80), 0);
  const expectBounded = (facts: PageFacts) => {
    for (const kind of KINDS) {
      expect(facts[kind].length).toBeLessThanOrEqual(FACTS_PER_KIND);
      for (const fact of facts[kind]) expect(fact.value.length).toBeLessThanOrEqual(VALUE_LIMITS[kind]);
    }
    expect(facts.text.length).toBeLessThanOrEqual(BUSINESS_TEXT_LIMIT);
    expect(JSON.stringify(facts).length).toBeLessThan(MOST);
  };
  /** Reads a page: its cost is the benchmark's to measure (npm run bench, the hostile site checks); here, what it keeps. */
  const readHostile = (html: string) => ({ facts: home(html) });

  it('100,000 telephone numbers, each in a paragraph of its own, all one number, or one run with no word between them', () => {
    const distinct = readHostile(Array.from({ length: 100_000 }, (_, index) => `<p>Call 0113 ${496 + Math.floor(index / 10_000)} ${String(index % 10_000).padStart(4, '0')}</p>`).join(''));
    expectBounded(distinct.facts);
    expect(read(distinct.facts.phones).slice(0, 2)).toEqual(['0113 496 0000 (text)', '0113 496 0001 (text)']);
    expect(distinct.facts.phones).toHaveLength(FACTS_PER_KIND);
    const same = readHostile('<p>Call 0113 496 0000 today</p>'.repeat(100_000));
    expect(read(same.facts.phones)).toEqual(['0113 496 0000 (text)']);
    const run = readHostile(`<p>${Array.from({ length: 100_000 }, (_, index) => `0113 496 ${String(index % 10_000).padStart(4, '0')}`).join(' ')}</p>`);
    expectBounded(run.facts);
  });

  it('20,000 digits and separators in one run, searched in windows', () => {
    for (const unit of ['1 ', '+4', '(0', '0.', '+44 (0)113 ', '0113496 ']) {
      const { facts } = readHostile(`<p>${unit.repeat(20_000)}</p>`);
      expectBounded(facts);
    }
  });

  it(`${PHONE_SEARCHES} searches for numbers a page at most: past them, numbers are no longer looked for`, () => {
    const searches = (count: number) => Array.from({ length: count }, (_, index) => `<p>Order 9${String(index).padStart(9, '0')}</p>`).join('');
    expect(read(home(`${searches(PHONE_SEARCHES - 1)}<p>Call 0113 496 0000</p>`).phones)).toEqual(['0113 496 0000 (text)']);
    expect(home(`${searches(PHONE_SEARCHES)}<p>Call 0113 496 0000</p>`).phones).toEqual([]);
    // A run read before is not searched again, and is no search.
    expect(read(home(`${'<p>Order 9000000001</p>'.repeat(1000)}<p>Call 0113 496 0000</p>`).phones)).toEqual(['0113 496 0000 (text)']);
  });

  it('5 MB of text without a space, and 5 MB of digits', () => {
    for (const fill of ['x', '7']) {
      const { facts } = readHostile(`<html><body><p>${fill.repeat(5 * 1024 * 1024)}</p><p>Call 0113 496 0000, 12 Park Row, Leeds LS1 5HD</p></body></html>`);
      expectBounded(facts);
      expect(facts.text.length).toBe(BUSINESS_TEXT_LIMIT);
      // What follows is read all the same.
      expect(read(facts.postcodes)).toEqual(['LS1 5HD (text)']);
    }
  });

  it('10,000 JSON-LD addresses, 20,000 businesses with a number each, and JSON-LD nested 100,000 deep', () => {
    const addresses = Array.from({ length: 10_000 }, (_, index) => ({ '@type': 'PostalAddress', streetAddress: `${index} Park Row ${'x'.repeat(500)}`, addressLocality: `Leeds ${index}`, postalCode: 'LS1 5HD' }));
    const many = readHostile(`<script type="application/ld+json">${JSON.stringify({ '@type': 'LocalBusiness', address: addresses })}</script>`);
    expectBounded(many.facts);
    expect(many.facts.addresses).toHaveLength(FACTS_PER_KIND);
    expect(many.facts.towns).toHaveLength(FACTS_PER_KIND);
    expect(read(many.facts.postcodes)).toEqual(['LS1 5HD (structured data)']);
    const graph = Array.from({ length: 20_000 }, (_, index) => ({ '@type': 'Dentist', telephone: `0113 496 ${String(index).padStart(5, '0')}`, email: `desk${index}@dentist.example`, knowsAbout: `Treatment ${index}` }));
    const businesses = readHostile(`<script type="application/ld+json">${JSON.stringify({ '@graph': graph })}</script>`);
    expectBounded(businesses.facts);
    expect(businesses.facts.phones).toHaveLength(FACTS_PER_KIND);
    const deep = readHostile(`<script type="application/ld+json">${'['.repeat(100_000)}{"@type":"Organization","telephone":"0113 496 0000"}${']'.repeat(100_000)}</script>`);
    expect(read(deep.facts.phones)).toEqual(['0113 496 0000 (structured data)']);
  });

  it('a megabyte of "@", of postcodes, of opening hours, of headings over services and of unclosed list items', () => {
    const megabyte = (unit: string) => unit.repeat(Math.ceil((1024 * 1024) / unit.length));
    const pages = [
      megabyte('@'),
      megabyte('a@'),
      `<p>${megabyte(`${'a'.repeat(63)}@`)}</p>`,
      megabyte('<p>12 Park Row, Leeds LS1 5HD</p>'),
      `<p>${Array.from({ length: 100_000 }, (_, index) => `LS${(index % 28) + 1} ${index % 10}HD`).join(' ')}</p>`,
      megabyte('Monday 9am<br>'),
      megabyte('<h2>Our services</h2><h3>Roofing</h3>'),
      `<h2>Our services</h2>${megabyte('<ul><li>Roofing')}`,
      `<h2>Our services</h2><ul>${Array.from({ length: 100_000 }, (_, index) => `<li>Service ${index}</li>`).join('')}</ul>`,
      megabyte('<a href="/contacts/x">x</a>'),
    ];
    for (const html of pages) {
      const { facts } = readHostile(html);
      expectBounded(facts);
    }
  });

  it('a value as long as a page is cut to what a report can show', () => {
    const long = 'x'.repeat(100_000);
    const facts = home(
      `<script type="application/ld+json">${JSON.stringify({ '@type': 'LocalBusiness', telephone: `0113 496 0000 ${long}`, openingHours: long, knowsAbout: long, address: { '@type': 'PostalAddress', streetAddress: long, addressLocality: long } })}</script>` +
        `<h2>Services</h2><ul><li>${'Roofing '.repeat(20)}</li></ul><p>Monday 9am ${'y '.repeat(50_000)}</p><a href="mailto:${long}@x.example">m</a><a href="tel:${'1'.repeat(100_000)}">t</a>`,
    );
    expectBounded(facts);
    expect(facts.openingHours.map((fact) => fact.value.length)).toEqual([VALUE_LIMITS.openingHours]);
    // A list item as long as a paragraph is a description, not a service's name.
    expect(read(facts.services)).toEqual([`${'x'.repeat(VALUE_LIMITS.services - 1)}… (structured data)`]);
  });

  it('an e-mail address longer than one may be is none, and a tag named like an object\'s property is no heading', () => {
    expect(home(`<p>${'a'.repeat(65)}@acme.example, b@${'d'.repeat(250)}.example, ok@acme.example</p>`).emails.map((fact) => fact.value)).toEqual(['ok@acme.example']);
    expect(read(home('<h2>Our services</h2><ul><li>Roofing</li><constructor>x</constructor><tostring><li>Guttering</li></ul>').services)).toEqual(['Roofing (text)', 'Guttering (text)']);
  });
});
