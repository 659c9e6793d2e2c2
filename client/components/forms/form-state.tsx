import { createContext, useContext } from 'react';
import { NO_FORM_TOKENS, type FormName, type FormState } from '../../../shared/forms/form-contract';

const FormStateContext = createContext<FormState>(NO_FORM_TOKENS);
export const FormStateProvider = FormStateContext.Provider;

export function useFormState(form: FormName): FormState {
  const state = useContext(FormStateContext);
  // State addressed to the other form on the page is not ours.
  return state.form === undefined || state.form === form ? state : { csrfToken: state.csrfToken, formStarted: state.formStarted };
}
