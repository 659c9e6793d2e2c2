import type { LaunchContent } from '../../shared/launch-check';
import { dramaRange, formatFinding, launchCheck, reservedDomain } from '../../shared/launch-check';

const source = { publisher: 'Office for National Statistics', title: 'Internet users, UK', date: '2025-04', url: 'https://www.ons.gov.uk/releases/internet-users' };

/** Content with nothing left to replace: a real company, real contacts, real clients, sourced figures. */
function cleanContent(): LaunchContent {
  return {
    site: {
      brand: 'Citewise',
      tagline: 'The UK agency',
      legalName: 'Citewise Digital Ltd',
      companyNumber: '12345678',
      registeredIn: 'England and Wales',
      registeredOffice: { streetAddress: '12 Clerkenwell Road', locality: 'London', postalCode: 'EC1M 5PQ' },
      email: 'hello@citewise.co.uk',
      phone: '020 3870 1234',
      phoneE164: '+442038701234',
      location: { footer: 'London, UK', headquarters: 'London, United Kingdom' },
      businessHours: 'Monday to Friday',
      responseTime: '24 hours',
      bookingUrl: 'https://cal.citewise.co.uk/audit',
      websiteUrl: 'https://www.citewise.co.uk',
      mailFrom: 'noreply@citewise.co.uk',
      mailTo: 'leads@citewise.co.uk',
    },
    home: {
      hero: {
        eyebrow: 'e', title: 't', lead: 'l', promptsLabel: 'p', prompts: ['a', 'b'], primaryCta: 'c', secondaryCta: 'd',
        stats: [
          { stat: '1', label: 'one', source },
          { stat: '2', label: 'two', source },
          { stat: '3', label: 'three', source },
          { stat: '4', label: 'four', source },
        ],
      },
      aiShift: { title: 't', lead: 'l', paragraphs: ['p'], stats: [{ icon: 'globe', stat: '5', description: 'five', source }, { icon: 'users', stat: '6', description: 'six', source }] },
      testimonial: { kind: 'real', quote: 'q', author: 'Ann', role: 'Owner', company: 'Ann Ltd' },
    },
    caseStudies: {
      studies: [{ id: 'a', kind: 'real', client: 'Ann Ltd', article: 'ann', testimonial: { kind: 'real', quote: 'q', author: 'Ann', company: 'Ann Ltd' } }],
    } as unknown as LaunchContent['caseStudies'],
  };
}

const lines = (content: LaunchContent, overrides?: Parameters<typeof launchCheck>[1]) => launchCheck(content, overrides).map(formatFinding);

describe('documentation domains', () => {
  it.each(['example.com', 'www.example.com', 'booking.example.com', 'EXAMPLE.ORG', 'mail.example.net', 'shop.example', 'site.test', 'x.invalid'])('%s is reserved', (host) => {
    expect(reservedDomain(host)).toBeDefined();
  });
  it.each(['citewise.co.uk', 'example.co.uk', 'notexample.com', 'examples.com', 'example.com.evil.io'])('%s is not', (host) => {
    expect(reservedDomain(host)).toBeUndefined();
  });
});

describe("Ofcom's drama numbers", () => {
  it.each([
    ['020 7946 0321', '020 7946 0xxx'],
    ['+44 20 7946 0999', '020 7946 0xxx'],
    ['+442079460000', '020 7946 0xxx'],
    ['0113 496 0123', '0113 496 0xxx'],
    ['0161 496 0500', '0161 496 0xxx'],
    ['0191 498 0111', '0191 498 0xxx'],
    ['028 9649 6123', '028 9649 6xxx'],
    ['029 2018 0456', '029 2018 0xxx'],
    ['01632 960123', '01632 960xxx'],
    ['07700 900123', '07700 900xxx'],
    ['0808 157 0123', '08081 570xxx'],
    ['0909 879 0123', '0909 879 0xxx'],
    ['0306 999 0123', '03069 990xxx'],
  ])('%s is in %s', (phone, range) => {
    expect(dramaRange(phone)).toBe(range);
  });
  it.each(['020 7946 1000', '020 3870 1234', '07700 901123', '0161 496 1000', '+1 555 0100'])('%s is a real range', (phone) => {
    expect(dramaRange(phone)).toBeUndefined();
  });
});

describe('launchCheck', () => {
  it('lists nothing for content with nothing left to replace', () => {
    expect(lines(cleanContent())).toEqual([]);
  });

  it('lists each placeholder contact detail as file, field and why', () => {
    const content = cleanContent();
    content.site.email = 'hello@example.com';
    content.site.bookingUrl = 'https://booking.example.com/free-audit';
    content.site.mailTo = 'leads@example.org';
    content.site.phone = '020 7946 0321';
    content.site.phoneE164 = '+442079460321';
    expect(lines(content)).toEqual([
      'content/site.yaml  email  hello@example.com (example.com is reserved for documentation)',
      'content/site.yaml  bookingUrl  https://booking.example.com/free-audit (example.com is reserved for documentation)',
      'content/site.yaml  mailTo  leads@example.org (example.org is reserved for documentation)',
      "content/site.yaml  phone  020 7946 0321 (Ofcom's range 020 7946 0xxx is reserved for TV and radio drama)",
      "content/site.yaml  phoneE164  +442079460321 (Ofcom's range 020 7946 0xxx is reserved for TV and radio drama)",
    ]);
  });

  it('checks a constant the environment replaces as the server uses it, naming the variable', () => {
    const content = cleanContent();
    content.site.bookingUrl = 'https://booking.example.com/free-audit';
    expect(lines(content, { bookingUrl: { variable: 'BOOKING_URL', value: 'https://cal.citewise.co.uk/x' } })).toEqual([]);
    expect(lines(cleanContent(), { mailTo: { variable: 'MAIL_TO', value: 'ops@example.net' } })).toEqual([
      'environment  MAIL_TO  ops@example.net (example.net is reserved for documentation)',
    ]);
  });

  it('lists the placeholder company number and registered office', () => {
    const content = cleanContent();
    content.site.companyNumber = '00000000';
    content.site.registeredOffice.streetAddress = '1 Example Street';
    expect(lines(content)).toEqual([
      'content/site.yaml  companyNumber  00000000 (a placeholder: no company has this number)',
      'content/site.yaml  registeredOffice.streetAddress  1 Example Street (a placeholder address)',
    ]);
  });

  it('lists illustrative testimonials and case studies', () => {
    const content = cleanContent();
    content.home.testimonial.kind = 'illustrative';
    const [study] = content.caseStudies.studies;
    if (!study) throw new Error('no study');
    study.kind = 'illustrative';
    study.testimonial.kind = 'illustrative';
    expect(lines(content)).toEqual([
      'content/home.yaml  testimonial.kind  illustrative: an invented quote from "Ann, Ann Ltd"',
      'content/case-studies.yaml  studies[0].kind  illustrative: "Ann Ltd" is invented (its article content/articles/ann.md tells the same story)',
      'content/case-studies.yaml  studies[0].testimonial.kind  illustrative: an invented quote from "Ann, Ann Ltd"',
    ]);
  });

  it('lists each home statistic without a source, and a source at a documentation domain', () => {
    const content = cleanContent();
    const { hero, aiShift } = content.home;
    hero.stats[1] = { stat: '70%', label: 'of Gen Z use AI first' };
    aiShift.stats[0] = { icon: 'globe', stat: '1.8B+', description: 'Monthly visits to ChatGPT alone' };
    hero.stats[2] = { stat: '3', label: 'three', source: { ...source, url: 'https://www.example.com/report' } };
    expect(lines(content)).toEqual([
      'content/home.yaml  hero.stats[1].source  missing for "70% of Gen Z use AI first"',
      'content/home.yaml  hero.stats[2].source.url  https://www.example.com/report (example.com is reserved for documentation)',
      'content/home.yaml  aiShift.stats[0].source  missing for "1.8B+ Monthly visits to ChatGPT alone"',
    ]);
  });
});
