import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app';
import { APP_CONFIG_ELEMENT_ID, type AppConfig } from '../shared/app-config';
import { FORM_STATE_ELEMENT_ID, NO_FORM_TOKENS, type FormState } from '../shared/forms/form-contract';
import { AppConfigProvider } from './app-config';
import { FormStateProvider } from './components/forms/form-state';
import { installTooltips } from './components/ui/tooltip/tooltip-activation';
import { loadPage } from './lazy-page';
import { appRoutes, matchAppRoute } from './routes';

// The server wrote the config it rendered with; rendering with the same values keeps the
// hydrated HTML identical to the server's.
const configElement = document.getElementById(APP_CONFIG_ELEMENT_ID);
const root = document.getElementById('root');
if (!configElement?.textContent || !root) throw new Error('The page has no #app-config or #root');
const config = JSON.parse(configElement.textContent) as AppConfig;
// Form pages carry the visitor's CSRF token and, after a refused submission, values and errors.
const formStateText = document.getElementById(FORM_STATE_ELEMENT_ID)?.textContent;
const formState: FormState = formStateText ? (JSON.parse(formStateText) as FormState) : NO_FORM_TOKENS;

installTooltips();

// Load the current page's chunk first, so that hydration renders it synchronously. If it cannot
// be fetched, the server's HTML stays as it is: its links and forms work without JavaScript.
loadPage(matchAppRoute(appRoutes, window.location.pathname)).then(() => {
  // As a transition, hydration yields to the browser between slices instead of one long task,
  // so a click or a keystroke during start-up is not held up (Lighthouse: total blocking time).
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <AppConfigProvider value={config}>
          <FormStateProvider value={formState}>
            <BrowserRouter>
              <App routes={appRoutes} />
            </BrowserRouter>
          </FormStateProvider>
        </AppConfigProvider>
      </StrictMode>,
    );
  });
}, (error: unknown) => console.error('The page could not start', error));
