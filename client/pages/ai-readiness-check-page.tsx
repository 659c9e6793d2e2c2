import { useLocation } from 'react-router-dom';
import styled from 'styled-components';
import { aiReadinessCheck as copy } from '../../shared/generated/pages/aiReadinessCheck';
import { breadcrumbJsonLd, webApplicationJsonLd } from '../../shared/json-ld';
import { routesPaths } from '../../shared/site';
import { AUDIT_WEBSITE_PARAM, type SiteCheckView } from '../../shared/site-check';
import { useAppConfig } from '../app-config';
import { ReadinessForm } from '../components/forms/readiness-form';
import { useFormState } from '../components/forms/form-state';
import { checkTokenOf, useCheckStatus } from '../components/check-status';
import { SiteCheckResult } from '../components/site-check-result';
import { Button } from '../components/ui/button';
import { Icon } from '../components/ui/icon';
import { Card, Container, Eyebrow, Lead, Section } from '../components/ui/layout-primitives';
import { PageHead } from '../head/page-head';
import { color, mediaUp, space, text } from '../theme/theme';

const Narrow = styled(Container)`
  max-width: 52rem;
`;

const Intro = styled.div`
  margin-bottom: ${space.xl};
  h1 { font-size: ${text.h1}; }
`;

/** What the check looks at: after the form, so that on a phone the field is in the first screen. */
const Looks = styled.ul`
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: ${space.sm};
  ${mediaUp('md')} { grid-template-columns: repeat(2, minmax(0, 1fr)); column-gap: ${space.lg}; }
  li { display: flex; gap: ${space.sm}; align-items: flex-start; }
  svg { color: ${color.success}; flex-shrink: 0; margin-top: 0.2rem; }
`;

const FormCard = styled(Card)`
  padding: ${space.lg};
  margin-bottom: ${space.xl};
  ${mediaUp('md')} { padding: ${space.xl}; }
  h2 { font-size: ${text.xl}; margin-bottom: ${space.md}; }
`;

const Missing = styled.p`
  margin: 0 0 ${space.lg};
  font-weight: 600;
`;

const Invitation = styled.div`
  margin-top: ${space.xl};
  padding: ${space.lg};
  border-radius: 1rem;
  background: ${color.primarySoft};
  h3 { font-size: ${text.xl}; margin-bottom: ${space.sm}; }
  p { margin: 0 0 ${space.lg}; }
`;

/** The call to the full audit that ends a result: the audit form, its website filled in with the one checked. */
function invitation(view: SiteCheckView) {
  const audit = `${routesPaths.freeAudit}?${AUDIT_WEBSITE_PARAM}=${encodeURIComponent(view.url)}`;
  return (
    <Invitation>
      <h3>{copy.invitation.title}</h3>
      <p>{copy.invitation.body}</p>
      <Button to={audit} variant="gradient" size="lg">
        {copy.invitation.button}
        <Icon name="arrow-right" />
      </Button>
    </Invitation>
  );
}

/** A public check's result, kept up to date while it runs (a public check has no visibility probe). */
function ReadinessResult({ token, initial }: { token: string | null; initial: SiteCheckView | undefined }) {
  const { siteCheck, slow } = useCheckStatus(token, { siteCheck: initial });
  return <SiteCheckResult copy={copy.result} view={siteCheck} slow={slow} ended={invitation} />;
}

/**
 * The public AI-readiness check: "see your website the way AI crawlers see it" and one field.
 * The heading, one short line, then the form, so that the field and its button are in the first
 * screen of a phone (390 x 844) as of a desktop; what the check looks at comes after the form.
 * At /ai-readiness-check/result?check=TOKEN the same page shows that check, running or done,
 * and ends with the invitation to the full audit; the form comes after it, to check another site.
 */
export default function AiReadinessCheckPage() {
  const { siteUrl } = useAppConfig();
  const location = useLocation();
  const onResult = location.pathname === routesPaths.aiReadinessResult;
  const token = onResult ? checkTokenOf(location.search) : null;
  const { siteCheck } = useFormState('readiness');
  return (
    <Section $tone="alt">
      {onResult ? (
        <PageHead title={copy.resultSeo.title} description={copy.resultSeo.description} keywords={copy.resultSeo.keywords} canonicalPath={routesPaths.aiReadinessResult} noindex />
      ) : (
        <PageHead
          title={copy.seo.title}
          description={copy.seo.description}
          keywords={copy.seo.keywords}
          canonicalPath={routesPaths.aiReadinessCheck}
          jsonLd={[
            webApplicationJsonLd(siteUrl, { name: copy.title, path: routesPaths.aiReadinessCheck, description: copy.seo.description }),
            breadcrumbJsonLd(siteUrl, [{ name: 'Home', path: '/' }, { name: copy.title, path: routesPaths.aiReadinessCheck }]),
          ]}
        />
      )}
      <Narrow>
        <Intro>
          <Eyebrow>Free, in seconds</Eyebrow>
          <h1>{copy.title}</h1>
          {!onResult && <Lead>{copy.lead}</Lead>}
        </Intro>
        {/* The server sends the check with the page (null: no such check); after a move here from the form, it is asked for by its token. */}
        {onResult &&
          (siteCheck === null || (siteCheck === undefined && !token) ? (
            <Missing>{copy.noResult}</Missing>
          ) : (
            <ReadinessResult token={token} initial={siteCheck} />
          ))}
        <FormCard>
          <h2 id="readiness-form-title">{onResult ? copy.again : copy.formTitle}</h2>
          <ReadinessForm copy={copy} titleId="readiness-form-title" />
        </FormCard>
        {!onResult && (
          <Looks>
            {copy.checks.map((item) => (
              <li key={item}>
                <Icon name="check" size={20} />
                <span>{item}</span>
              </li>
            ))}
          </Looks>
        )}
      </Narrow>
    </Section>
  );
}
