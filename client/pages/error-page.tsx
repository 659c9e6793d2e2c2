import styled from 'styled-components';
import { brandedTitle } from '../../shared/search-snippet';
import { routesPaths, site } from '../../shared/site';
import { Button } from '../components/ui/button';
import { Container } from '../components/ui/layout-primitives';
import { PageHead } from '../head/page-head';
import { color, space, text } from '../theme/theme';

const Wrap = styled.div`
  padding-block: ${space.section};
  text-align: center;
  h1 { font-size: ${text.h2}; }
  pre { white-space: pre-wrap; color: ${color.inkMuted}; }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${space.sm};
`;

/**
 * What went wrong, in the visitor's words: the server failed (500), the page's code could not be
 * fetched after a full load was tried (load), or the page failed in the browser (crash).
 */
const kinds = {
  server: { title: '500 Internal Server Error', status: '500 Internal Server Error', advice: 'Please try again in a moment.' },
  load: {
    title: brandedTitle('This page could not be loaded', site.brand),
    status: 'This page could not be loaded.',
    advice: 'Check your connection, then try again.',
  },
  crash: {
    title: brandedTitle('Something went wrong on this page', site.brand),
    status: 'Something went wrong on this page in your browser.',
    advice: 'Loading it again usually helps.',
  },
};

export type ErrorKind = keyof typeof kinds;

/**
 * The fallback for an unhandled error: 'Unexpected Application Error!', what happened, and the
 * message only when the server is not in production, so no internals reach a visitor. Not a page
 * of its own, so it has no canonical address.
 */
export function ErrorPage({ kind, message }: { kind: ErrorKind; message?: string }) {
  const { title, status, advice } = kinds[kind];
  return (
    <Wrap>
      <PageHead title={title} description="Something went wrong." noindex />
      <Container $narrow>
        <h1>Unexpected Application Error!</h1>
        <p>{status}</p>
        {message ? <pre>{message}</pre> : null}
        <p>{advice} If it keeps happening, tell us and we will fix it.</p>
        <Actions>
          {/* A plain link: a full load of the same address, which fetches the page afresh. */}
          {kind !== 'server' && <Button href={typeof window === 'undefined' ? '' : window.location.href}>Try again</Button>}
          <Button href={routesPaths.home} variant={kind === 'server' ? 'default' : 'outline'}>
            Return to Home
          </Button>
        </Actions>
      </Container>
    </Wrap>
  );
}
