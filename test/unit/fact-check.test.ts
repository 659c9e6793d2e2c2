import type { BusinessFacts } from '../../server/business/business-facts';
import { checkFacts, LONGEST_QUOTE, MOST_FINDINGS, type FactCheck, type FactFinding } from '../../server/answer-check/fact-check';
import { MAX_ANSWER_CHARACTERS } from '../../server/visibility-probe/call-limits';
import { ASSISTANTS, businessFacts, FACT_KINDS, factCorpus, scoreFactCorpus } from '../helpers/fact-corpus';

/*
 * The facts check: the contact facts an assistant's answer gets wrong about a business, against
 * its own site, without guessing whose a fact is. Measured on a labelled set of answers in the
 * four assistants' shapes (test/fixtures/answers-about-business/answers.yaml; docs/answer-facts.md
 * states the score: `npx tsx scripts/fact-corpus.ts` prints it), and each rule on its own below.
 */

const fact = (value: string) => ({ value, source: { page: 'home page' as const, from: 'text' as const } });

/** Acme Plumbing of Leeds, as its site states it. */
function acmeFacts(overrides: Partial<BusinessFacts> = {}): BusinessFacts {
  return {
    phones: [fact('+44 113 496 0001'), fact('0808 157 0123')],
    emails: [fact('info@acmeplumbing.co.uk')],
    addresses: [fact('12 Park Row, Leeds LS1 4AP')],
    postcodes: [fact('LS1 4AP')],
    towns: [fact('Leeds')],
    openingHours: [fact('Mon-Fri 8am-6pm')],
    services: [fact('Boiler repair')],
    contactPage: null,
    text: 'Acme Plumbing. Plumbers in Leeds. Call +44 113 496 0001.',
    ...overrides,
  };
}

function check(text: string, about: boolean, facts: BusinessFacts = acmeFacts()): FactCheck {
  return checkFacts({ text, sources: [] }, { brand: 'Acme Plumbing Ltd', domain: 'acmeplumbing.co.uk', facts }, { aboutTheBusiness: about });
}

const saids = (findings: readonly { said: string }[]) => findings.map((finding) => finding.said);

describe('the labelled set of answers about a business', () => {
  const corpus = factCorpus();
  const score = scoreFactCorpus();

  it('holds at least 60 answers in the four assistants\' shapes, about at least 8 firms, with every kind of wrong fact', () => {
    expect(corpus.businesses.length).toBeGreaterThanOrEqual(8);
    expect(corpus.answers.length).toBeGreaterThanOrEqual(60);
    expect(new Set(corpus.answers.map((answer) => answer.id)).size).toBe(corpus.answers.length);
    const businesses = new Set(corpus.businesses.map((business) => business.id));
    for (const answer of corpus.answers) expect({ id: answer.id, business: businesses.has(answer.business) }).toEqual({ id: answer.id, business: true });
    for (const assistant of ASSISTANTS) expect(corpus.answers.filter((answer) => answer.assistant === assistant).length).toBeGreaterThanOrEqual(12);
    expect(corpus.answers.some((answer) => answer.about)).toBe(true);
    expect(corpus.answers.some((answer) => !answer.about)).toBe(true);
    for (const kind of FACT_KINDS) expect(corpus.answers.some((answer) => answer.wrong.some((wrong) => wrong.kind === kind))).toBe(true);
    for (const answer of corpus.answers) {
      for (const claim of answer.claims) {
        expect(['service', 'place', 'status', 'price']).toContain(claim.about);
        expect(['supported', 'contradicted', 'not on site']).toContain(claim.verdict);
      }
      if (answer.tone !== undefined) expect(['positive', 'neutral', 'mixed', 'negative']).toContain(answer.tone);
      // What a reader labels is what the answer writes.
      for (const wrong of answer.wrong) expect({ id: answer.id, written: answer.text.includes(wrong.said) }).toEqual({ id: answer.id, written: true });
    }
  });

  it('gets every labelled contact fact right: no labelled wrong fact missed, and no finding a reader did not label', () => {
    expect(score.misses).toEqual([]);
    expect(score.truePositives).toBe(score.labelled);
    expect(score.labelled).toBeGreaterThanOrEqual(25);
  });

  it('quotes each finding word for word from the answer, beside what the site itself gives', () => {
    const businesses = new Map(corpus.businesses.map((business) => [business.id, business]));
    for (const { answer, check: result } of score.results) {
      const business = businesses.get(answer.business);
      if (!business) throw new Error(answer.id);
      for (const finding of result.wrong) {
        expect({ id: answer.id, quoted: answer.text.includes(finding.quote), holds: finding.quote.includes(finding.said) }).toEqual({ id: answer.id, quoted: true, holds: true });
        expect(finding.quote.length).toBeLessThanOrEqual(LONGEST_QUOTE);
        const site = businessFacts(business);
        const expected = { phone: site.phones, email: site.emails, postcode: site.postcodes, website: null, closed: null }[finding.kind];
        expect(finding.siteSays).toBe(finding.kind === 'website' ? business.site : expected === null ? null : expected.map((value) => value.value).join(' or '));
      }
      for (const right of result.right) expect(answer.text).toContain(right.said);
    }
  });
});

describe('telephone numbers', () => {
  it('finds a wrong number written in another format, with the sentence it stands in and the site\'s number', () => {
    const result = check('Acme Plumbing is a Gas Safe registered firm in Leeds. You can call them on 0113 496 0000 during office hours.', true);
    expect(result.wrong).toEqual<FactFinding[]>([
      { kind: 'phone', said: '0113 496 0000', quote: 'You can call them on 0113 496 0000 during office hours.', siteSays: '+44 113 496 0001 or 0808 157 0123', whose: null },
    ]);
  });

  it('reads the right number written otherwise as right, with no finding', () => {
    for (const written of ['(0113) 4960001', '+44 (0)113 496 0001', '0113.496.0001', '0113-496-0001', '0113 496 0001 ext. 12', '01134960001', '0808 157 0123']) {
      const result = check(`You can reach **Acme Plumbing** on ${written}.`, true);
      expect({ written, wrong: result.wrong }).toEqual({ written, wrong: [] });
      expect(result.right).toEqual([{ kind: 'phone', said: written }]);
    }
  });

  it('gives a competitor\'s number beside the business\'s to the competitor, in every shape answers take', () => {
    const shapes = [
      '1. **Acme Plumbing** – 0113 496 0001\n2. **Pipe Pros Leeds** – call 0113 496 0999',
      'Try Acme (0113 496 0001) and Pipe Pros Leeds (0113 496 0999); both cover Leeds.',
      'Acme Plumbing (0113 496 0001) and **Pipe Pros** (0113 496 0999) both cover Leeds.',
      '### 1. Pipe Pros Leeds\nFixed prices for call-outs.\n\nCall 0113 496 0999 for a quote.\n\n### 2. Acme Plumbing\nCall 0113 496 0001.',
      '**Acme Plumbing**\n* **Contact:** 0113 496 0001\n\n**Pipe Pros Leeds**\n* **Key features:** fast call-outs.\n* **Contact:** 0113 496 0999',
      'You can call Acme Plumbing on 0113 496 0001. If they are busy, Pipe Pros Leeds (0113 496 0999) also covers Leeds.',
      '**Pipe Pros Leeds** is another option, on 0113 496 0999.\n\nAcme Plumbing answers on 0113 496 0001.',
      '| Plumber | Phone |\n|---|---|\n| Acme Plumbing | 0113 496 0001 |\n| Pipe Pros Leeds | 0113 496 0999 |',
    ];
    for (const about of [true, false]) {
      for (const text of shapes) {
        const result = check(text, about);
        expect({ text, about, wrong: result.wrong }).toEqual({ text, about, wrong: [] });
        expect({ text, about, right: saids(result.right) }).toEqual({ text, about, right: ['0113 496 0001'] });
      }
    }
  });

  it('never takes a number in a competitor\'s entry for the business\'s, even where that entry names the business', () => {
    for (const text of [
      '1. **KeyFast Leeds** – took over many of Acme Plumbing\'s contracts in 2024. Call 0113 496 0888.\n2. **Brumlock** – 0113 496 0999.',
      '1. **KeyFast Leeds** – formerly Acme Plumbing\'s engineers, on 0113 496 0888.',
      '### Pipe Pros Leeds\nUnlike Acme Plumbing, they answer on 0113 496 0999.',
      '**Pipe Pros Leeds**\n* **Contact:** as Acme Plumbing\'s old partner, 0113 496 0999',
    ]) {
      expect({ text, wrong: check(text, true).wrong }).toEqual({ text, wrong: [] });
      expect({ text, wrong: check(text, false).wrong }).toEqual({ text, wrong: [] });
    }
  });

  it('reads each number of a list written with commas ("0113 496 0001, 07700 900999"), not the next as an extension', () => {
    const result = check('Acme Plumbing lists three numbers: 0113 496 0001, 07700 900999; 0808 157 0123.', true);
    expect(saids(result.wrong)).toEqual(['07700 900999']);
    expect(saids(result.right)).toEqual(['0113 496 0001', '0808 157 0123']);
  });

  it('reads a number before a citation mark ("0113 496 0000[2]"), as Perplexity writes it', () => {
    expect(saids(check('Acme Plumbing can be reached on 0113 496 0000[1][2]. Their freephone is 0808 157 0123[1].', true).wrong)).toEqual(['0113 496 0000']);
  });

  it('reads a drama or new range\'s number (not allocated, but a number to call) and ignores years, prices and company numbers', () => {
    expect(saids(check('Acme Plumbing: call 07700 900123.', true).wrong)).toEqual(['07700 900123']);
    expect(check('Acme Plumbing was founded in 2009 and charges £1,250,000 less than most; company no. 01234567; VAT 123 4567 89.', true)).toEqual({ wrong: [], right: [] });
  });

  it('tells no number wrong when the site gives none', () => {
    expect(check('Call Acme Plumbing on 0113 496 0000.', true, acmeFacts({ phones: [] }))).toEqual({ wrong: [], right: [] });
  });
});

describe('which parts of an answer speak of the business', () => {
  it('in a search\'s answer, reads only what it gives for the business', () => {
    const text = 'Here are some plumbers in Leeds:\n\n1. **Pipe Pros Leeds** – 0113 496 0999\n2. **FlowFix** – info@flowfix.co.uk, LS6 2AB\n\nCall 0113 496 0777 for a quote.';
    expect(check(text, false)).toEqual({ wrong: [], right: [] });
    // Asked about the business, the answer's own lines are the business's.
    expect(saids(check(text, true).wrong)).toEqual(['0113 496 0777']);
  });

  it('reads a fact the sentence gives for the business wherever it stands ("Call 0113 … to reach Acme")', () => {
    expect(saids(check('For a boiler repair, call 0113 496 0000 to reach Acme Plumbing.', false).wrong)).toEqual(['0113 496 0000']);
    expect(saids(check("Acme Plumbing's number is 0113 496 0000.", false).wrong)).toEqual(['0113 496 0000']);
    expect(saids(check('Here are Acme Plumbing\'s details:\n- Phone: 0113 496 0000\n- Email: hello@acmeplumbing.co.uk', false).wrong)).toEqual(['0113 496 0000', 'hello@acmeplumbing.co.uk']);
  });

  it('reads a paragraph after a bold header\'s bullets as the answer\'s own again, not that header\'s', () => {
    const text = '**1. Pipe Pros Leeds**\n* **Contact:** 0113 496 0999\n\nFor emergencies, Acme Plumbing runs a 24/7 line on 0113 496 0000.';
    expect(saids(check(text, false).wrong)).toEqual(['0113 496 0000']);
    expect(saids(check(text, true).wrong)).toEqual(['0113 496 0000']);
  });

  it('gives no one a fact the answer leaves unclear', () => {
    expect(check('Pipe Pros Leeds and Acme Plumbing both cover Leeds. Call 0113 496 0000 for a quote.', false).wrong).toEqual([]);
    expect(check('Pipe Pros Leeds is another option. Their number is 0113 496 0999.', true).wrong).toEqual([]);
    expect(check("If you can't reach them, Leeds Plumbing Co (0113 496 0999) is another option.", true).wrong).toEqual([]);
    // "Acme" alone is how answers shorten Acme Plumbing; "Acme Roofing" is another firm.
    expect(check('For roofs, try Acme Roofing (0113 496 0999) instead.', true).wrong).toEqual([]);
    expect(saids(check('For boilers, Acme (0113 496 0000) covers Leeds.', false).wrong)).toEqual(['0113 496 0000']);
  });
});

describe('e-mail addresses', () => {
  it('compares them in any case, and tells one the site does not list wrong, even at the business\'s own domain', () => {
    expect(check('Email Acme Plumbing at INFO@ACMEPLUMBING.CO.UK.', true)).toEqual({ wrong: [], right: [{ kind: 'email', said: 'INFO@ACMEPLUMBING.CO.UK' }] });
    expect(check('Email Acme Plumbing at [enquiries@acmeplumbing.co.uk](mailto:enquiries@acmeplumbing.co.uk).', true).wrong).toEqual([
      { kind: 'email', said: 'enquiries@acmeplumbing.co.uk', quote: 'Email Acme Plumbing at [enquiries@acmeplumbing.co.uk](mailto:enquiries@acmeplumbing.co.uk).', siteSays: 'info@acmeplumbing.co.uk', whose: null },
    ]);
  });

  it('tells none wrong when the site lists none', () => {
    expect(check('Email Acme Plumbing at enquiries@acmeplumbing.co.uk.', true, acmeFacts({ emails: [] }))).toEqual({ wrong: [], right: [] });
  });
});

describe('postcodes', () => {
  it('compares them with or without the space, as the site writes them in any case', () => {
    expect(check('Acme Plumbing, 12 Park Row, Leeds LS14AP.', true)).toEqual({ wrong: [], right: [{ kind: 'postcode', said: 'LS14AP' }] });
    expect(check('Acme Plumbing, 12 Park Row, Leeds LS1 4AP.', true, acmeFacts({ postcodes: [fact('ls14ap')] })).right).toEqual([{ kind: 'postcode', said: 'LS1 4AP' }]);
    const wrong = check('Acme Plumbing is at 12 Park Row, Leeds LS1 4AB.', true).wrong;
    expect(wrong).toEqual([{ kind: 'postcode', said: 'LS1 4AB', quote: 'Acme Plumbing is at 12 Park Row, Leeds LS1 4AB.', siteSays: 'LS1 4AP', whose: null }]);
  });

  it('reads only real postcodes, and none wrong when the site gives none', () => {
    expect(check('Acme Plumbing, unit XX1 2YY.', true).wrong).toEqual([]);
    expect(check('Acme Plumbing is at LS1 4AB.', true, acmeFacts({ postcodes: [] })).wrong).toEqual([]);
  });
});

describe('web addresses', () => {
  it('finds a competitor\'s site given for the business, and says whose it is', () => {
    const list = '1. **Acme Plumbing** – boilers and bathrooms. Website: pipepros.co.uk\n2. **Pipe Pros Leeds** – fixed prices. Website: pipepros.co.uk';
    expect(check(list, false).wrong).toEqual([
      { kind: 'website', said: 'pipepros.co.uk', quote: 'Website: pipepros.co.uk', siteSays: 'acmeplumbing.co.uk', whose: 'Pipe Pros Leeds' },
    ]);
    // The address spells a name the answer gives, though no entry of that name writes it.
    const spelled = 'The best known are **Pipe Pros Leeds** and Acme Plumbing. Acme Plumbing (pipeprosleeds.co.uk) fits bathrooms.';
    expect(check(spelled, false).wrong.map(({ said, whose }) => ({ said, whose }))).toEqual([{ said: 'pipeprosleeds.co.uk', whose: 'Pipe Pros Leeds' }]);
    expect(check('Acme Plumbing\'s website is www.acme-plumbing-leeds.com.', true).wrong.map(({ said, whose }) => ({ said, whose }))).toEqual([{ said: 'www.acme-plumbing-leeds.com', whose: null }]);
  });

  it('reads the business\'s own site as right, and its pages on platforms and directories as no finding', () => {
    const text = [
      '**Acme Plumbing**',
      '* **Website:** https://www.acmeplumbing.co.uk/contact',
      '* **Facebook:** facebook.com/acmeplumbingleeds',
      '* **Checkatrade:** checkatrade.com/trades/acmeplumbing',
      '* **Yell:** [Acme Plumbing on Yell](https://www.yell.com/biz/acme-plumbing-leeds-123456/)',
      '* **Map:** [Google Maps](https://maps.app.goo.gl/AbC123)',
      '* **Reviews:** trustpilot.com/review/acmeplumbing.co.uk',
    ].join('\n');
    expect(check(text, true)).toEqual({ wrong: [], right: [{ kind: 'website', said: 'https://www.acmeplumbing.co.uk/contact' }] });
  });

  it('takes no citation for an address the answer gives', () => {
    const text = '1. **Acme Plumbing** – 24/7 call-outs. ([pipepros.co.uk](https://pipepros.co.uk/emergency?utm_source=openai))';
    expect(check(text, false)).toEqual({ wrong: [], right: [] });
  });
});

describe('closed for good', () => {
  it('finds an answer that says the business has closed, with its sentence', () => {
    expect(check('Acme Plumbing appears to be **permanently closed**, according to Google.', true).wrong).toEqual([
      { kind: 'closed', said: 'permanently closed', quote: 'Acme Plumbing appears to be **permanently closed**, according to Google.', siteSays: null, whose: null },
    ]);
    for (const text of ['Acme Plumbing ceased trading in 2023.', 'I believe Acme Plumbing has closed down.', 'Acme Plumbing is no longer trading.', 'Acme Plumbing has closed.']) {
      expect({ text, kinds: check(text, true).wrong.map((finding) => finding.kind) }).toEqual({ text, kinds: ['closed'] });
    }
  });

  it('reads opening hours, a pause, a denial, a condition or a listing the answer corrects as no closure', () => {
    for (const text of [
      'Acme Plumbing is closed on Sundays and bank holidays.',
      'Acme Plumbing was temporarily closed during the floods.',
      'Acme Plumbing has closed for the Christmas holidays.',
      'Acme Plumbing is not permanently closed.',
      "Acme Plumbing hasn't closed down, whatever some listings say.",
      'If Acme Plumbing has closed down, try another firm.',
      'Some listings show Acme Plumbing as permanently closed, but the business is still trading.',
      'Pipe Pros Leeds has closed down, so Acme Plumbing took on its customers.',
    ]) {
      expect({ text, wrong: check(text, true).wrong }).toEqual({ text, wrong: [] });
    }
  });
});

describe('bounds', () => {
  it('quotes a long sentence as a window of whole words around the fact, word for word', () => {
    const filler = 'they are a family firm that has been working across the north of the city for many years and ';
    const text = `Acme Plumbing ${filler.repeat(5)}can be called on 0113 496 0000 ${filler.repeat(5)}at any time.`;
    const [finding] = check(text, true).wrong;
    expect(finding?.said).toBe('0113 496 0000');
    expect(finding?.quote.length).toBeLessThanOrEqual(LONGEST_QUOTE);
    expect(text).toContain(finding?.quote);
    expect(finding?.quote).toContain('0113 496 0000');
    expect(finding?.quote).toMatch(/^\S.*\S$/);
  });

  it('keeps at most MOST_FINDINGS findings of each list, and reads no more than MAX_ANSWER_CHARACTERS', () => {
    const many = Array.from({ length: 40 }, (_, index) => `0113 496 0${String(100 + index)}`).join(', ');
    const result = check(`Acme Plumbing's numbers: ${many}.`, true);
    expect(result.wrong).toHaveLength(MOST_FINDINGS);
    const beyond = `Acme Plumbing. ${'x'.repeat(MAX_ANSWER_CHARACTERS)} Call 0113 496 0000.`;
    expect(check(beyond, true).wrong).toEqual([]);
  });

  it('reads a hostile answer of the longest length to its end: runs of digits, "@", postcodes, brackets, names', () => {
    const fill = (unit: string) => unit.repeat(Math.ceil(MAX_ANSWER_CHARACTERS / unit.length)).slice(0, MAX_ANSWER_CHARACTERS);
    const hostile = [
      '0'.repeat(MAX_ANSWER_CHARACTERS),
      fill('1234567890'),
      fill('0113 496 0000 '),
      '@'.repeat(MAX_ANSWER_CHARACTERS),
      fill('a@b.co.uk@'),
      fill('LS1 4AP '),
      fill('LS14AP4'),
      fill('(['),
      fill('[a](b'),
      fill('**Pipe Pros** '),
      fill('Abc '),
      fill('x.co.uk/'),
      fill('*'),
      fill('A. '),
      fill('permanently closed '),
      fill('- **A**: 0113 496 0999\n'),
      fill('**Acme Plumbing** – call 0113 496 0132, info@x.co.uk, LS7 2BD, pipe.co.uk; '),
    ];
    for (const text of hostile) {
      const result = check(text, true);
      expect(result.wrong.length).toBeLessThanOrEqual(MOST_FINDINGS);
      expect(result.right.length).toBeLessThanOrEqual(MOST_FINDINGS);
      for (const finding of result.wrong) {
        expect(finding.quote.length).toBeLessThanOrEqual(LONGEST_QUOTE);
        expect(text).toContain(finding.quote);
      }
    }
  });
});
