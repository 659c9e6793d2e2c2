import { givenName, nameFromPage, nameOrigin, signsOfStored, type PageSigns } from '../../server/business/business-name';
import { isOwnAddress, siteOf } from '../../server/business/names';
import { isSearchPhrase } from '../../server/business/search-words';

/*
 * The business's name the answers are searched for, read from its home page as a person reads it,
 * and the site that is its own. Page signs in, a name and the signs that gave it out. The labelled
 * corpus of UK small firms' pages (business-name-corpus.test.ts) measures the reading as a whole;
 * these hold each rule.
 */

const page = (signs: Partial<PageSigns>): PageSigns => ({ title: null, siteName: null, organizationNames: [], ...signs });
const read = (signs: Partial<PageSigns>, website: string | null = null, typed = {}) => nameFromPage(page(signs), website === null ? null : siteOf(website), typed);
const fromTitle = (title: string, website: string | null = null) => read({ title }, website).name;

describe("the business's name, from its home page's title", () => {
  it.each([
    ['Home | Okafor Plumbing', null, 'Okafor Plumbing'],
    ['Home - Acme', null, 'Acme'],
    ['Welcome to Acme', null, 'Acme'],
    ['Acme – Home', null, 'Acme'],
    ['Acme | Plumbers in Leeds | Call now', null, 'Acme'],
    ['Homepage — Okafor Plumbing & Heating', null, 'Okafor Plumbing & Heating'],
    ['Official Site | Acme Plumbing', null, 'Acme Plumbing'],
    ['About Us: Acme Plumbing', null, 'Acme Plumbing'],
    ['Emergency plumbers in Leeds | Acme', null, 'Acme'],
    ['Tom Hughes – Electrician in Cardiff', null, 'Tom Hughes'],
    ["Bob's Plumbing | Surrey", null, "Bob's Plumbing"],
    ['Harrison Clark LLP | Solicitors in Worcester', null, 'Harrison Clark LLP'],
    ['acme plumbing - plumbers in leeds', null, 'acme plumbing'],
    ['Caffi Glan y Môr | Seaside Café, Aberaeron', null, 'Caffi Glan y Môr'],
    // A keyword or place domain never makes its part the name: the part with a word of its own does.
    ['Leeds Plumbers | Acme Plumbing & Heating', 'https://www.leedsplumbers.co.uk/', 'Acme Plumbing & Heating'],
    ['Leeds | Acme Ltd', 'acmeleeds.co.uk', 'Acme Ltd'],
    ['Dentist Bristol | Smile Dental Care', 'dentistbristol.co.uk', 'Smile Dental Care'],
    // Of two parts that name, the one the address spells, as a whole or within it.
    ['Okafor Heating | Okafor Plumbing', 'https://www.okaforplumbing.co.uk/', 'Okafor Plumbing'],
    // On a platform, its name is a page word, and the page's address names the business.
    ['Acme Plumbing | Facebook', 'https://www.facebook.com/acmeplumbing', 'Acme Plumbing'],
    ['Leeds Boiler Repairs - Okafor Plumbing - Yell', 'https://www.yell.com/biz/okafor-plumbing-leeds-901234/', 'Okafor Plumbing'],
  ])('"%s" (site %s) is %s', (title, website, name) => {
    expect(fromTitle(title, website)).toBe(name);
  });
});

describe('more than one sign', () => {
  it('reads the footer\'s copyright line, the logo\'s text and the first heading, and says which gave the name', () => {
    expect(read({ title: 'Leeds Plumbers', copyrightLines: ['© 2019-2026 Calder Plumbing & Heating Ltd. All rights reserved. Registered in England No. 01234567.'] }, 'leedsplumbers.co.uk')).toEqual({
      name: 'Calder Plumbing & Heating Ltd',
      signs: ['copyright'],
      title: 'Leeds Plumbers',
    });
    for (const line of ['Copyright © 2026 Calder Ltd', '© Calder Ltd 2024', 'All content © Calder Ltd', '© 2026 Calder Ltd | Privacy Policy | Terms', 'Calder Ltd © 2026']) {
      expect(read({ copyrightLines: [line] }).name).toBe('Calder Ltd');
    }
    expect(read({ logoText: 'Calder Plumbing logo' }).name).toBe('Calder Plumbing');
    expect(read({ logoText: 'Logo of Calder Plumbing' }).name).toBe('Calder Plumbing');
  });

  it("takes the name two signs agree on over one sign's, and shows it as a sign writes it, not in capitals", () => {
    expect(read({ title: 'Acme Roofing | Kirkgate Roofing', logoText: 'Kirkgate Roofing', copyrightLines: ['© 2026 Kirkgate Roofing Ltd'] })).toEqual({
      name: 'Kirkgate Roofing',
      signs: ['title', 'logo', 'copyright'],
      title: 'Acme Roofing | Kirkgate Roofing',
    });
    expect(read({ title: 'ACME PLUMBING | LEEDS', copyrightLines: ['© Acme Plumbing 2024'] }).name).toBe('Acme Plumbing');
    // The site's address confirms a name: it counts as a sign beside one, never alone.
    expect(read({ title: 'Acme | Bramley Roofing' }, 'bramleyroofing.co.uk')).toMatchObject({ name: 'Bramley Roofing', signs: ['title', 'web address'] });
  });

  it('never takes a heading alone, nor a web designer\'s credit, nor a domain, a price or a list of qualities', () => {
    expect(read({ firstHeading: 'Trusted by Landlords Across Yorkshire' }).name).toBeNull();
    expect(read({ firstHeading: 'Acme Plumbing' }, 'acmeplumbing.co.uk')).toMatchObject({ name: 'Acme Plumbing', signs: ['heading', 'web address'] });
    expect(read({ copyrightLines: ['© 2026 | Website by Bluefin Web Design'] }).name).toBeNull();
    expect(read({ copyrightLines: ['© dentistbristol.co.uk'] }, 'dentistbristol.co.uk').name).toBeNull();
    expect(read({ title: 'End of Tenancy Cleaning From £99' }).name).toBeNull();
    expect(read({ title: 'Natural, Relaxed Wedding Photography' }).name).toBeNull();
    expect(read({ logoText: 'logo' }).name).toBeNull();
  });
});

describe('never the name', () => {
  const none = (signs: Partial<PageSigns>, website: string | null = 'okaforplumbing.co.uk', typed = {}) => read(signs, website, typed);

  it('a bare page word, wherever it is declared: the business is looked for by its address alone', () => {
    expect(none({ title: 'Home' })).toEqual({ name: null, signs: [], title: 'Home' });
    expect(none({ title: 'HOME!' }).name).toBeNull();
    expect(none({ title: 'Welcome | Home Page | Contact Us' }).name).toBeNull();
    expect(none({ title: 'Home', siteName: 'Home', organizationNames: ['Homepage'] })).toEqual({ name: null, signs: [], title: 'Home' });
  });

  it("a platform's own name", () => {
    expect(none({ title: 'Facebook', siteName: 'Facebook' }, 'https://www.facebook.com/okaforplumbing').name).toBeNull();
    expect(none({ title: 'Checkatrade | Find a trade', organizationNames: ['Checkatrade'] }, 'https://www.checkatrade.com/trades/okafor').name).toBeNull();
  });

  it('a slogan or a description', () => {
    expect(none({ title: 'Emergency plumbers in Leeds' }, null).name).toBeNull();
    expect(none({ title: 'Plumbers In Leeds | Call Now' }, null).name).toBeNull();
    expect(none({ title: 'Fast, Friendly, Fixed-Price Plumbing!' }, null).name).toBeNull();
    expect(none({ title: 'Welcome to the home of quality roofing' }, null).name).toBeNull();
  });

  it('a phrase made only of search words (trades, places, descriptors), whatever the address or the signs that repeat it', () => {
    for (const title of ['Leeds Plumbers', 'Surrey Roofing Services', 'Emergency Plumbing Services', 'Plumber Leeds', 'The Leeds Dental Practice', "Yorkshire's Favourite Window Cleaners", 'Home Care Services', "Leeds' No.1 Removals Company"]) {
      expect(isSearchPhrase(title)).toBe(true);
      expect(none({ title, siteName: title, organizationNames: [title], copyrightLines: [`© 2026 ${title} Ltd`] }, `${title.replace(/\W/g, '').toLowerCase()}.co.uk`).name).toBeNull();
    }
  });

  it('words the prospect typed as keywords or products, as search words; a name with a word of its own stays one', () => {
    const typed = { keywords: 'smile makeover leeds', products: 'teeth whitening' };
    expect(none({ title: 'Smile Makeovers | Whitening' }, null, typed).name).toBeNull();
    expect(read({ title: 'Smile Makeovers | Whitening' }).name).toBe('Smile Makeovers');
    expect(read({ title: 'Bramley & Finch Dental | Smile Makeovers' }, null, typed).name).toBe('Bramley & Finch Dental');
    // The lower-case words of a description are searches; a name written in it is not.
    expect(read({ title: 'Acme Plumbing' }, null, { description: 'Acme Plumbing is a family firm of plumbers' }).name).toBe('Acme Plumbing');
  });

  it('the words of the address: "okaforplumbing" is no name to search answers for, and the address itself is searched for', () => {
    expect(none({})).toEqual({ name: null, signs: [], title: null });
    expect(none({ title: 'Home' }, 'https://www.facebook.com/okaforplumbing')).toEqual({ name: null, signs: [], title: 'Home' });
  });
});

describe('where the name was read, in words', () => {
  it('lists the signs, the address as a confirmation, or says it was given', () => {
    expect(nameOrigin(['title', 'copyright'])).toBe("from the title and the footer's copyright line");
    expect(nameOrigin(['structured data', 'og:site_name', 'title', 'web address'])).toBe("from the site's structured data, its og:site_name and the title, confirmed by the web address");
    expect(nameOrigin(['given'])).toBe('given with --brand');
    expect(nameOrigin([])).toBe('');
  });

  it('reads a report stored before names had more than one sign', () => {
    expect(signsOfStored({ nameSource: 'page title' })).toEqual(['title']);
    expect(signsOfStored({ nameSource: 'command line' })).toEqual(['given']);
    expect(signsOfStored({ nameSource: 'domain' })).toEqual([]);
    expect(signsOfStored({ nameSigns: ['logo'] })).toEqual(['logo']);
  });
});

describe('a name given with --brand', () => {
  it("is taken as given, unless it is a page word or made only of trades, places and descriptions; the request's own keywords do not refuse it", () => {
    expect(givenName('  Acme   Plumbing ')).toEqual({ name: 'Acme Plumbing' });
    expect(givenName('Home')).toEqual({ refused: '"Home" is not a business\'s name' });
    expect(givenName('Leeds Plumbers')).toMatchObject({ refused: expect.stringMatching(/^"Leeds Plumbers" is made only of search words/) });
    expect(givenName('Emergency Plumbing Services Surrey')).toMatchObject({ refused: expect.stringMatching(/search words/) });
    expect(givenName('Acme Plumbing')).toEqual({ name: 'Acme Plumbing' });
  });
});

describe('the business\'s own site', () => {
  it('is its domain; on a platform, its page there, host and path', () => {
    expect(siteOf('https://www.OkaforPlumbing.co.uk/contact?x=1')).toBe('okaforplumbing.co.uk');
    expect(siteOf('https://m.facebook.com/AcmePlumbing/reviews')).toBe('facebook.com/acmeplumbing');
    expect(siteOf('www.yell.com/biz/acme-plumbing-123/')).toBe('yell.com/biz/acme-plumbing-123');
    expect(siteOf('https://www.checkatrade.com/trades/acme')).toBe('checkatrade.com/trades/acme');
    expect(siteOf('linktr.ee/acme')).toBe('linktr.ee/acme');
    expect(siteOf('https://maps.app.goo.gl/AbC123')).toBe('maps.app.goo.gl/abc123');
    expect(siteOf('https://www.google.com/maps/place/Acme+Plumbing/@53.8,-1.5,17z')).toBe('google.com/maps/place/acme+plumbing');
    // A platform's own pages are no business's site.
    expect(siteOf('https://www.facebook.com/')).toBeNull();
    expect(siteOf('https://www.facebook.com/profile.php?id=100012345')).toBeNull();
    expect(siteOf('not an address')).toBeNull();
  });

  it('holds that page and the pages under it, not the platform\'s others', () => {
    const site = 'yell.com/biz/acme-plumbing-123';
    expect(isOwnAddress('https://www.yell.com/biz/acme-plumbing-123/reviews#top', site)).toBe(true);
    expect(isOwnAddress('yell.com/biz/acme-plumbing-123', site)).toBe(true);
    expect(isOwnAddress('https://www.yell.com/biz/pipe-pros-456/', site)).toBe(false);
    expect(isOwnAddress('https://www.yell.com/biz/acme-plumbing-1234/', site)).toBe(false);
    expect(isOwnAddress('yell.com', site)).toBe(false);
    expect(isOwnAddress('https://shop.acmeplumbing.co.uk/', 'acmeplumbing.co.uk')).toBe(true);
    expect(isOwnAddress('https://notacmeplumbing.co.uk/', 'acmeplumbing.co.uk')).toBe(false);
  });
});
