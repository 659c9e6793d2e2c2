import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { notFound } from '../../shared/generated/pages/notFound';
import { routesPaths } from '../../shared/site';
import { Button } from '../components/ui/button';
import { Container } from '../components/ui/layout-primitives';
import { PageHead } from '../head/page-head';
import { color, space } from '../theme/theme';

const Wrap = styled.div`
  padding-block: ${space.section};
  text-align: center;
  h1 { font-size: clamp(4rem, 3rem + 5vw, 7rem); margin-bottom: 0; color: ${color.primary}; }
  p { font-size: 1.25rem; color: ${color.inkMuted}; }
`;

export default function NotFoundPage() {
  const { pathname } = useLocation();
  // SPEC: the attempted path is logged to the console (the server logs it too).
  useEffect(() => {
    console.warn('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <Wrap>
      <PageHead title={notFound.seo.title} description={notFound.seo.description} canonicalPath={pathname} noindex />
      <Container $narrow>
        <h1>404</h1>
        <p>{notFound.message}</p>
        <Button to={routesPaths.home}>{notFound.link}</Button>
      </Container>
    </Wrap>
  );
}
