import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { auditFields } from '../../../shared/forms/audit-form';
import { routesPaths } from '../../../shared/site';
import { color, space, text } from '../../theme/theme';
import { Button } from '../ui/button';
import { FieldGrid, FormField } from './form-field';

const PrivacyNote = styled.p`
  margin: ${space.md} 0 0;
  font-size: ${text.xs};
  color: ${color.inkMuted};
`;

/** The audit request form (SPEC sections 2, 3 and 5). */
export function AuditForm({ privacyNote }: { privacyNote: string }) {
  return (
    <form method="post" action={routesPaths.freeAudit} aria-labelledby="audit-form-title">
      <FieldGrid>
        {auditFields.map((field) => (
          <FormField key={field.name} field={field} formId="audit" />
        ))}
        <Button type="submit" variant="gradient" size="lg" block>
          Get My Free AI Audit
        </Button>
      </FieldGrid>
      <PrivacyNote>
        {privacyNote} <Link to={routesPaths.privacyPolicy}>Read our privacy policy</Link>.
      </PrivacyNote>
    </form>
  );
}
