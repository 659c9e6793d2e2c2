import styled from 'styled-components';
import { CSRF_FIELD, FORM_STARTED_FIELD, HONEYPOT_FIELD } from '../../../shared/forms/form-contract';

const Trap = styled.div`
  position: absolute;
  left: -10000px;
  width: 1px;
  height: 1px;
  overflow: hidden;
`;

/**
 * Fields every form sends besides the visible ones: the CSRF token for a plain form post, the
 * signed time the form was shown (a bot posts at once), and a honeypot that people never see or
 * reach (off-screen, hidden from assistive technology, out of the tab order) and that bots filling
 * every field fill. Browsers' autofill and password managers fill hidden inputs too, so the trap
 * has a name and label no autofill heuristic maps to a person's details, autocomplete off, and
 * each password manager's own "leave this alone" attribute.
 */
export function FormExtras({ csrfToken, formStarted }: { csrfToken: string; formStarted: string }) {
  return (
    <>
      <input type="hidden" name={CSRF_FIELD} value={csrfToken} />
      <input type="hidden" name={FORM_STARTED_FIELD} value={formStarted} />
      <Trap aria-hidden="true">
        <label>
          Leave this field empty
          <input
            type="text"
            name={HONEYPOT_FIELD}
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
            data-1p-ignore=""
            data-lpignore="true"
            data-bwignore="true"
            data-form-type="other"
          />
        </label>
      </Trap>
    </>
  );
}
