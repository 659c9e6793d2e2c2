import { useEffect, useState, type FormEvent } from 'react';
import type { FieldErrors } from '../../../shared/forms/form-schema';
import { preloadToastList, toast } from '../ui/toast';
import { CSRF_FIELD, CSRF_TOKEN_PATH, FORM_STARTED_FIELD, MIN_FILL_MS, type FormName, type FormState, type FormTokens } from '../../../shared/forms/form-contract';
import { useFormState } from './form-state';

/** The toast every failed submission shows, whatever the cause. */
const SUBMIT_ERROR_TOAST = {
  variant: 'destructive',
  title: 'Error',
  description: 'There was an issue submitting your request. Please try again.',
} as const;

const NETWORK_MESSAGE = 'We could not reach our server. Please check your connection and try again; your answers are still here.';

interface SubmitResponse {
  ok: boolean;
  message?: string;
  errors?: FieldErrors;
  redirect?: string;
  /** On a refusal: what the retry must send (the refusal may have started a new session). */
  tokens?: FormTokens;
}

/** The tokens, and what the page would have been rendered with about the visibility probe. */
async function fetchTokens(): Promise<{ tokens: FormTokens } & Pick<FormState, 'probeAssistants'>> {
  const response = await fetch(CSRF_TOKEN_PATH, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`token request failed with ${response.status}`);
  const { csrfToken, formStarted, probeAssistants } = (await response.json()) as FormTokens & Pick<FormState, 'probeAssistants'>;
  return { tokens: { csrfToken, formStarted }, probeAssistants };
}

/**
 * Posts a form with fetch to the same endpoint a plain form post uses (idle -> submitting ->
 * success, or back to idle with the error toast). The inputs are uncontrolled, so
 * whatever goes wrong, every typed value stays where it is.
 */
export function useFormSubmission(form: FormName, onSuccess: (response: SubmitResponse, element: HTMLFormElement) => void) {
  const initial = useFormState(form);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>(initial.errors ?? {});
  const [message, setMessage] = useState<string | undefined>(initial.message);
  // The form's one copy of its tokens: the hidden fields show them, each post sends them, and a
  // refusal's answer replaces them with the ones its retry needs.
  const [tokens, setTokens] = useState<FormTokens>({ csrfToken: initial.csrfToken, formStarted: initial.formStarted });
  // The assistants the visibility probe asks, while it is on: with the page, or with the tokens.
  const [probeAssistants, setProbeAssistants] = useState(initial.probeAssistants);

  // The error toast must be able to show after the network has gone: fetch its code now.
  useEffect(() => {
    preloadToastList().catch(() => undefined);
  }, []);

  // A form the page was not rendered with (client-side navigation) has no tokens: fetch them when
  // it appears, so that the fill time counts from now, not from the click on submit.
  useEffect(() => {
    if (!tokens.csrfToken) {
      fetchTokens().then((answer) => {
        setTokens(answer.tokens);
        setProbeAssistants(answer.probeAssistants);
      }, () => undefined);
    }
  }, []);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const element = event.currentTarget;
    setSubmitting(true);
    try {
      let sending = tokens;
      if (!sending.csrfToken) {
        // The fetch on showing failed (or has not answered yet). A note issued now is a person's
        // only after the pause a person takes: posted at once, it would be held as a bot's.
        setTokens((sending = (await fetchTokens()).tokens));
        await new Promise((resolve) => setTimeout(resolve, MIN_FILL_MS));
      }
      const body = new URLSearchParams();
      for (const [name, value] of new FormData(element)) {
        if (typeof value === 'string') body.append(name, value);
      }
      body.set(CSRF_FIELD, sending.csrfToken);
      body.set(FORM_STARTED_FIELD, sending.formStarted);
      const response = await fetch(element.action, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
        credentials: 'same-origin',
      });
      const data = (await response.json().catch(() => null)) as SubmitResponse | null;
      if (response.ok && data?.ok) {
        setErrors({});
        setMessage(undefined);
        onSuccess(data, element);
        return;
      }
      if (data?.tokens) setTokens(data.tokens);
      setErrors(data?.errors ?? {});
      setMessage(data?.message ?? 'Something went wrong on our side. Please try again in a moment.');
      toast(SUBMIT_ERROR_TOAST);
    } catch {
      setMessage(NETWORK_MESSAGE);
      toast(SUBMIT_ERROR_TOAST);
    } finally {
      setSubmitting(false);
    }
  };

  /** A field the person has changed no longer shows the server's complaint about it. */
  const clearError = (name: string) => {
    if (errors[name]) setErrors(({ [name]: _removed, ...rest }) => rest);
  };

  return { submitting, errors, message, onSubmit, clearError, initial, probeAssistants, ...tokens };
}
