import { useLocation, useNavigate } from 'react-router-dom';
import { Link } from '../../routing/links';
import styled from 'styled-components';
import { fillCopy, listOfNames } from '../../../shared/copy-template';
import { auditFields } from '../../../shared/forms/audit-form';
import { fieldError } from '../../../shared/forms/form-schema';
import { AUDIT_WEBSITE_PARAM } from '../../../shared/site-check';
import { routesPaths } from '../../../shared/site';
import { color, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { FormAlert } from './form-alert';
import { FormExtras } from './form-extras';
import { FieldGrid, FormField } from './form-field';
import { useFormSubmission } from './use-form-submission';

const PrivacyNote = styled.p`
  margin: ${space.md} 0 0;
  font-size: ${text.xs};
  color: ${color.inkMuted};
`;

/** What the AI visibility probe sends, and to whom: read just before the visitor sends it. */
const ProbeNote = styled.p`
  margin: 0;
  font-size: ${text.sm};
  color: ${color.inkMuted};
`;

const FORM_ID = 'audit';

/**
 * The website a check's result sends the visitor here with (`?website=`), when it is one the
 * form would accept: a link followed in the page has no server to fill it in, so the form does.
 */
function websiteFromQuery(search: string): string | undefined {
  const website = new URLSearchParams(search).get(AUDIT_WEBSITE_PARAM)?.trim();
  const field = auditFields.find((candidate) => candidate.name === 'website_url');
  return website && field && fieldError(field, website) === undefined ? website : undefined;
}

/**
 * The audit request form: the ten fields with the browser's own validation, 'Submitting...' while
 * it posts, the error toast when that fails, the thank-you page when it succeeds. It works with
 * and without JavaScript. While the AI visibility probe is on, a sentence above the button says
 * which assistants the business's details will be put to (`probeNote`, {assistants} filled in).
 */
export function AuditForm({ privacyNote, probeNote }: { privacyNote: string; probeNote: string }) {
  const navigate = useNavigate();
  const fromQuery = websiteFromQuery(useLocation().search);
  const { submitting, errors, message, onSubmit, clearError, initial, probeAssistants, csrfToken, formStarted } = useFormSubmission('audit', (response) => {
    navigate(response.redirect ?? routesPaths.thankYou);
  });
  return (
    <form
      method="post"
      action={routesPaths.freeAudit}
      aria-labelledby="audit-form-title"
      onSubmit={onSubmit}
      onInput={(event) => clearError((event.target as HTMLInputElement).name)}
    >
      <FormExtras csrfToken={csrfToken} formStarted={formStarted} />
      <FieldGrid>
        {message && <FormAlert message={message} errors={errors} fields={auditFields} formId={FORM_ID} />}
        {auditFields.map((field) => (
          <FormField
            key={field.name}
            field={field}
            formId={FORM_ID}
            defaultValue={initial.values?.[field.name] ?? (field.name === 'website_url' ? fromQuery : undefined) ?? ''}
            error={errors[field.name]}
          />
        ))}
        {probeAssistants && probeAssistants.length > 0 && <ProbeNote>{fillCopy(probeNote, { assistants: listOfNames(probeAssistants) })}</ProbeNote>}
        <Button type="submit" variant="gradient" size="lg" block disabled={submitting}>
          {submitting ? 'Submitting...' : 'Get My Free AI Audit'}
        </Button>
      </FieldGrid>
      <PrivacyNote>
        {privacyNote} <Link to={routesPaths.privacyPolicy}>Read our privacy policy</Link>.
      </PrivacyNote>
    </form>
  );
}
