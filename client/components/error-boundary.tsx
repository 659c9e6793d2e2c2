import { Component, type ReactNode } from 'react';
import { ErrorPage } from '../pages/error-page';
import { loadInFullOnce, PageLoadError } from '../routing/page-load-failure';

interface Props {
  /** The page's address: a new one clears a previous error (the boundary itself stays mounted). */
  location: string;
  children: ReactNode;
}

interface State {
  error: unknown;
  location: string;
  /** The page's code could not be fetched, and a full load was made already or cannot be made. */
  loadFailed: boolean;
}

/**
 * Catches a page that fails in the browser and shows the error page instead of a blank screen.
 * A page whose code could not be fetched is loaded in full instead, once (see
 * routing/page-load-failure.ts). On the server, server/pages catches the same errors and
 * answers 500.
 *
 * The boundary stays mounted across navigations, so that the Suspense boundary inside it keeps
 * the previous page on screen while the next one loads.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, location: this.props.location, loadFailed: false };

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location ? null : { error: null, location: props.location, loadFailed: false };
  }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    if (!(error instanceof PageLoadError)) {
      console.error('Unexpected application error', error);
      return;
    }
    // The browser replaces this document shortly; until then the screen stays empty.
    if (loadInFullOnce()) return;
    console.error('A page could not be loaded', error);
    this.setState({ loadFailed: true });
  }

  override render() {
    const { error, loadFailed } = this.state;
    if (error instanceof PageLoadError) return loadFailed ? <ErrorPage kind="load" /> : null;
    if (error) return <ErrorPage kind="crash" />;
    return this.props.children;
  }
}
