import { companyRegistration } from './generated/company';

/** The company's registration (content/site.yaml), for the pages and structured data that show it. */
export const company = companyRegistration;

export { companyDetails, registeredOfficeLine } from './company-details';
