import { createContext, useContext } from 'react';
import type { FormName, FormState } from '../../../shared/forms/form-contract';

const FormStateContext = createContext<FormState>({ csrfToken: '' });
export const FormStateProvider = FormStateContext.Provider;

export function useFormState(form: FormName): FormState {
  const state = useContext(FormStateContext);
  // State addressed to the other form on the page is not ours.
  return state.form === undefined || state.form === form ? state : { csrfToken: state.csrfToken, ...(state.formStarted ? { formStarted: state.formStarted } : {}) };
}
