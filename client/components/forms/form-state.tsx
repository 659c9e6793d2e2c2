import { createContext, useContext, useEffect, useState } from 'react';
import { NO_FORM_TOKENS, type FormName, type FormState } from '../../../shared/forms/form-contract';

const FormStateContext = createContext<FormState>(NO_FORM_TOKENS);
export const FormStateProvider = FormStateContext.Provider;

/**
 * The page's form state is for the one showing of the form the page was rendered with. A form
 * shown again later in the same page (client-side navigation, Back) starts empty and fetches
 * tokens of its own: its fill time counts from then, not from the page load hours before, and an
 * earlier refusal's message and answers do not come back.
 */
let pageStateShown = false;

export function useFormState(form: FormName): FormState {
  const state = useContext(FormStateContext);
  const [own] = useState(() => {
    // State addressed to the other form is not ours either.
    const ours = state.form === undefined || state.form === form;
    return ours && !pageStateShown ? state : NO_FORM_TOKENS;
  });
  useEffect(() => {
    pageStateShown = true;
  }, []);
  return own;
}
