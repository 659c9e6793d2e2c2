/**
 * How the site labels an invented testimonial or case study, in the pages and in their Markdown
 * twins alike: a visitor must never take an example for a real client's words (publishing invented
 * reviews as real ones is unlawful in the UK).
 */
export const illustrativeLabel = 'Illustrative example';

export const illustrativeNotes = {
  testimonial: 'An invented client and quote, showing the kind of result we work towards. It is not a review by a real client.',
  caseStudy: 'An invented business, showing how we work and the kind of result we aim for. Its name, figures and quote are not a real client’s.',
} as const;
