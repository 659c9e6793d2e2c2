import styled from 'styled-components';
import { routesPaths } from '../../shared/site';
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

/**
 * The fallback for an unhandled error: 'Unexpected Application Error!' with the status and
 * status text, or the message. The message is shown only when the server is not in production,
 * so no internals reach a visitor.
 */
export function ErrorPage({ status, statusText, message }: { status: number; statusText: string; message?: string }) {
  return (
    <Wrap>
      <PageHead title={`${status} ${statusText}`} description="Something went wrong on our side." canonicalPath="/" noindex />
      <Container $narrow>
        <h1>Unexpected Application Error!</h1>
        <p>
          {status} {statusText}
        </p>
        {message ? <pre>{message}</pre> : null}
        <p>Please try again in a moment. If it keeps happening, tell us and we will fix it.</p>
        <Button href={routesPaths.home}>Return to Home</Button>
      </Container>
    </Wrap>
  );
}
