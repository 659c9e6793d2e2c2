import { auditFields } from '../../shared/forms/audit-form';
import { contactFields } from '../../shared/forms/contact-form';
import { fieldError, validateForm, type FieldSpec } from '../../shared/forms/form-schema';

const field = (name: string, fields: readonly FieldSpec[] = auditFields) => {
  const found = fields.find((candidate) => candidate.name === name);
  if (!found) throw new Error(name);
  return found;
};
const name = field('name');
const goal = field('main_goal');
const firstName = field('firstName', contactFields);

describe('text a one-line field refuses (it goes into mail headers)', () => {
  it.each([
    ['a tab', 'Jane\tSmith'],
    ['a line feed', 'Jane\nSmith'],
    ['a line separator', 'Jane\u2028Smith'],
    ['a C1 control (NEL)', 'Jane\u0085Smith'],
    ['a C1 control (CSI)', 'Jane\u009bSmith'],
    ['a right-to-left override', 'Jane \u202eEvil'],
    ['a left-to-right embedding', 'Jane \u202aSmith'],
    ['a first-strong isolate', 'Jane \u2068Smith\u2069'],
    ['an encoded word (Q)', '=?utf-8?q?=E2=80=AEsecret?='],
    ['an encoded word (B, upper case)', '=?UTF-8?B?SmFuZQ==?='],
    ['NUL', 'Jane\u0000'],
  ])('%s', (_what, value) => {
    expect(fieldError(name, value)).toBeDefined();
    expect(fieldError(firstName, value)).toBeDefined();
  });
});

describe('what a multi-line field takes and refuses', () => {
  it('takes line breaks and tabs', () => {
    expect(fieldError(goal, 'First line\nsecond\tindented')).toBeUndefined();
  });
  it.each([
    ['a C1 control', 'Goal\u0085'],
    ['a right-to-left override', 'Goal \u202e'],
    ['a pop directional isolate', 'Goal \u2069'],
  ])('refuses %s', (_what, value) => {
    expect(fieldError(goal, value)).toBeDefined();
  });
  it('takes text that only looks like an encoded word, where no header shows it', () => {
    expect(fieldError(goal, 'We saw =?utf-8?q?hello?= in a header once')).toBeUndefined();
  });
});

describe('what people type', () => {
  it.each(['Jane Smith', "Seán O'Brien", 'Zoë Łukasiewicz-Nowak', '山田 太郎', 'Dr. A. B. Smith (Ops) = lead?'])('accepts %s', (value) => {
    expect(fieldError(name, value)).toBeUndefined();
  });
  it('accepts an address with non-ASCII letters', () => {
    expect(fieldError(field('email'), 'jörg@münchen.de')).toBeUndefined();
  });
  it('trims and validates a whole form, keeping the values', () => {
    const result = validateForm(auditFields, { name: '  Jane\t ', email: 'jane@acme.example' });
    expect(result.ok).toBe(false);
    expect(result.values.name).toBe('Jane');
  });
});
