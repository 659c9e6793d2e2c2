/**
 * The answer judge's words for a verdict: the tones it gives an answer, what a claim may be about,
 * and what the business's site says of a claim. Apart from judge.ts, so that the reports composed
 * from kept verdicts do not load the client library that asks for them.
 */

export const TONES = ['positive', 'neutral', 'mixed', 'negative'] as const;
export const CLAIM_SUBJECTS = ['service', 'place', 'status', 'price'] as const;
export const VERDICTS = ['supported', 'contradicted', 'not on site'] as const;

export type Tone = (typeof TONES)[number];
export type ClaimSubject = (typeof CLAIM_SUBJECTS)[number];
export type Verdict = (typeof VERDICTS)[number];
