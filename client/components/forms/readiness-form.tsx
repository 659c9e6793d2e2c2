import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import { readinessFields } from '../../../shared/forms/readiness-form';
import { routesPaths } from '../../../shared/site';
import { SITE_CHECKER_PAGE_PATH } from '../../../shared/site-check';
import { Link } from '../../routing/links';
import { color, mediaUp, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { FormAlert } from './form-alert';
import { FormExtras } from './form-extras';
import { FormField } from './form-field';
import { useFormSubmission } from './use-form-submission';

const Row = styled.div`
  display: grid;
  gap: ${space.md};
  align-items: end;
  ${mediaUp('sm')} { grid-template-columns: minmax(0, 1fr) auto; }
`;

const Note = styled.p`
  margin: ${space.md} 0 0;
  font-size: ${text.xs};
  color: ${color.inkMuted};
  a { color: ${color.accent}; text-decoration: underline; }
`;

const FORM_ID = 'readiness';
const [websiteField] = readinessFields;

/**
 * The public AI-readiness check's form: one field and a button. Without JavaScript it posts and
 * the server answers with the result's page; with JavaScript it posts with fetch and the page
 * moves to that same address, where the result appears as it is ready, with no reload.
 */
export function ReadinessForm({ copy, titleId }: { copy: { button: string; submitting: string; note: string }; titleId: string }) {
  const navigate = useNavigate();
  const { submitting, errors, message, onSubmit, clearError, initial, csrfToken, formStarted } = useFormSubmission('readiness', (response) => {
    if (response.redirect) navigate(response.redirect);
  });
  return (
    <form
      method="post"
      action={routesPaths.aiReadinessCheck}
      aria-labelledby={titleId}
      onSubmit={onSubmit}
      onInput={(event) => clearError((event.target as HTMLInputElement).name)}
    >
      <FormExtras csrfToken={csrfToken} formStarted={formStarted} />
      {message && <FormAlert message={message} errors={errors} fields={readinessFields} formId={FORM_ID} />}
      <Row>
        <FormField field={websiteField} formId={FORM_ID} defaultValue={initial.values?.[websiteField.name] ?? ''} error={errors[websiteField.name]} />
        <Button type="submit" variant="gradient" size="lg" disabled={submitting}>
          {submitting ? copy.submitting : copy.button}
        </Button>
      </Row>
      <Note>
        {copy.note} <Link to={SITE_CHECKER_PAGE_PATH}>How the checker works</Link> and <Link to={routesPaths.privacyPolicy}>our privacy policy</Link>.
      </Note>
    </form>
  );
}
