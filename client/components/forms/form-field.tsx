import styled, { css } from 'styled-components';
import type { FieldSpec } from '../../../shared/forms/form-schema';
import { color, radius, space, text } from '../../theme/theme';

const Wrapper = styled.div`
  display: grid;
  gap: 0.375rem;
`;

const Label = styled.label`
  font-weight: 600;
  font-size: ${text.sm};
  color: ${color.ink};
`;

const RequiredMark = styled.span`
  color: ${color.destructive};
  margin-left: 0.125rem;
`;

const Hint = styled.p`
  margin: 0;
  font-size: ${text.xs};
  color: ${color.inkMuted};
`;

const ErrorText = styled.p`
  margin: 0;
  font-size: ${text.xs};
  font-weight: 600;
  color: ${color.destructive};
`;

const control = css`
  width: 100%;
  min-height: 2.75rem;
  padding: 0.625rem 0.75rem;
  border: 1px solid #8a94a6;
  border-radius: ${radius.sm};
  background: ${color.surface};
  color: ${color.ink};
  font-size: ${text.base};
  &::placeholder { color: #6b7485; }
  &:focus-visible { outline: 3px solid ${color.focus}; outline-offset: 1px; border-color: ${color.primary}; }
  &[aria-invalid='true'] { border-color: ${color.destructive}; background: ${color.destructiveSoft}; }
`;

const Input = styled.input`${control}`;
const TextArea = styled.textarea`
  ${control}
  min-height: 6rem;
  resize: vertical;
`;
const Select = styled.select`${control}`;

export interface FormFieldProps {
  field: FieldSpec;
  /** The form's id prefix, so that two forms on a page never share element ids. */
  formId: string;
  defaultValue?: string;
  error?: string;
  rows?: number;
}

/**
 * A labelled field with the browser's own validation and, when the server or
 * the client found a problem, the message beside it, tied to the control for screen readers.
 */
export function FormField({ field, formId, defaultValue = '', error, rows = 4 }: FormFieldProps) {
  const id = `${formId}-${field.name}`;
  const hintId = field.hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field.name,
    required: field.required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    defaultValue,
  };
  return (
    <Wrapper>
      <Label htmlFor={id}>
        {field.label}
        {field.required && (
          <RequiredMark aria-hidden="true">*</RequiredMark>
        )}
      </Label>
      {field.hint && <Hint id={hintId}>{field.hint}</Hint>}
      {field.kind === 'textarea' ? (
        <TextArea {...common} rows={rows} maxLength={field.maxLength} placeholder={field.placeholder} />
      ) : field.kind === 'select' ? (
        <Select {...common}>
          <option value="">Please choose</option>
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      ) : (
        <Input
          {...common}
          type={field.kind}
          maxLength={field.maxLength}
          placeholder={field.placeholder}
          autoComplete={field.autoComplete}
          {...(field.kind === 'email' ? { inputMode: 'email' as const, spellCheck: false } : {})}
        />
      )}
      {error && <ErrorText id={errorId}>{error}</ErrorText>}
    </Wrapper>
  );
}

export const FieldGrid = styled.div`
  display: grid;
  gap: ${space.lg};
`;
