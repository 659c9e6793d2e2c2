import { createContext, useContext } from 'react';
import type { FieldErrors, FormValues } from '../../../shared/forms/form-schema';

export type FormName = 'audit' | 'contact';

/**
 * What a form page is rendered with: the visitor's CSRF token and, after a submission the server
 * refused (no JavaScript), the values to put back, the errors beside each field and a message.
 * The server writes it into the page as JSON (#form-state); the browser reads it back, so that
 * hydration renders exactly what the server sent.
 */
export interface FormState {
  csrfToken: string;
  /** Signed time the form was shown (server/http/fill-time.ts). */
  formStarted?: string;
  form?: FormName;
  values?: FormValues;
  errors?: FieldErrors;
  message?: string;
  /** A contact message was stored (no-JavaScript success). */
  sent?: boolean;
}

const FormStateContext = createContext<FormState>({ csrfToken: '' });
export const FormStateProvider = FormStateContext.Provider;

export function useFormState(form: FormName): FormState {
  const state = useContext(FormStateContext);
  // State addressed to the other form on the page is not ours.
  return state.form === undefined || state.form === form ? state : { csrfToken: state.csrfToken, ...(state.formStarted ? { formStarted: state.formStarted } : {}) };
}

/** The name of the element the server writes the state into. */
export const FORM_STATE_ELEMENT_ID = 'form-state';

/** The hidden field that carries FormState.formStarted. */
export const FORM_STARTED_FIELD = '_form_started';

/** The field a person never sees; a bot that fills every field fills it too. */
export const HONEYPOT_FIELD = 'leave_this_empty';
