import type { SiteCheckView } from '../site-check';
import type { FieldErrors, FormValues } from './form-schema';

/**
 * What travels between a form page and the server besides the visible fields: the hidden fields,
 * the header our script sends its token in, where it fetches a token, and the state a page is
 * rendered with. Both sides import this one module.
 */
export type FormName = 'audit' | 'contact';

/**
 * What a form page is rendered with: the visitor's CSRF token and, after a submission the server
 * refused (no JavaScript), the values to put back, the errors beside each field and a message.
 * The server writes it into the page as JSON (the FORM_STATE_ELEMENT_ID element); the browser
 * reads it back, so that hydration renders exactly what the server sent.
 */
export interface FormState {
  csrfToken: string;
  /** Signed time the form was shown, posted back in FORM_STARTED_FIELD. */
  formStarted?: string;
  form?: FormName;
  values?: FormValues;
  errors?: FieldErrors;
  message?: string;
  /** A contact message was stored (no-JavaScript success). */
  sent?: boolean;
  /**
   * On the thank-you page reached with an audit request's check token: that request's site check
   * (null: the token leads to no check). Absent elsewhere.
   */
  siteCheck?: SiteCheckView | null;
}

/** The element the server writes the form state into. */
export const FORM_STATE_ELEMENT_ID = 'form-state';

/** The hidden field that carries the CSRF token in a plain form post. */
export const CSRF_FIELD = '_csrf';

/** The header that carries the CSRF token in our script's fetch. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** Where our script asks for a token (and fill-time note) for a form reached by client-side navigation. */
export const CSRF_TOKEN_PATH = '/csrf-token';

/** The hidden field that carries FormState.formStarted. */
export const FORM_STARTED_FIELD = '_form_started';

/** The field a person never sees; a bot that fills every field fills it too. */
export const HONEYPOT_FIELD = 'leave_this_empty';
