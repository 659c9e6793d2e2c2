import { Component, type ReactNode } from 'react';
import { ErrorPage } from '../pages/error-page';

interface State {
  error: unknown;
}

/**
 * Catches a page that throws while rendering in the browser and shows the error page instead of
 * a blank screen. (On the server, server/render catches the same error and answers 500.)
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    console.error('Unexpected application error', error);
  }

  override render() {
    if (this.state.error) return <ErrorPage status={500} statusText="Internal Server Error" />;
    return this.props.children;
  }
}
