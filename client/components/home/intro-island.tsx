import { aiShiftContent } from '../../../shared/generated/home/aiShift';
import { benefitsContent } from '../../../shared/generated/home/benefits';
import { heroContent } from '../../../shared/generated/home/hero';
import { pillarsContent } from '../../../shared/generated/home/pillars';
import { testimonialContent } from '../../../shared/generated/home/testimonial';
import { AiShiftSection } from './ai-shift-section';
import { BenefitsSection } from './benefits-section';
import { HeroSection } from './hero-section';
import { PillarsSection } from './pillars-section';
import { TestimonialSection } from './testimonial-section';

/** The home page from the hero to the testimonial: no behaviour, so a static island. */
export default function HomeIntro() {
  return (
    <>
      <HeroSection hero={heroContent} />
      <AiShiftSection aiShift={aiShiftContent} />
      <PillarsSection pillars={pillarsContent} />
      <BenefitsSection benefits={benefitsContent} />
      <TestimonialSection testimonial={testimonialContent} />
    </>
  );
}
