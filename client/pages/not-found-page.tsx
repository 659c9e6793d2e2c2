import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { Link } from '../routing/links';
import styled from 'styled-components';
import { notFound } from '../../shared/generated/pages/notFound';
import { routesPaths } from '../../shared/site';
import { Button } from '../components/ui/button';
import { Icon, type AnyIconName } from '../components/ui/icon';
import { Container } from '../components/ui/layout-primitives';
import { PageHead } from '../head/page-head';
import { color, mediaUp, radius, shadow, space, text } from '../theme/theme';

// The same soft violet opening band as the other inner pages, so a wrong link still feels on-brand.
const Band = styled.div`
  padding-block: ${space.section};
  background: linear-gradient(180deg, ${color.primarySoft}, ${color.surface});
  text-align: center;
`;

const Code = styled.h1`
  margin-bottom: ${space.xs};
  color: ${color.primary};
  font-size: clamp(4.5rem, 3rem + 6vw, 7.5rem);
  font-weight: 800;
  line-height: 1;
  letter-spacing: -0.04em;
`;

const Message = styled.p`
  margin-bottom: ${space.xl};
  color: ${color.ink};
  font-size: ${text.xl};
  font-weight: 600;
`;

const Suggestions = styled.nav`
  margin-top: ${space.xxl};
  text-align: start;
  h2 {
    margin-bottom: ${space.md};
    color: ${color.inkMuted};
    font-size: ${text.sm};
    letter-spacing: 0.04em;
    text-align: center;
    text-transform: uppercase;
  }
  ul {
    display: grid;
    gap: ${space.sm};
    grid-template-columns: minmax(0, 1fr);
    margin: 0;
    padding: 0;
    list-style: none;
    ${mediaUp('sm')} { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  }
  a {
    display: flex;
    align-items: center;
    gap: ${space.md};
    min-height: 3.5rem;
    padding: ${space.sm} ${space.md};
    border: 1px solid ${color.border};
    border-radius: ${radius.md};
    background: ${color.surface};
    box-shadow: ${shadow.card};
    color: ${color.ink};
    font-weight: 600;
    text-decoration: none;
    &:hover { border-color: ${color.primary}; color: ${color.primary}; }
  }
  a > svg { flex-shrink: 0; color: ${color.primary}; }
`;

const suggestions: { to: string; label: string; icon: AnyIconName }[] = [
  { to: routesPaths.freeAudit, label: 'Free AI Visibility Audit', icon: 'search' },
  { to: routesPaths.howItWorks, label: 'How It Works', icon: 'layers' },
  { to: routesPaths.caseStudies, label: 'Case Studies', icon: 'trending' },
  { to: routesPaths.blog, label: 'The LLM-SEO Blog', icon: 'file' },
];

export default function NotFoundPage() {
  const { pathname } = useLocation();
  // The attempted path is logged to the console (the server logs it too).
  useEffect(() => {
    console.warn('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <Band>
      <PageHead title={notFound.seo.title} description={notFound.seo.description} noindex />
      <Container $narrow>
        <Code>404</Code>
        <Message>{notFound.message}</Message>
        <Button to={routesPaths.home} variant="gradient" size="lg">
          <Icon name="arrow-left" />
          {notFound.link}
        </Button>
        {/* A dead end loses the visitor; the pages most people came for are one tap away. */}
        <Suggestions aria-labelledby="not-found-suggestions">
          <h2 id="not-found-suggestions">Or try one of these</h2>
          <ul>
            {suggestions.map((item) => (
              <li key={item.to}>
                <Link to={item.to}>
                  <Icon name={item.icon} size={20} />
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </Suggestions>
      </Container>
    </Band>
  );
}
