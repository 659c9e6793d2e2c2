import { closingCtaContent } from '../../../shared/generated/home/closingCta';
import { crawlerAccessContent } from '../../../shared/generated/home/crawlerAccess';
import { pricingContent } from '../../../shared/generated/home/pricing';
import { productLaunchContent } from '../../../shared/generated/home/productLaunch';
import { ClosingCtaSection } from './closing-cta-section';
import { CrawlerAccessSection } from './crawler-access-section';
import { PricingSection } from './pricing-section';
import { ProductLaunchSection } from './product-launch-section';

/** The home page after the FAQ, from pricing to the AI-crawler block: a static island. */
export default function HomeOffer() {
  return (
    <>
      <PricingSection pricing={pricingContent} />
      <ClosingCtaSection cta={closingCtaContent} />
      <ProductLaunchSection launch={productLaunchContent} />
      <CrawlerAccessSection crawler={crawlerAccessContent} />
    </>
  );
}
