/** schema.org objects for the page's JSON-LD blocks. */
export type JsonLd = Record<string, unknown>;

/** The agency's node: every page describes it once (shared/site-json-ld.ts) and others point at it. */
export const organizationId = (siteUrl: string) => `${siteUrl}/#organization`;

export function breadcrumbJsonLd(siteUrl: string, trail: { name: string; path: string }[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: `${siteUrl}${crumb.path}`,
    })),
  };
}

export function serviceJsonLd(siteUrl: string, description: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: 'LLM-SEO (AI search optimisation)',
    serviceType: 'AI search optimisation',
    description,
    provider: { '@id': organizationId(siteUrl) },
    areaServed: { '@type': 'Country', name: 'United Kingdom' },
    offers: [
      { '@type': 'Offer', name: 'Free AI Visibility Audit', price: '0', priceCurrency: 'GBP' },
      { '@type': 'Offer', name: 'Core', price: '1500', priceCurrency: 'GBP' },
      {
        '@type': 'Offer',
        name: 'Authority',
        priceSpecification: { '@type': 'UnitPriceSpecification', price: '2000', priceCurrency: 'GBP', unitText: 'MONTH' },
      },
    ],
  };
}

/** A free tool on the site, offered by the agency (the public AI-readiness check). */
export function webApplicationJsonLd(siteUrl: string, tool: { name: string; path: string; description: string }): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebApplication',
    name: tool.name,
    url: `${siteUrl}${tool.path}`,
    description: tool.description,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Any (in a web browser)',
    isAccessibleForFree: true,
    offers: { '@type': 'Offer', price: '0', priceCurrency: 'GBP' },
    provider: { '@id': organizationId(siteUrl) },
  };
}

export function faqJsonLd(items: { question: string; answer: string }[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}

/**
 * JSON for a <script> element: `<`, `>` and `&` are escaped so that no string in the data can end
 * the element or open a comment; U+2028/2029 so that the text is also a valid JS literal
 * (react-router's lib/dom/ssr/markup.ts does the same).
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
