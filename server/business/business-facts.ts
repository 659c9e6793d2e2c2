/**
 * What a business's own website states about it, as the site check reads its home page (and its
 * contact page, when the home page links one): the facts an assistant's answer is checked against.
 * Plain data, stored with the check's report; every value bounded, every list capped. Read by
 * server/site-check/analysers/business-facts.ts; docs/site-check.md says how.
 */

/** Where a fact was read: which page, and whether from its structured data (JSON-LD), its links (tel:, mailto:) or its text. */
export interface FactSource {
  page: 'home page' | 'contact page';
  from: 'structured data' | 'link' | 'text';
}

/** One fact, kept once however often the pages state it: as its most trusted source writes it (structured data, then a link, then the text; the home page first among equals). */
export interface SiteFact {
  /** The fact as the page writes it ("0113 496 0000", "LS1 4AP", "Mon-Fri 8am-6pm"). */
  value: string;
  source: FactSource;
}

export interface BusinessFacts {
  /** Telephone numbers, as written; compared as numbers (libphonenumber-js, UK by default). */
  phones: SiteFact[];
  emails: SiteFact[];
  /** Street addresses, as written (one line each). */
  addresses: SiteFact[];
  /** UK postcodes, as written. */
  postcodes: SiteFact[];
  /** The town or city it is in (structured data's addressLocality, or the town of its postcode's address line). */
  towns: SiteFact[];
  openingHours: SiteFact[];
  /** The services or products it lists (structured data's offers and services, the page's service headings or list). */
  services: SiteFact[];
  /** The address of the contact page the facts were also read from; null: none linked, or it could not be read. */
  contactPage: string | null;
  /**
   * The readable text of the pages the facts came from (no script, style or structured data; white
   * space collapsed), home page first, cut at BUSINESS_TEXT_LIMIT: what a judge's "contradicted by
   * the site" must quote word for word.
   */
  text: string;
}

/** How much of the pages' text is kept beside the facts. */
export const BUSINESS_TEXT_LIMIT = 20_000;

/** Facts kept of each kind, at most. */
export const FACTS_PER_KIND = 10;

/** The town a site check read for the business (the first its pages give), for the direct questions about it; null: none read. */
export function townOf(check: { facts: { business?: BusinessFacts } | null } | null): string | null {
  return check?.facts?.business?.towns[0]?.value ?? null;
}
