import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { FieldErrors } from '../../../shared/forms/form-schema';
import { preloadToastList, toast } from '../ui/toast';
import { CSRF_HEADER, CSRF_TOKEN_PATH, type FormName } from '../../../shared/forms/form-contract';
import { useFormState } from './form-state';

/** The toast every failed submission shows, whatever the cause. */
export const SUBMIT_ERROR_TOAST = {
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
}

interface FormTokens {
  token: string;
  formStarted: string;
}

async function fetchTokens(): Promise<FormTokens> {
  const response = await fetch(CSRF_TOKEN_PATH, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`token request failed with ${response.status}`);
  const data = (await response.json()) as { token?: unknown; formStarted?: unknown };
  return { token: typeof data.token === 'string' ? data.token : '', formStarted: typeof data.formStarted === 'string' ? data.formStarted : '' };
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
  const token = useRef(initial.csrfToken);
  const [formStarted, setFormStarted] = useState(initial.formStarted ?? '');

  // The error toast must be able to show after the network has gone: fetch its code now.
  useEffect(() => {
    preloadToastList().catch(() => undefined);
  }, []);

  // A page reached by client-side navigation has no tokens: fetch them when the form appears,
  // so that the fill time counts from now, not from the click on submit.
  useEffect(() => {
    if (token.current) return;
    fetchTokens()
      .then((tokens) => {
        token.current = tokens.token;
        setFormStarted(tokens.formStarted);
      })
      .catch(() => undefined);
  }, []);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const element = event.currentTarget;
    setSubmitting(true);
    try {
      if (!token.current) token.current = (await fetchTokens()).token;
      const body = new URLSearchParams();
      for (const [name, value] of new FormData(element)) {
        if (typeof value === 'string') body.append(name, value);
      }
      const response = await fetch(element.action, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded', [CSRF_HEADER]: token.current },
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
      // An expired session: fetch a fresh token now, so that "try again" works.
      if (response.status === 403) token.current = (await fetchTokens().catch(() => ({ token: '' }))).token;
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

  return { submitting, errors, message, onSubmit, clearError, initial, csrfToken: initial.csrfToken, formStarted };
}
