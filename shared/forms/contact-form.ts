import type { FieldSpec } from './form-schema';

const industryOptions = [
  { value: 'technology', label: 'Technology' },
  { value: 'healthcare', label: 'Healthcare' },
  { value: 'finance', label: 'Finance' },
  { value: 'ecommerce', label: 'E-commerce' },
  { value: 'consulting', label: 'Consulting' },
  { value: 'manufacturing', label: 'Manufacturing' },
  { value: 'other', label: 'Other' },
] as const;

const subjectOptions = [
  { value: 'audit', label: 'Free AI Visibility Audit' },
  { value: 'llm-seo', label: 'LLM-SEO Services' },
  { value: 'consultation', label: 'Strategy Consultation' },
  { value: 'partnership', label: 'Partnership Inquiry' },
  { value: 'support', label: 'Support & Questions' },
  { value: 'other', label: 'Other' },
] as const;

/** The contact form's fields; e-mail and message are required so that we can answer. */
export const contactFields = [
  { name: 'firstName', label: 'First name', kind: 'text', required: false, maxLength: 100, autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', kind: 'text', required: false, maxLength: 100, autoComplete: 'family-name' },
  { name: 'email', label: 'E-mail address', kind: 'email', required: true, maxLength: 254, autoComplete: 'email' },
  { name: 'company', label: 'Company', kind: 'text', required: false, maxLength: 200, autoComplete: 'organization' },
  { name: 'website', label: 'Website', kind: 'url', required: false, maxLength: 2048, autoComplete: 'url', placeholder: 'https://' },
  { name: 'industry', label: 'Industry', kind: 'select', required: false, maxLength: 50, options: industryOptions },
  { name: 'subject', label: 'Subject', kind: 'select', required: false, maxLength: 50, options: subjectOptions },
  { name: 'message', label: 'Message', kind: 'textarea', required: true, maxLength: 5000 },
] as const satisfies readonly FieldSpec[];
