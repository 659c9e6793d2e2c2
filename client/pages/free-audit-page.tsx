import styled from 'styled-components';
import { freeAudit } from '../../shared/generated/pages/freeAudit';
import { routesPaths } from '../../shared/site';
import { AuditForm } from '../components/forms/audit-form';
import { Icon } from '../components/ui/icon';
import { Card, Container, Eyebrow, Lead, Section } from '../components/ui/layout-primitives';
import { breadcrumbJsonLd } from '../../shared/json-ld';
import { PageHead } from '../head/page-head';
import { useAppConfig } from '../app-config';
import { color, mediaUp, space, text } from '../theme/theme';

const Layout = styled.div`
  display: grid;
  gap: ${space.xl};
  ${mediaUp('lg')} { grid-template-columns: minmax(0, 1fr) minmax(0, 1.5fr); align-items: start; }
`;

const Intro = styled.div`
  h1 { font-size: ${text.h1}; }
`;

const Offer = styled.ul`
  list-style: none;
  padding: 0;
  margin: ${space.lg} 0 0;
  display: grid;
  gap: ${space.sm};
  li { display: flex; gap: ${space.sm}; align-items: flex-start; }
  svg { color: ${color.success}; flex-shrink: 0; margin-top: 0.2rem; }
`;

const FormCard = styled(Card)`
  padding: ${space.lg};
  ${mediaUp('md')} { padding: ${space.xl}; }
  h2 { font-size: ${text.xl}; margin-bottom: ${space.xs}; }
`;

export default function FreeAuditPage() {
  const { siteUrl } = useAppConfig();
  return (
    <Section $tone="alt">
      <PageHead
        title={freeAudit.seo.title}
        description={freeAudit.seo.description}
        keywords={freeAudit.seo.keywords}
        canonicalPath={routesPaths.freeAudit}
        jsonLd={[breadcrumbJsonLd(siteUrl, [{ name: 'Home', path: '/' }, { name: freeAudit.title, path: routesPaths.freeAudit }])]}
      />
      <Container>
        <Layout>
          <Intro>
            <Eyebrow>Free for a limited time</Eyebrow>
            <h1>{freeAudit.title}</h1>
            <Lead>{freeAudit.lead}</Lead>
            <Offer>
              {freeAudit.offer.map((item) => (
                <li key={item}>
                  <Icon name="check" size={20} />
                  <span>{item}</span>
                </li>
              ))}
            </Offer>
          </Intro>
          <FormCard>
            <h2 id="audit-form-title">{freeAudit.cardTitle}</h2>
            <p>{freeAudit.cardLead}</p>
            <AuditForm privacyNote={freeAudit.privacyNote} probeNote={freeAudit.probeNote} />
          </FormCard>
        </Layout>
      </Container>
    </Section>
  );
}
