import type { FaqContent, HomeContent } from '../../../shared/content-schema';
import { Accordion } from '../ui/accordion';
import { Container, Section } from '../ui/layout-primitives';
import { SectionIntro } from './section-intro';

export function FaqSection({ intro, items }: { intro: HomeContent['faq']; items: FaqContent['items'] }) {
  return (
    <Section id="faq" aria-labelledby="faq-title">
      <Container $narrow>
        <SectionIntro id="faq-title" title={intro.title} lead={intro.lead} centred />
        <Accordion items={items.map((item) => ({ question: item.question, answer: <p>{item.answer}</p> }))} />
      </Container>
    </Section>
  );
}
