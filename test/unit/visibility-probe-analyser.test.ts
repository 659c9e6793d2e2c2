import { scoreAssistant, VISIBILITY_WEIGHTS, wilsonInterval } from '../../server/visibility-probe/scoring';
import { readAnswer, type BusinessIdentity, type CitedSource } from '../../server/visibility-probe/who-is-named';
import { BUSINESS, hostileAnswer, namedFirst, namedOnlyByCitation, namedThird, notNamed } from '../fixtures/visibility-probe-answers';

/*
 * Who an answer names, and the score: text in, figures out, no network. The answers are the ones
 * the fake providers send in the probe's own tests.
 */

const acme: BusinessIdentity = { brand: BUSINESS.brand, domain: BUSINESS.domain };
const read = ({ text, sources }: { text: string; sources: CitedSource[] }, business = acme) => readAnswer(text, sources, business);

describe('who an answer names', () => {
  it('finds the business listed first, by its brand without "Ltd", and the businesses after it', () => {
    expect(read(namedFirst)).toEqual({
      named: true,
      position: 1,
      others: ['Pipe Pros Leeds', 'FlowFix Plumbing & Heating'],
      otherDomains: ['checkatrade.com'],
      citesOwnSite: true,
    });
  });

  it('finds it third, whatever its case and punctuation ("ACME-plumbing"), and leaves a tip out of the businesses', () => {
    expect(read(namedThird)).toEqual({
      named: true,
      position: 3,
      others: ['Pipe Pros Leeds', 'FlowFix Plumbing & Heating'],
      otherDomains: ['pipepros-leeds.co.uk', 'flowfix.co.uk'],
      citesOwnSite: false,
    });
  });

  it('says when it is not named, and who is', () => {
    expect(read(notNamed)).toEqual({
      named: false,
      position: null,
      others: ['Pipe Pros Leeds', 'FlowFix Plumbing & Heating', 'Boiler Doctors'],
      otherDomains: ['checkatrade.com', 'trustedtraders.which.co.uk'],
      citesOwnSite: false,
    });
  });

  it('counts it named when only a cited page is its own, with no place in a list (a redirect is read by its title, never followed)', () => {
    expect(read(namedOnlyByCitation)).toEqual({ named: true, position: null, others: [], otherDomains: ['gassaferegister.co.uk'], citesOwnSite: true });
  });

  it('recognises it by its domain alone, in the text or a source, when its brand is unknown', () => {
    const byDomain: BusinessIdentity = { brand: null, domain: BUSINESS.domain };
    expect(read(namedFirst, byDomain)).toMatchObject({ named: true, position: 1, citesOwnSite: true });
    expect(read({ text: 'Try www.AcmePlumbing.co.uk, or **Pipe Pros Leeds**.', sources: [] }, byDomain)).toMatchObject({ named: true, position: 1, citesOwnSite: false });
    expect(read(namedThird, byDomain)).toMatchObject({ named: false, position: null });
  });

  it('is not fooled by a longer word or another domain that contains the name', () => {
    const lookalikes = { text: '**Acmeson Plumbing**, **Acme Plumbingworks** and notacmeplumbing.co.uk are all fine.', sources: [{ url: 'https://acmeplumbing.co.uk.evil.example/', title: null }] };
    expect(read(lookalikes)).toMatchObject({ named: false, citesOwnSite: false });
  });

  it('places it by its earliest mention: an answer that writes the domain before the list has named it first', () => {
    const domainFirst = { text: 'See acmeplumbing.co.uk for prices.\n\n1. **Pipe Pros** – fast.\n2. **Acme Plumbing** – local.', sources: [] };
    expect(read(domainFirst)).toMatchObject({ named: true, position: 1, others: ['Pipe Pros'] });
  });

  it('lists a competitor once however often one answer names it, whatever its case', () => {
    const twice = { text: '1. **Pipe Pros** – fast.\n2. **FlowFix** – cheap.\n\nMost landlords pick **PIPE PROS** in the end; **Pipe Pros** answers at night.', sources: [] };
    expect(read(twice).others).toEqual(['Pipe Pros', 'FlowFix']);
  });

  it('counts no other domain that merely ends in its own as its site', () => {
    const lookalike = { text: 'Compare **Pipe Pros** with others.', sources: [{ url: 'https://notacmeplumbing.co.uk/leeds', title: 'Leeds plumbers' }] };
    expect(read(lookalike)).toMatchObject({ named: false, citesOwnSite: false, otherDomains: ['notacmeplumbing.co.uk'] });
  });

  it('on a platform, counts only the business\'s page there as its own, and the platform as another site', () => {
    const onYell: BusinessIdentity = { brand: null, domain: 'yell.com/biz/acme-plumbing-123' };
    const others = { text: '1. **Pipe Pros** – yell.com/biz/pipe-pros-456.\n2. **FlowFix** – https://www.yell.com/biz/flowfix-789', sources: [{ url: 'https://www.yell.com/biz/pipe-pros-456/', title: 'Pipe Pros | Yell' }] };
    expect(read(others, onYell)).toEqual({ named: false, position: null, others: ['Pipe Pros', 'FlowFix'], otherDomains: ['yell.com'], citesOwnSite: false });
    const own = { text: '1. **Pipe Pros** – fast.\n2. Acme, at yell.com/biz/acme-plumbing-123.', sources: [{ url: 'https://yell.com/biz/acme-plumbing-123/reviews', title: null }] };
    expect(read(own, onYell)).toEqual({ named: true, position: 2, others: ['Pipe Pros'], otherDomains: [], citesOwnSite: true });
  });

  it('reads HTML and an instruction in an answer as text: nothing named, a link neither followed nor counted as the business', () => {
    expect(read(hostileAnswer('http://127.0.0.1:9'))).toEqual({ named: false, position: null, others: ['Pipe Pros Leeds'], otherDomains: ['127.0.0.1'], citesOwnSite: false });
  });
});

describe('the visibility score', () => {
  it('weighs four shares that add up to 100', () => {
    expect(Object.values(VISIBILITY_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBe(100);
  });

  it('is 100 for a business named first and alone in every answer, citing its own site, and 0 for one never named', () => {
    const alone = read({ text: '**Acme Plumbing** is the one to call.', sources: namedFirst.sources.slice(0, 1) });
    expect(scoreAssistant([alone, alone])).toMatchObject({ answered: 2, named: 2, cited: 2, visibilityRate: 1, averagePosition: 1, shareOfVoice: 1, score: 100 });
    expect(scoreAssistant([read(notNamed), read(notNamed)])).toMatchObject({ named: 0, visibilityRate: 0, averagePosition: null, shareOfVoice: 0, score: 0 });
  });

  it('gives one assistant\'s figures from its answers: named in 3 of 4, cited in 2, average position 2, share of voice', () => {
    const figures = scoreAssistant([namedFirst, namedThird, notNamed, namedOnlyByCitation].map((answer) => read(answer)));
    // Named in 3 of 4 (3 of them in the text, at 1 and 3); 3 of the 10 names in the answers are its own.
    expect(figures).toEqual({
      answered: 4,
      named: 3,
      cited: 2,
      visibilityRate: 0.75,
      visibilityRange: [0.301, 0.954],
      citationRate: 0.5,
      averagePosition: 2,
      shareOfVoice: 0.3,
      // 50 x 3/4 + 20 x (1 + 1/3) / 4 + 15 x 2/4 + 15 x 3/10
      score: Math.round(37.5 + 6.667 + 7.5 + 4.5),
    });
    expect(scoreAssistant([])).toMatchObject({ answered: 0, score: null, visibilityRange: null });
  });

  it('says how far a rate from 10 answers can be off: 5 of 10 is anywhere from about 24% to 76%', () => {
    expect(wilsonInterval(5, 10)).toEqual([0.237, 0.763]);
    expect(wilsonInterval(0, 10)).toEqual([0, 0.278]);
    expect(wilsonInterval(10, 10)).toEqual([0.722, 1]);
  });
});
