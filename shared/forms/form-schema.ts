/**
 * One description of each form, read by both sides: the browser renders the fields and their
 * native validation from it, and the server repeats every rule and adds the
 * bounds a browser cannot be trusted with.
 */
type FieldKind = 'text' | 'email' | 'url' | 'textarea' | 'select';

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  maxLength: number;
  placeholder?: string;
  hint?: string;
  autoComplete?: string;
  options?: readonly { value: string; label: string }[];
}

export type FormValues = Record<string, string>;
export type FieldErrors = Record<string, string>;

export type ValidationResult = { ok: true; values: FormValues } | { ok: false; values: FormValues; errors: FieldErrors };

// C0 controls but tab and line breaks, DEL, and the C1 controls (U+0080-U+009F): never text.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// Bidirectional embeddings, overrides and isolates reorder text on screen, so that what the agency
// reads in its inbox is not what was typed.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
// Tab and line breaks belong only in multi-line fields: a one-line value goes into mail headers.
const TAB = /\t/;
// An RFC 2047 encoded word ("=?utf-8?q?...?="): in a Subject or a Reply-To name, mail clients would
// decode it into other text, which this validation never saw.
const ENCODED_WORD = /=\?[^?\s]*\?[bq]\?/i;
const LINE_BREAK = /[\r\n\u2028\u2029]/;
// Deliberately simple: one @, no spaces or angle brackets, a dot in the domain (HTML's own rule
// accepts "a@b", which no mail server of a prospect would have).
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}

/** The first problem with one field's value, or undefined. `value` is already trimmed. */
export function fieldError(field: FieldSpec, value: string): string | undefined {
  if (value === '') return field.required ? `Please enter ${field.label.toLowerCase().replace(/ \(optional\)$/, '')}.` : undefined;
  if (value.length > field.maxLength) return `Please keep this under ${field.maxLength} characters (it has ${value.length}).`;
  if (CONTROL.test(value) || BIDI_CONTROL.test(value)) return 'This contains characters we cannot accept.';
  if (field.kind !== 'textarea' && (LINE_BREAK.test(value) || TAB.test(value))) return 'Please keep this on one line, without tabs.';
  if (field.kind !== 'textarea' && ENCODED_WORD.test(value)) return 'This contains characters we cannot accept.';
  if (field.kind === 'email' && !EMAIL.test(value)) return 'Please enter a valid e-mail address, like name@company.co.uk.';
  if (field.kind === 'url' && !isHttpUrl(value)) return 'Please enter a full web address starting with https:// or http://.';
  if (field.kind === 'select' && !field.options?.some((option) => option.value === value)) return 'Please choose one of the options.';
  return undefined;
}

/**
 * Validates untrusted input (a parsed form or JSON body) against a form's fields. Only the
 * fields named in the schema are read, each must be a single string, and values are trimmed.
 */
export function validateForm(fields: readonly FieldSpec[], input: unknown): ValidationResult {
  const source: Record<string, unknown> = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const values: FormValues = {};
  const errors: FieldErrors = {};
  for (const field of fields) {
    const raw = Object.prototype.hasOwnProperty.call(source, field.name) ? source[field.name] : undefined;
    if (raw !== undefined && typeof raw !== 'string') {
      values[field.name] = '';
      errors[field.name] = 'Please enter this once, as text.';
      continue;
    }
    // Browsers send CRLF for textarea line breaks; store one form.
    const value = (raw ?? '').replace(/\r\n?/g, '\n').trim();
    values[field.name] = value;
    const error = fieldError(field, value);
    if (error) errors[field.name] = error;
  }
  return Object.keys(errors).length === 0 ? { ok: true, values } : { ok: false, values, errors };
}
