import type { SiteCheckView } from '../site-check';
import type { ProbeView } from '../visibility-probe';
import type { FieldErrors, FormValues } from './form-schema';

/**
 * What travels between a form page and the server besides the visible fields: the hidden fields,
 * the header our script sends its token in, where it fetches a token, and the state a page is
 * rendered with. Both sides import this one module.
 */
export type FormName = 'audit' | 'contact' | 'readiness';

/**
 * What every post of a form must carry besides the answers, issued together and replaced together:
 * the visitor's CSRF token (CSRF_FIELD) and the signed time the form was shown, bound to that
 * token (FORM_STARTED_FIELD). A form page is rendered with them, CSRF_TOKEN_PATH answers them, and
 * every refused post's answer carries the ones its retry must send (the refusal may have given the
 * visitor a new session cookie, which the old token does not match).
 */
export interface FormTokens {
  csrfToken: string;
  formStarted: string;
}

/** No tokens: a page without a form, or a form that must fetch its own. */
export const NO_FORM_TOKENS: FormTokens = { csrfToken: '', formStarted: '' };

/**
 * What a form page is rendered with: the visitor's tokens and, after a submission the server
 * refused (no JavaScript), the values to put back, the errors beside each field and a message.
 * The server writes it into the page as JSON (the FORM_STATE_ELEMENT_ID element); the browser
 * reads it back, so that hydration renders exactly what the server sent.
 */
export interface FormState extends FormTokens {
  form?: FormName;
  values?: FormValues;
  errors?: FieldErrors;
  message?: string;
  /** A contact message was stored (no-JavaScript success). */
  sent?: boolean;
  /**
   * On a page reached with a check's token (the thank-you page of an audit request, the
   * AI-readiness check's result): that check (null: the token leads to no check). Absent elsewhere.
   */
  siteCheck?: SiteCheckView | null;
  /** On the thank-you page with a check token: that request's AI visibility probe (null: none). */
  probe?: ProbeView | null;
  /**
   * On the audit form while the AI visibility probe is on: the assistants it puts the business's
   * details to, by name ("ChatGPT", "Claude"), which the form names beside its button. Absent
   * while no assistant's key is set.
   */
  probeAssistants?: string[];
}

/** The element the server writes the form state into. */
export const FORM_STATE_ELEMENT_ID = 'form-state';

/** The hidden field that carries FormTokens.csrfToken, in a plain form post and in our script's. */
export const CSRF_FIELD = '_csrf';

/** A header the server also takes the CSRF token from, for a post that has no CSRF_FIELD. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** Where our script asks for FormTokens for a form reached by client-side navigation. */
export const CSRF_TOKEN_PATH = '/csrf-token';

/** The hidden field that carries FormTokens.formStarted. */
export const FORM_STARTED_FIELD = '_form_started';

/**
 * The least time between a form being shown and a person's post of it; a post sooner is a
 * script's, and is held rather than mailed.
 */
export const MIN_FILL_MS = 3000;

/** The field a person never sees; a bot that fills every field fills it too. */
export const HONEYPOT_FIELD = 'leave_this_empty';
