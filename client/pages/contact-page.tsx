import styled from 'styled-components';
import { contact } from '../../shared/generated/pages/contact';
import { routesPaths, site } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { ContactForm } from '../components/forms/contact-form';
import { PageIntro } from '../components/layout/page-intro';
import { Button } from '../components/ui/button';
import { Icon } from '../components/ui/icon';
import { Panel } from '../components/ui/content-blocks';
import { Container, labelText, Section } from '../components/ui/layout-primitives';
import { breadcrumbJsonLd } from '../../shared/json-ld';
import { PageHead } from '../head/page-head';
import { color, mediaUp, radius, space, text } from '../theme/theme';

const { seo } = contact;

const Columns = styled.div`
  display: grid;
  gap: ${space.xl};
  grid-template-columns: minmax(0, 1fr);
  align-items: start;
  ${mediaUp('lg')} { grid-template-columns: minmax(0, 1.6fr) minmax(0, 1fr); }
`;

const FormPanel = styled(Panel)`
  ${mediaUp('md')} { padding: ${space.xxl}; }
`;

const Side = styled.div`
  display: grid;
  gap: ${space.lg};
`;

const PanelTitle = styled.h2`
  font-size: ${text.xl};
  margin-bottom: ${space.sm};
`;

const FormTitle = styled.h2`
  font-size: ${text.h3};
  margin-bottom: ${space.sm};
`;

const Muted = styled.p`
  color: ${color.inkMuted};
`;

const InfoList = styled.ul`
  list-style: none;
  margin: ${space.md} 0;
  padding: 0;
  display: grid;
  gap: ${space.md};
  li {
    display: grid;
    grid-template-columns: 2.5rem minmax(0, 1fr);
    gap: ${space.md};
    align-items: start;
  }
  a { overflow-wrap: anywhere; font-weight: 600; }
`;

const InfoIcon = styled.span`
  display: grid;
  place-items: center;
  width: 2.5rem;
  height: 2.5rem;
  border-radius: ${radius.md};
  background: ${color.primarySoft};
  color: ${color.primaryHover};
  svg { width: 1.25rem; height: 1.25rem; }
`;

const InfoLabel = styled.span`
  display: block;
  color: ${color.inkMuted};
  ${labelText}
`;

const ResponseNote = styled.p`
  margin: 0;
  padding: ${space.sm} ${space.md};
  border-radius: ${radius.md};
  background: ${color.surfaceAlt};
  color: ${color.success};
  font-size: ${text.sm};
  font-weight: 600;
`;

const Actions = styled.ul`
  list-style: none;
  margin: ${space.md} 0 0;
  padding: 0;
  display: grid;
  gap: ${space.sm};
  a { justify-content: flex-start; }
`;

const Emergency = styled(Panel)`
  background: ${color.destructiveSoft};
  border-color: ${color.destructive};
  ${PanelTitle} { display: flex; align-items: center; gap: ${space.sm}; color: ${color.destructive}; }
  ${PanelTitle} svg { width: 1.5rem; height: 1.5rem; flex-shrink: 0; }
  p { color: ${color.ink}; }
`;

const About = styled(Panel)`
  background: ${color.surfaceDark};
  border-color: ${color.borderDark};
  color: ${color.onDarkMuted};
  ${PanelTitle} { color: ${color.onDark}; }
  p { margin: 0; }
`;

export default function ContactPage() {
  const { siteUrl } = useAppConfig();
  const tel = `tel:${site.phoneE164}`;
  return (
    <>
      <PageHead
        title={seo.title}
        description={seo.description}
        keywords={seo.keywords}
        canonicalPath={routesPaths.contact}
        jsonLd={[
          breadcrumbJsonLd(siteUrl, [
            { name: 'Home', path: routesPaths.home },
            { name: 'Contact', path: routesPaths.contact },
          ]),
        ]}
      />
      <PageIntro id="contact-title" title={contact.title} lead={contact.lead} />

      {/* Not a region itself: the form and each side card are the named regions. */}
      <Section as="div" $tone="alt">
        <Container>
          <Columns>
            <FormPanel aria-labelledby="contact-form-title">
              <FormTitle id="contact-form-title">{contact.formTitle}</FormTitle>
              <Muted>{contact.formLead}</Muted>
              <ContactForm successMessage={contact.success} />
            </FormPanel>

            <Side>
              <Panel aria-labelledby="contact-info-title">
                <PanelTitle id="contact-info-title">{contact.infoTitle}</PanelTitle>
                <InfoList>
                  <li>
                    <InfoIcon><Icon name="mail" /></InfoIcon>
                    <span>
                      <InfoLabel>E-mail</InfoLabel>
                      <a href={`mailto:${site.email}`}>{site.email}</a>
                    </span>
                  </li>
                  <li>
                    <InfoIcon><Icon name="phone" /></InfoIcon>
                    <span>
                      <InfoLabel>Phone</InfoLabel>
                      <a href={tel}>{site.phone}</a>
                    </span>
                  </li>
                  <li>
                    <InfoIcon><Icon name="map-pin" /></InfoIcon>
                    <span>
                      <InfoLabel>Location</InfoLabel>
                      {site.location.headquarters}
                    </span>
                  </li>
                  <li>
                    <InfoIcon><Icon name="clock" /></InfoIcon>
                    <span>
                      <InfoLabel>Business hours</InfoLabel>
                      {site.businessHours}
                    </span>
                  </li>
                </InfoList>
                <ResponseNote>{contact.responsePromise}</ResponseNote>
              </Panel>

              <Panel aria-labelledby="quick-actions-title">
                <PanelTitle id="quick-actions-title">{contact.quickActionsTitle}</PanelTitle>
                <Actions>
                  <li>
                    <Button to={routesPaths.freeAudit} variant="gradient" block>
                      <Icon name="search" />Book Free AI Audit
                    </Button>
                  </li>
                  <li>
                    <Button to={routesPaths.caseStudies} variant="outline" block>
                      <Icon name="chart" />View Case Studies
                    </Button>
                  </li>
                  <li>
                    <Button to={routesPaths.blog} variant="outline" block>
                      <Icon name="file" />Read Our Blog
                    </Button>
                  </li>
                </Actions>
              </Panel>

              <Emergency aria-labelledby="emergency-title">
                <PanelTitle id="emergency-title"><Icon name="shield" />{contact.emergency.title}</PanelTitle>
                <p>{contact.emergency.body}</p>
                <Button href={tel} variant="destructive" block>
                  <Icon name="phone" />
                  {contact.emergency.button}
                  <span className="visually-hidden">: {site.phone}</span>
                </Button>
              </Emergency>

              <About aria-labelledby="about-title">
                <PanelTitle id="about-title">{contact.about.title}</PanelTitle>
                <p>{contact.about.body}</p>
              </About>
            </Side>
          </Columns>
        </Container>
      </Section>
    </>
  );
}
