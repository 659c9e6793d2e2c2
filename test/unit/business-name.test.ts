import { nameFromPage } from '../../server/visibility-probe/business-name';
import { isOwnAddress, siteOf } from '../../server/visibility-probe/names';

/*
 * The business's name the probe searches the answers for, read from its home page as a person
 * reads it, and the site that is its own. Page facts in, a name and where it came from out.
 */

const page = (facts: { title?: string | null; siteName?: string | null; organizationNames?: string[] }) => ({ title: null, siteName: null, organizationNames: [], ...facts });
const fromTitle = (title: string, website: string | null = null) => nameFromPage(page({ title }), website === null ? null : siteOf(website)).name;

describe('the business\'s name, from its home page\'s title', () => {
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
    // The part the address names comes first, as a whole, else within it.
    ['Leeds Boiler Repairs | Okafor Plumbing', 'https://www.okaforplumbing.co.uk/', 'Okafor Plumbing'],
    ['Leeds Boiler Repairs | Okafor Plumbing & Heating', 'okafor.co.uk', 'Okafor Plumbing & Heating'],
    ['Leeds Boiler Repairs | Okafor', 'okafor-plumbing-leeds.co.uk', 'Okafor'],
    // On a platform, its name is a page word, and the page's address names the business.
    ['Acme Plumbing | Facebook', 'https://www.facebook.com/acmeplumbing', 'Acme Plumbing'],
    ['Leeds Boiler Repairs - Okafor Plumbing - Yell', 'https://www.yell.com/biz/okafor-plumbing-leeds-901234/', 'Okafor Plumbing'],
  ])('"%s" (site %s) is %s, from the page title', (title, website, name) => {
    expect(fromTitle(title, website)).toBe(name);
    expect(nameFromPage(page({ title }), website === null ? null : siteOf(website))).toEqual({ name, source: 'page title', title });
  });
});

describe('where the name comes from', () => {
  it('structured data first, then og:site_name, then the title; each says which, with the title beside it', () => {
    const all = { title: 'Home | Okafor', siteName: 'Okafor Plumbing', organizationNames: ['Okafor Plumbing Ltd'] };
    expect(nameFromPage(page(all), null)).toEqual({ name: 'Okafor Plumbing Ltd', source: 'structured data', title: 'Home | Okafor' });
    expect(nameFromPage(page({ ...all, organizationNames: [] }), null)).toEqual({ name: 'Okafor Plumbing', source: 'og:site_name', title: 'Home | Okafor' });
    expect(nameFromPage(page({ ...all, organizationNames: [], siteName: null }), null)).toEqual({ name: 'Okafor', source: 'page title', title: 'Home | Okafor' });
  });

  it('passes over a platform\'s own Organization for the business it lists', () => {
    expect(nameFromPage(page({ organizationNames: ['Yell', 'Okafor Plumbing'], siteName: 'Yell' }), siteOf('yell.com/biz/okafor-901234')).name).toBe('Okafor Plumbing');
  });
});

describe('never the name', () => {
  const none = (facts: Parameters<typeof page>[0], website: string | null = 'okaforplumbing.co.uk') => nameFromPage(page(facts), website === null ? null : siteOf(website));

  it('a bare page word, wherever it is declared: the business is looked for by its address alone', () => {
    expect(none({ title: 'Home' })).toEqual({ name: null, source: 'domain', title: 'Home' });
    expect(none({ title: 'HOME!' }).name).toBeNull();
    expect(none({ title: 'Welcome | Home Page | Contact Us' }).name).toBeNull();
    expect(none({ title: 'Home', siteName: 'Home', organizationNames: ['Homepage'] })).toEqual({ name: null, source: 'domain', title: 'Home' });
  });

  it('a platform\'s own name', () => {
    expect(none({ title: 'Facebook', siteName: 'Facebook' }, 'https://www.facebook.com/okaforplumbing').name).toBeNull();
    expect(none({ title: 'Checkatrade | Find a trade', organizationNames: ['Checkatrade'] }, 'https://www.checkatrade.com/trades/okafor').name).toBeNull();
  });

  it('a slogan or a description', () => {
    expect(none({ title: 'Emergency plumbers in Leeds' }, null).name).toBeNull();
    expect(none({ title: 'Plumbers In Leeds | Call Now' }, null).name).toBeNull();
    expect(none({ title: 'Fast, Friendly, Fixed-Price Plumbing!' }, null).name).toBeNull();
  });

  it('the words of the address: "okaforplumbing" is no name to search answers for, and the address itself is searched for', () => {
    expect(none({})).toEqual({ name: null, source: 'domain', title: null });
    expect(none({ title: 'Home' }, 'https://www.facebook.com/okaforplumbing')).toEqual({ name: null, source: 'domain', title: 'Home' });
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
