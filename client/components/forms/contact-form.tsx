import { useState } from 'react';
import styled from 'styled-components';
import { contactFields } from '../../../shared/forms/contact-form';
import { routesPaths } from '../../../shared/site';
import { color, mediaUp, radius, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { Icon } from '../ui/icon';
import { toast } from '../ui/toast';
import { FormAlert } from './form-alert';
import { FormExtras } from './form-extras';
import { FieldGrid, FormField } from './form-field';
import { useFormState } from './form-state';
import { useFormSubmission } from './use-form-submission';

const Pair = styled.div`
  display: grid;
  gap: ${space.lg};
  ${mediaUp('sm')} { grid-template-columns: repeat(2, minmax(0, 1fr)); }
`;

const Sent = styled.div`
  display: flex;
  gap: ${space.sm};
  align-items: flex-start;
  padding: ${space.md};
  border: 1px solid ${color.success};
  border-left-width: 4px;
  border-radius: ${radius.sm};
  background: #ecfdf5;
  color: ${color.ink};
  font-size: ${text.sm};
  svg { color: ${color.success}; flex-shrink: 0; }
  p { margin: 0; }
`;

const FORM_ID = 'contact';
const byName = (name: string) => {
  const field = contactFields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`No contact field ${name}`);
  return field;
};

/**
 * The contact form. 'Send Message' stores the message and mails it like an audit request, with
 * the same protections.
 */
export function ContactForm({ successMessage }: { successMessage: string }) {
  const [sent, setSent] = useState(useFormState('contact').sent === true);
  const { submitting, errors, message, onSubmit, clearError, initial, csrfToken, formStarted } = useFormSubmission('contact', (_response, element) => {
    element.reset();
    setSent(true);
    toast({ variant: 'success', title: 'Message sent', description: successMessage });
  });
  const field = (name: string) => (
    <FormField field={byName(name)} formId={FORM_ID} defaultValue={initial.values?.[name] ?? ''} error={errors[name]} rows={5} />
  );
  return (
    <form
      method="post"
      action={routesPaths.contact}
      aria-labelledby="contact-form-title"
      onSubmit={(event) => {
        setSent(false);
        void onSubmit(event);
      }}
      onInput={(event) => clearError((event.target as HTMLInputElement).name)}
    >
      <FormExtras csrfToken={csrfToken} formStarted={formStarted} />
      <FieldGrid>
        <div role="status">
          {sent && (
            <Sent>
              <Icon name="check" size={20} />
              <p>{successMessage}</p>
            </Sent>
          )}
        </div>
        {message && <FormAlert message={message} errors={errors} fields={contactFields} formId={FORM_ID} />}
        <Pair>
          {field('firstName')}
          {field('lastName')}
        </Pair>
        {field('email')}
        <Pair>
          {field('company')}
          {field('website')}
        </Pair>
        <Pair>
          {field('industry')}
          {field('subject')}
        </Pair>
        {field('message')}
        <Button type="submit" variant="gradient" size="lg" disabled={submitting}>
          {submitting ? 'Sending...' : 'Send Message'}
        </Button>
      </FieldGrid>
    </form>
  );
}
