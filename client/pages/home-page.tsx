import { faqContent } from '../../shared/generated/home/faq';
import { faq } from '../../shared/generated/home/faq-items';
import { seoContent } from '../../shared/generated/home/seo';
import { routesPaths } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { FaqSection } from '../components/home/faq-section';
import { staticIsland } from '../components/static-island';
import { faqJsonLd, serviceJsonLd } from '../../shared/json-ld';
import { PageHead } from '../head/page-head';

// Everything but the FAQ accordion is text and links: static islands (see static-island.tsx).
const intro = staticIsland('home-intro', () => import('../components/home/intro-island'));
const offer = staticIsland('home-offer', () => import('../components/home/offer-island'));
/**
 * The page's static islands: the route's loader (client/routes.tsx) reads them from this module.
 * @public
 */
export const islands = [intro, offer];

/**
 * The home page, also served at /services/llm-seo: the canonical path stays '/' on both, so
 * search engines index one copy.
 */
export default function HomePage() {
  const { siteUrl } = useAppConfig();
  return (
    <>
      <PageHead
        title={seoContent.title}
        description={seoContent.description}
        keywords={seoContent.keywords}
        canonicalPath={routesPaths.home}
        jsonLd={[
          serviceJsonLd(siteUrl, seoContent.description),
          faqJsonLd(faq.items.map((item) => ({ question: item.question, answer: item.answer }))),
        ]}
      />
      <intro.Island />
      <FaqSection intro={faqContent} items={faq.items} />
      <offer.Island />
    </>
  );
}
