import type { FieldSpec } from './form-schema';

/** The public AI-readiness check's one field: the website to check. */
export const readinessFields = [
  {
    name: 'website',
    label: 'Your website',
    kind: 'url',
    required: true,
    maxLength: 2048,
    autoComplete: 'url',
    placeholder: 'https://www.yourbusiness.co.uk',
  },
] as const satisfies readonly FieldSpec[];
