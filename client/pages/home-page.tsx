import { faq, home } from '../../shared/generated/home';
import { routesPaths } from '../../shared/site';
import { useAppConfig } from '../app-config';
import { AiShiftSection } from '../components/home/ai-shift-section';
import { BenefitsSection } from '../components/home/benefits-section';
import { ClosingCtaSection } from '../components/home/closing-cta-section';
import { CrawlerAccessSection } from '../components/home/crawler-access-section';
import { FaqSection } from '../components/home/faq-section';
import { HeroSection } from '../components/home/hero-section';
import { PillarsSection } from '../components/home/pillars-section';
import { PricingSection } from '../components/home/pricing-section';
import { ProductLaunchSection } from '../components/home/product-launch-section';
import { TestimonialSection } from '../components/home/testimonial-section';
import { faqJsonLd, serviceJsonLd } from '../head/json-ld';
import { PageHead } from '../head/page-head';

/**
 * The home page, also served at /services/llm-seo: the canonical path stays '/' on both, so
 * search engines index one copy.
 */
export default function HomePage() {
  const { siteUrl } = useAppConfig();
  return (
    <>
      <PageHead
        title={home.seo.title}
        description={home.seo.description}
        keywords={home.seo.keywords}
        canonicalPath={routesPaths.home}
        jsonLd={[
          serviceJsonLd(siteUrl, home.seo.description),
          faqJsonLd(faq.items.map((item) => ({ question: item.question, answer: item.answer }))),
        ]}
      />
      <HeroSection hero={home.hero} />
      <AiShiftSection aiShift={home.aiShift} />
      <PillarsSection pillars={home.pillars} />
      <BenefitsSection benefits={home.benefits} />
      <TestimonialSection testimonial={home.testimonial} />
      <FaqSection intro={home.faq} items={faq.items} />
      <PricingSection pricing={home.pricing} />
      <ClosingCtaSection cta={home.closingCta} />
      <ProductLaunchSection launch={home.productLaunch} />
      <CrawlerAccessSection crawler={home.crawlerAccess} />
    </>
  );
}
