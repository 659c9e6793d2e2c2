import styled from 'styled-components';
import type { HomeContent } from '../../../shared/content-schema';
import { color, layout, radius, shadow, space, text } from '../../theme/theme';
import { IllustrativeNote } from '../ui/illustrative-note';
import { Container, Section } from '../ui/layout-primitives';

const Figure = styled.figure`
  position: relative;
  max-width: ${layout.proseWidth};
  margin: 0 auto;
  padding: clamp(${space.lg}, 5vw, ${space.xxl});
  border: 1px solid ${color.border};
  border-radius: ${radius.lg};
  background: ${color.surface};
  box-shadow: ${shadow.card};
`;

const QuoteMark = styled.span`
  display: block;
  height: 2.5rem;
  color: ${color.primary};
  font-family: Georgia, 'Times New Roman', serif;
  font-size: 5rem;
  line-height: 1;
`;

const Quote = styled.blockquote`
  margin: 0 0 ${space.lg};
  p {
    margin: 0;
    color: ${color.ink};
    font-size: ${text.xl};
    font-weight: 500;
    line-height: 1.5;
  }
`;

const Caption = styled.figcaption`
  display: flex;
  align-items: center;
  gap: ${space.md};
`;

const Initial = styled.span`
  display: inline-grid;
  place-items: center;
  flex-shrink: 0;
  width: 3rem;
  height: 3rem;
  border-radius: 50%;
  background: ${color.primary};
  color: ${color.onDark};
  font-weight: 800;
`;

const Author = styled.span`
  display: block;
  color: ${color.ink};
  font-weight: 700;
`;

const Role = styled.span`
  display: block;
  color: ${color.inkMuted};
  font-size: ${text.sm};
`;

const Illustrative = styled(IllustrativeNote)`
  margin-bottom: ${space.md};
`;

export function TestimonialSection({ testimonial }: { testimonial: HomeContent['testimonial'] }) {
  return (
    <Section $tone="alt" aria-labelledby="testimonial-title">
      <Container>
        {/* The quote has no visible heading; this one gives the section its name in the outline. */}
        <h2 id="testimonial-title" className="visually-hidden">
          What a client says
        </h2>
        <Figure>
          {testimonial.kind === 'illustrative' && <Illustrative of="testimonial" />}
          <QuoteMark aria-hidden="true">“</QuoteMark>
          <Quote>
            <p>{testimonial.quote}</p>
          </Quote>
          <Caption>
            <Initial aria-hidden="true">{testimonial.author.charAt(0)}</Initial>
            <span>
              <Author>{testimonial.author}</Author>{' '}
              <Role>
                {testimonial.role}, {testimonial.company}
              </Role>
            </span>
          </Caption>
        </Figure>
      </Container>
    </Section>
  );
}
