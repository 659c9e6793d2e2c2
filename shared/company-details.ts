import type { CompanyRegistration, SiteContent } from './content-schema';

/** The registered office on one line, as the pages and the legal text show it. */
export function registeredOfficeLine(office: SiteContent['registeredOffice']): string {
  return `${office.streetAddress}, ${office.locality} ${office.postalCode}`;
}

/**
 * The company's identity as UK law asks a website to give it: registered name, place of
 * registration, company number and registered office, in one sentence every page words the same.
 */
export function companyDetails(registration: CompanyRegistration): string {
  return `${registration.legalName} is registered in ${registration.registeredIn}, company number ${registration.companyNumber}. Registered office: ${registeredOfficeLine(registration.registeredOffice)}.`;
}
