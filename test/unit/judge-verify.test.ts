import { judgePrompt, MAX_CLAIMS, verifiedJudgement, type JudgeInput, type RawJudgement } from '../../server/answer-check/judge';
import { BUSINESS_TEXT_LIMIT } from '../../server/business/business-facts';
import { MAX_ANSWER_CHARACTERS } from '../../server/visibility-probe/call-limits';

/*
 * What is kept of a judge's verdict: only what rests on words found where the judge says they are.
 * A quote counts when it is in the text word for word, whitespace and typographic marks aside.
 */

const ANSWER = 'Acme Plumbing Ltd is a family firm in Leeds.\nThey\u2019re open 24 hours a day \u2014 even on Sundays. A boiler service costs \u00a380.';
const SITE = 'Acme Plumbing Ltd, Leeds.   Open Monday to Friday,\u00a08am\u20136pm.\n\nWe are closed at weekends. Boiler servicing from \u00a375.';

type Claim = RawJudgement['claims'][number];

const claim = (fields: Partial<Claim>): Claim => ({ about: 'status', claim: 'open every day', verdict: 'not on site', quote: 'A boiler service costs \u00a380.', siteQuote: null, ...fields });
const judgement = (claims: Claim[], toneQuote = 'Acme Plumbing Ltd is a family firm in Leeds.'): RawJudgement => ({ tone: { value: 'positive', quote: toneQuote }, claims });
const verified = (claims: Claim[], toneQuote?: string) => verifiedJudgement(judgement(claims, toneQuote), ANSWER, SITE);

describe('a verdict\'s quotes', () => {
  it('keeps a verdict whose quotes are in the texts word for word', () => {
    const contradicted = claim({ verdict: 'contradicted', quote: 'They\u2019re open 24 hours a day \u2014 even on Sundays.', siteQuote: 'We are closed at weekends.' });
    expect(verified([contradicted])).toEqual({ tone: { value: 'positive', quote: 'Acme Plumbing Ltd is a family firm in Leeds.' }, claims: [contradicted], dropped: 0 });
  });

  it('reads whitespace runs, line breaks and non-breaking spaces as one space, and typographic quotes, apostrophes and dashes as plain ones, both ways', () => {
    const claims = [
      // A line break in the answer, a plain apostrophe and hyphen for its curly one and its dash.
      claim({ quote: "Leeds. They're open 24 hours a day - even on Sundays." }),
      // The site's non-breaking space, double space and en dash, quoted plainly.
      claim({ verdict: 'contradicted', quote: 'A boiler service costs \u00a380.', siteQuote: 'Leeds. Open Monday to Friday, 8am-6pm. We are closed at weekends.' }),
      // Typographic marks in a quote of plain text.
      claim({ verdict: 'supported', quote: 'Acme Plumbing Ltd is a family firm in Leeds.', siteQuote: 'Open Monday to Friday,  8am\u20126pm.' }),
      // Leading and trailing whitespace.
      claim({ quote: '  A boiler service costs \u00a380.\n' }),
    ];
    const result = verified(claims);
    expect(result.dropped).toBe(0);
    expect(result.claims).toHaveLength(4);
    expect(result.claims[2]?.siteQuote).toBe('Open Monday to Friday,  8am\u20126pm.');
  });

  it.each([
    ['in another letter case', 'acme plumbing ltd is a family firm in leeds.'],
    ['with a word changed', 'Acme Plumbing Ltd is a family business in Leeds.'],
    ['with a word left out', 'Acme Plumbing Ltd is a firm in Leeds.'],
    ['with other punctuation', 'Acme Plumbing Ltd is a family firm in Leeds!'],
    ['joined from two places', 'Acme Plumbing Ltd is a family firm in Leeds. A boiler service costs \u00a380.'],
    ['with quotation marks added', '"Acme Plumbing Ltd is a family firm in Leeds."'],
    ['empty', ''],
    ['whitespace only', ' \n\t'],
    ['punctuation only', '.'],
  ])('drops and counts a claim whose quote is %s', (_shape, quote) => {
    expect(verified([claim({ quote })])).toMatchObject({ claims: [], dropped: 1 });
  });

  it('drops the tone, and counts it, when its quote is not in the answer', () => {
    expect(verified([], 'Acme is the best plumber in Leeds.')).toEqual({ tone: null, claims: [], dropped: 1 });
    expect(verified([], '')).toEqual({ tone: null, claims: [], dropped: 1 });
    // A quote from the site is not the answer's.
    expect(verified([], 'We are closed at weekends.')).toEqual({ tone: null, claims: [], dropped: 1 });
  });

  it('keeps a contradiction only when its site quote is in the site\'s text', () => {
    const contradicted = (siteQuote: string | null) => claim({ verdict: 'contradicted', siteQuote });
    expect(verified([contradicted('We are closed at weekends.')]).claims).toHaveLength(1);
    expect(verified([contradicted(null)])).toMatchObject({ claims: [], dropped: 1 });
    expect(verified([contradicted('')])).toMatchObject({ claims: [], dropped: 1 });
    expect(verified([contradicted('We are closed on Sundays.')])).toMatchObject({ claims: [], dropped: 1 });
    // Words of the answer are not the site's.
    expect(verified([contradicted('open 24 hours a day')])).toMatchObject({ claims: [], dropped: 1 });
  });

  it('keeps a supported claim whose site quote is not found, without that quote; a claim not on the site never has one', () => {
    expect(verified([claim({ verdict: 'supported', siteQuote: 'Boiler servicing from \u00a380.' })])).toEqual(expect.objectContaining({ claims: [expect.objectContaining({ verdict: 'supported', siteQuote: null })], dropped: 0 }));
    expect(verified([claim({ verdict: 'supported', siteQuote: 'Boiler servicing from \u00a375.' })]).claims[0]?.siteQuote).toBe('Boiler servicing from \u00a375.');
    expect(verified([claim({ verdict: 'not on site', siteQuote: 'We are closed at weekends.' })]).claims[0]?.siteQuote).toBeNull();
  });

  it(`reads at most ${MAX_CLAIMS} claims, counting the rest as dropped`, () => {
    const result = verified(Array.from({ length: MAX_CLAIMS + 3 }, () => claim({})));
    expect(result).toMatchObject({ dropped: 3 });
    expect(result.claims).toHaveLength(MAX_CLAIMS);
    // A bad quote among the first is counted as well.
    expect(verified([claim({ quote: 'made up' }), ...Array.from({ length: MAX_CLAIMS }, () => claim({}))])).toMatchObject({ dropped: 2 });
  });

  it('counts every verdict dropped in one judgement', () => {
    const result = verified([claim({}), claim({ quote: 'made up' }), claim({ verdict: 'contradicted', siteQuote: 'made up' }), claim({ verdict: 'contradicted', siteQuote: 'We are closed at weekends.' })], 'made up');
    expect(result).toMatchObject({ tone: null, dropped: 3 });
    expect(result.claims.map((kept) => kept.verdict)).toEqual(['not on site', 'contradicted']);
  });
});

describe('the judge\'s prompt', () => {
  const fact = (value: string) => ({ value, source: { page: 'home page' as const, from: 'text' as const } });
  const input: JudgeInput = {
    name: 'Acme Plumbing Ltd',
    site: 'acmeplumbing.co.uk',
    town: 'Leeds',
    facts: { phones: [fact('0113 496 0000')], emails: [], postcodes: [fact('LS1 6BY')], towns: [fact('Leeds')], openingHours: [fact('Mon-Fri 8am-6pm')], services: [fact('Boiler servicing'), fact('Emergency call-outs')], text: SITE },
    answer: ANSWER,
  };

  it('says that quotes are copied word for word, and what each verdict and tone means', () => {
    const { system } = judgePrompt(input);
    expect(system).toMatch(/copied word for word/);
    for (const word of ['"positive"', '"neutral"', '"mixed"', '"negative"', '"service"', '"place"', '"status"', '"price"', '"supported"', '"contradicted"', '"not on site"']) expect(system).toContain(word);
  });

  it('gives the business, each of its facts, its site\'s text and the answer', () => {
    const { prompt } = judgePrompt(input);
    expect(prompt).toContain('Name: Acme Plumbing Ltd\nWebsite: acmeplumbing.co.uk\nTown: Leeds');
    expect(prompt).toContain('Phone numbers: 0113 496 0000\nE-mail addresses: (none given)\nPostcodes: LS1 6BY\nTowns: Leeds\nOpening hours: Mon-Fri 8am-6pm\nServices: Boiler servicing; Emergency call-outs');
    expect(prompt).toContain(`<website_text>\n${SITE}\n</website_text>`);
    expect(prompt).toContain(`<answer>\n${ANSWER}\n</answer>`);
    expect(judgePrompt({ ...input, name: null, site: null, town: null }).prompt).toContain('Name: (no name read)\nWebsite: (none)\nTown: (not given)');
  });

  it('gives no more of an answer or a site\'s text than is ever kept', () => {
    const { prompt } = judgePrompt({ ...input, answer: 'a'.repeat(MAX_ANSWER_CHARACTERS + 1_000), facts: { ...input.facts, text: 'b'.repeat(BUSINESS_TEXT_LIMIT + 1_000) } });
    expect(prompt).toContain(`<answer>\n${'a'.repeat(MAX_ANSWER_CHARACTERS)}\n</answer>`);
    expect(prompt).toContain(`<website_text>\n${'b'.repeat(BUSINESS_TEXT_LIMIT)}\n</website_text>`);
  });
});
