import { Link } from '../../routing/links';
import styled from 'styled-components';
import { company, companyDetails } from '../../../shared/company';
import { routesPaths, site } from '../../../shared/site';
import { useAppConfig } from '../../app-config';
import { color, mediaUp, space, text } from '../../theme/theme';
import { Icon } from '../ui/icon';
import { Container, plainList } from '../ui/layout-primitives';

const Footer = styled.footer`
  background: ${color.surfaceDark};
  color: ${color.onDarkMuted};
  padding-block: ${space.xxl} ${space.xl};
  /* Pages that end on a dark band would otherwise run straight into the footer. */
  border-top: 1px solid ${color.borderDark};
  font-size: ${text.sm};
  a { color: ${color.onDark}; text-decoration: none; }
  a:hover { color: ${color.electric}; text-decoration: underline; }
`;

const Columns = styled.div`
  display: grid;
  gap: ${space.xl};
  grid-template-columns: 1fr;
  ${mediaUp('sm')} { grid-template-columns: repeat(2, 1fr); }
  ${mediaUp('lg')} { grid-template-columns: 1.4fr repeat(3, 1fr); }
`;

const ColumnTitle = styled.h2`
  color: ${color.onDark};
  font-size: ${text.sm};
  letter-spacing: 0.06em;
  text-transform: uppercase;
  margin-bottom: ${space.md};
`;

const List = styled.ul`
  ${plainList}
  display: grid;
  gap: 0.6rem;
  li { display: flex; align-items: center; gap: 0.5rem; }
  svg { width: 1rem; height: 1rem; flex-shrink: 0; }
`;

const Legal = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: ${space.md};
  margin-top: ${space.xxl};
  padding-top: ${space.lg};
  border-top: 1px solid ${color.borderDark};
  /* A tight row gap: on a phone the third link wraps and should stay with the other two. */
  ul { display: flex; flex-wrap: wrap; gap: ${space.xs} ${space.lg}; list-style: none; margin: 0; padding: 0; }
  ul a { display: inline-block; padding-block: ${space.xs}; }
`;

// No style attributes anywhere: the CSP has no 'unsafe-inline' for styles.
const FooterBrand = styled.p`
  color: #fff;
  font-weight: 800;
  font-size: 1.2rem;
  margin-bottom: ${space.sm};
`;

const Copyright = styled.p`
  margin: 0;
`;

const Registration = styled.p`
  margin: ${space.xs} 0 0;
  max-width: 40rem;
  font-size: ${text.xs};
`;

/** The default export is what the app shell loads as a static island (app.tsx). */
export default function SiteFooter() {
  const { year } = useAppConfig();
  return (
    <Footer>
      <Container>
        <Columns>
          <div>
            <FooterBrand>{site.brand}</FooterBrand>
            <p>{site.tagline}: we get UK businesses recommended by ChatGPT, Claude, Gemini and Perplexity.</p>
          </div>
          <nav aria-labelledby="footer-services">
            <ColumnTitle id="footer-services">Services</ColumnTitle>
            <List>
              <li><Link to={routesPaths.homeAlias}>LLM-SEO</Link></li>
              <li><Link to={routesPaths.freeAudit}>Free AI Visibility Audit</Link></li>
              <li><Link to={routesPaths.howItWorks}>How It Works</Link></li>
              <li><Link to={`${routesPaths.home}#pricing`}>Pricing</Link></li>
            </List>
          </nav>
          <nav aria-labelledby="footer-resources">
            <ColumnTitle id="footer-resources">Resources</ColumnTitle>
            <List>
              <li><Link to={routesPaths.blog}>Blog</Link></li>
              <li><Link to={routesPaths.caseStudies}>Case Studies</Link></li>
              <li><Link to={routesPaths.aiReadinessCheck}>Free AI-Readiness Check</Link></li>
              <li><Link to="/blog/complete-llm-seo-guide">The Complete LLM-SEO Guide</Link></li>
              <li><Link to={`${routesPaths.home}#faq`}>FAQ</Link></li>
            </List>
          </nav>
          <div>
            <ColumnTitle as="h2">Contact</ColumnTitle>
            <List>
              <li><Icon name="mail" /><a href={`mailto:${site.email}`}>{site.email}</a></li>
              <li><Icon name="phone" /><a href={`tel:${site.phoneE164}`}>{site.phone}</a></li>
              <li><Icon name="map-pin" /><span>{site.location.footer}</span></li>
              <li><Icon name="message" /><Link to={routesPaths.contact}>Contact us</Link></li>
            </List>
          </div>
        </Columns>
        <Legal>
          <div>
            <Copyright>© {year} {site.legalName}.</Copyright>
            <Registration>{companyDetails(company)}</Registration>
          </div>
          <nav aria-label="Legal">
            <ul>
              <li><Link to={routesPaths.privacyPolicy}>Privacy Policy</Link></li>
              <li><Link to={routesPaths.termsConditions}>Terms &amp; Conditions</Link></li>
              <li><Link to={routesPaths.refundPolicy}>Refund Policy</Link></li>
            </ul>
          </nav>
        </Legal>
      </Container>
    </Footer>
  );
}
