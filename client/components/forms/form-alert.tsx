import styled from 'styled-components';
import type { FieldErrors, FieldSpec } from '../../../shared/forms/form-schema';
import { color, radius, space, text } from '../../theme/theme';

const Box = styled.div`
  border: 1px solid ${color.destructive};
  border-left-width: 4px;
  border-radius: ${radius.sm};
  background: ${color.destructiveSoft};
  padding: ${space.md};
  color: ${color.ink};
  font-size: ${text.sm};
  p { margin: 0; font-weight: 600; }
  ul { margin: ${space.sm} 0 0; padding-left: 1.25rem; }
  a { color: ${color.destructive}; }
`;

/**
 * The message of a refused submission, in the page itself (a toast is never the only place an
 * error appears), with a link to each field that needs attention.
 */
export function FormAlert({ message, errors, fields, formId }: { message: string; errors: FieldErrors; fields: readonly FieldSpec[]; formId: string }) {
  const invalid = fields.filter((field) => errors[field.name]);
  return (
    <Box role="alert">
      <p>{message}</p>
      {invalid.length > 0 && (
        <ul>
          {invalid.map((field) => (
            <li key={field.name}>
              <a href={`#${formId}-${field.name}`}>
                {field.label}: {errors[field.name]}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Box>
  );
}
