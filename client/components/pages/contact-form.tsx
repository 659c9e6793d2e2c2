import styled, { css } from 'styled-components';
import { color, mediaUp, radius, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';

export const industryOptions = [
  'technology', 'healthcare', 'finance', 'ecommerce', 'consulting', 'manufacturing', 'other',
] as const;

export const subjectOptions = [
  { value: 'audit', label: 'Free AI Visibility Audit' },
  { value: 'llm-seo', label: 'LLM-SEO Services' },
  { value: 'consultation', label: 'Strategy Consultation' },
  { value: 'partnership', label: 'Partnership Inquiry' },
  { value: 'support', label: 'Support & Questions' },
  { value: 'other', label: 'Other' },
] as const;

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

const Form = styled.form`
  display: grid;
  gap: ${space.lg};
`;

const Note = styled.p`
  margin: 0;
  color: ${color.inkMuted};
  font-size: ${text.sm};
`;

const Pair = styled.div`
  display: grid;
  gap: ${space.lg};
  ${mediaUp('sm')} { grid-template-columns: repeat(2, minmax(0, 1fr)); }
`;

const Field = styled.div`
  display: grid;
  gap: ${space.xs};
  min-width: 0;
  label { font-weight: 600; font-size: ${text.sm}; }
`;

const Required = styled.span`
  color: ${color.destructive};
`;

const control = css`
  width: 100%;
  min-height: 2.75rem;
  padding: 0.5rem 0.75rem;
  border: 1px solid ${color.inkSubtle};
  border-radius: ${radius.sm};
  background: ${color.surface};
  color: ${color.ink};
  font-size: ${text.base};
  &:hover { border-color: ${color.ink}; }
  &:focus-visible { border-color: ${color.primary}; }
  &:user-invalid { border-color: ${color.destructive}; }
`;

const Input = styled.input`${control}`;
const Select = styled.select`${control}`;
const TextArea = styled.textarea`
  ${control}
  min-height: 8rem;
  resize: vertical;
`;

/** A visible asterisk for sighted users; the `required` attribute tells everyone else. */
function Star() {
  return <Required aria-hidden="true"> *</Required>;
}

/**
 * The contact form's markup. It posts to /contact without JavaScript; the submit handling
 * (validation messages, sending and the success state) lives elsewhere.
 */
export function ContactForm() {
  return (
    <Form id="contact-form" method="post" action="/contact">
      <Note>Fields marked <Required aria-hidden="true">*</Required><span className="visually-hidden">with an asterisk</span> are required.</Note>
      <Pair>
        <Field>
          <label htmlFor="contact-first-name">First name<Star /></label>
          <Input id="contact-first-name" name="firstName" type="text" autoComplete="given-name" required />
        </Field>
        <Field>
          <label htmlFor="contact-last-name">Last name<Star /></label>
          <Input id="contact-last-name" name="lastName" type="text" autoComplete="family-name" required />
        </Field>
      </Pair>
      <Field>
        <label htmlFor="contact-email">E-mail<Star /></label>
        <Input id="contact-email" name="email" type="email" autoComplete="email" inputMode="email" required />
      </Field>
      <Field>
        <label htmlFor="contact-company">Company</label>
        <Input id="contact-company" name="company" type="text" autoComplete="organization" />
      </Field>
      <Field>
        <label htmlFor="contact-website">Website</label>
        <Input id="contact-website" name="website" type="url" autoComplete="url" inputMode="url" />
      </Field>
      <Field>
        <label htmlFor="contact-industry">Industry</label>
        <Select id="contact-industry" name="industry" defaultValue="">
          <option value="">Select your industry</option>
          {industryOptions.map((industry) => (
            <option key={industry} value={industry}>{capitalise(industry)}</option>
          ))}
        </Select>
      </Field>
      <Field>
        <label htmlFor="contact-subject">Subject<Star /></label>
        <Select id="contact-subject" name="subject" defaultValue="audit" required>
          {subjectOptions.map((subject) => (
            <option key={subject.value} value={subject.value}>{subject.label}</option>
          ))}
        </Select>
      </Field>
      <Field>
        <label htmlFor="contact-message">Message<Star /></label>
        <TextArea id="contact-message" name="message" rows={5} required />
      </Field>
      <div>
        <Button type="submit" variant="gradient" size="lg" block>
          Send Message
          <Icon name="arrow-right" />
        </Button>
      </div>
    </Form>
  );
}
