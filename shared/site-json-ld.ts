import { organizationId, type JsonLd } from './json-ld';
import { company } from './company';
import { site } from './site';

/**
 * The nodes every page shares have fixed @ids under the site's root, so that a crawler merging
 * pages finds one agency and one website, however many pages name them.
 */
export const websiteId = (siteUrl: string) => `${siteUrl}/#website`;
const logoId = (siteUrl: string) => `${siteUrl}/#logo`;

/** The agency where another node names it (an article's author and publisher): its @id and the same name and url. */
export function organizationReference(siteUrl: string): JsonLd {
  return { '@type': 'Organization', '@id': organizationId(siteUrl), name: site.brand, url: `${siteUrl}/` };
}

/** The publisher's logo, the same node the Organization holds. */
export function logoJsonLd(siteUrl: string): JsonLd {
  return { '@type': 'ImageObject', '@id': logoId(siteUrl), url: `${siteUrl}/logo.png`, width: 512, height: 512 };
}

/** The agency and its website, described once, in the block the document adds to every page. */
export function siteJsonLd(siteUrl: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@graph': [
      {
        ...organizationReference(siteUrl),
        legalName: site.legalName,
        // The company number, under the identifier scheme schema.org documents for company registers.
        identifier: { '@type': 'PropertyValue', propertyID: 'Companies House company number', value: company.companyNumber },
        logo: logoJsonLd(siteUrl),
        email: site.email,
        telephone: site.phoneE164,
        // The registered office: the address the company can be reached at by law.
        address: {
          '@type': 'PostalAddress',
          streetAddress: company.registeredOffice.streetAddress,
          addressLocality: company.registeredOffice.locality,
          postalCode: company.registeredOffice.postalCode,
          addressCountry: 'GB',
        },
        areaServed: 'GB',
      },
      {
        '@type': 'WebSite',
        '@id': websiteId(siteUrl),
        name: site.brand,
        url: `${siteUrl}/`,
        inLanguage: 'en-GB',
        publisher: { '@id': organizationId(siteUrl) },
      },
    ],
  };
}
