import type { FieldSpec } from './form-schema';

/** The audit form's ten fields, stored as typed in audit_submissions. */
export const auditFields = [
  { name: 'name', label: 'Your name', kind: 'text', required: true, maxLength: 200, autoComplete: 'name', placeholder: 'Jane Smith' },
  { name: 'email', label: 'E-mail address', kind: 'email', required: true, maxLength: 254, autoComplete: 'email', placeholder: 'jane@yourbusiness.co.uk' },
  {
    name: 'website_url',
    label: 'Website (optional)',
    kind: 'url',
    required: false,
    maxLength: 2048,
    autoComplete: 'url',
    placeholder: 'https://www.yourbusiness.co.uk',
  },
  {
    name: 'business_description',
    label: 'What does your business do?',
    kind: 'textarea',
    required: true,
    maxLength: 5000,
    hint: 'A few sentences: what you sell, where, and what makes you different.',
  },
  { name: 'ideal_customer', label: 'Who is your ideal customer?', kind: 'textarea', required: true, maxLength: 5000 },
  {
    name: 'target_keywords',
    label: 'Which searches should AI recommend you for?',
    kind: 'textarea',
    required: true,
    maxLength: 5000,
    hint: 'For example: "best accountant for contractors in Leeds".',
  },
  { name: 'current_products', label: 'Your main products or services', kind: 'textarea', required: true, maxLength: 5000 },
  { name: 'lead_sources', label: 'Where do your leads come from today?', kind: 'textarea', required: true, maxLength: 5000 },
  { name: 'seo_experience', label: 'What SEO have you done so far?', kind: 'textarea', required: true, maxLength: 5000 },
  { name: 'main_goal', label: 'What is your main goal for the next six months?', kind: 'textarea', required: true, maxLength: 5000 },
] as const satisfies readonly FieldSpec[];
