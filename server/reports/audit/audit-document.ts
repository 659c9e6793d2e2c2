import type { FactKind } from '../../answer-check/fact-check';
import type { ClaimSubject, Tone } from '../../answer-check/verdicts';
import type { AssistantId } from '../../visibility-probe/assistant-catalogue';
import type { NameSign } from '../../business/business-name';

/**
 * The full AI visibility audit of one request, as its page shows it: every figure, list and
 * sentence the report holds, worked out once when the run ends (from the run's site check and
 * its answers, and the words of content/audit-report.yaml) and stored with the run. The page only
 * lays it out; a person reading the stored JSON sees what the prospect sees.
 *
 * Counts stay counts ("named in 12 of 50"), with the range a sample of that size allows; shares
 * are 0 to 1. Every sentence is the agency's words from content/, with the measured figures put
 * in: nothing here is written by a model.
 */
export interface AuditDocument {
  /** The shape of this document; a page reads the versions it knows. */
  version: 1;
  /** The business, as the answers were searched for it. */
  business: {
    /** "Okafor Plumbing"; null: its site gives no name, and only its address was searched for. */
    name: string | null;
    /** Its site ("okaforplumbing.co.uk", or a platform page: "facebook.com/okaforplumbing"); null: none given. */
    site: string | null;
    /** Where the name was read (the home page's signs that agree on it, or given with --brand); [] with no name. A document stored before has `nameSource` instead (signsOfStored reads both). */
    nameSigns: NameSign[];
    /** Names its page gives made only of the request's own words: not searched for, never asked about. */
    typedNames?: string[];
  };
  /** When the run ended (ISO 8601): the report says when it was made. */
  madeAt: string;
  /** When the first and the last question were asked (ISO 8601). */
  askedFrom: string;
  askedTo: string;
  /** Questions put to each assistant (AUDIT_PROMPTS, fewer when the form's words made fewer). */
  questionsPerAssistant: number;
  /** Why the run has fewer answers than it asked for, as a sentence of content/audit-report.yaml ("Only 163 of the 164 answers we asked for came back, ..."); null when it has them all. */
  incomplete: string | null;

  summary: AuditSummary;
  visibility: AssistantVisibility[];
  /** What the assistants say about the business, checked against its own site; missing from a report made without it. */
  said?: WhatTheySay;
  competitors: CompetitorAnalysis;
  keywords: KeywordOpportunity[];
  recommendations: AssistantRecommendations[];
  /** Every action, the most effect for the least effort first. */
  actions: AuditAction[];
  /** The site check's findings, for the readiness chart and table. */
  readiness: ReadinessFinding[];
}

export interface AuditSummary {
  /** 0-100 (the visibility probe's scoring table), null when no assistant answered. */
  visibilityScore: number | null;
  /** What the visibility score means, in one sentence. */
  visibilitySentence: string;
  /** 0-100 (the site check's scoring table), null when the site could not be checked. */
  readinessScore: number | null;
  readinessSentence: string;
  /** The ids of the three actions that matter most (the first three of `actions`). */
  topActions: string[];
}

/** A count out of a sample, with the range the sample allows (95% Wilson interval, as counts of the same sample). */
export interface SampleCount {
  count: number;
  of: number;
  /** "between 8 and 22 of 50": the interval's ends as whole answers (rounded outwards); null when `of` is 0. */
  low: number | null;
  high: number | null;
}

/** One assistant's part: how often it named the business, cited its site, and where it put it. */
export interface AssistantVisibility {
  assistant: AssistantId;
  /** "ChatGPT" */
  label: string;
  /** The models that answered, as the API named them (usually one). */
  models: string[];
  /** Questions put to it, and how many it answered. */
  asked: number;
  answered: number;
  /** Answers naming the business, out of those it gave. */
  named: SampleCount;
  /** Answers citing a page of the business's own site. */
  cited: SampleCount;
  /** Mean place among the businesses an answer names, where it names the business (1 = first); null: never named. */
  averagePosition: number | null;
  /** The business's share of all the businesses its answers named (each counted once an answer). */
  shareOfVoice: number | null;
  /** 0-100, null when it gave no answer. */
  score: number | null;
  /** Why its part ended early ("key rejected"); null when every question was put. */
  error: string | null;
}

/**
 * What the assistants tell a buyer about the business: their answers to the direct questions about
 * it and their other answers that name it, each fact compared with what its own site states, and
 * a sample of them read by the answer judge for their tone and their claims.
 */
export interface WhatTheySay {
  /** The direct questions put to each assistant (none in a run made without them). */
  questions: string[];
  /** Where the site's facts were read ("home page", "home page and contact page"); null: its site could not be read, and no fact was compared. */
  factsFrom: string | null;
  /** The model that judged tone and claims; null: none did. */
  judge: string | null;
  /** The judge's verdicts not kept, since the words they rested on were not found word for word. */
  dropped: number;
  assistants: AssistantSays[];
}

export interface AssistantSays {
  assistant: AssistantId;
  label: string;
  /** How it describes the business, in its own words (one sentence of its answers, Markdown marks taken out); null: none. */
  describes: string | null;
  /** Its answers about the business (to the direct questions, and the others naming it), and how many of them the judge read. */
  answers: number;
  judged: number;
  /** The tone of each answer judged whose tone rests on words found in it. */
  tone: Record<Tone, number>;
  /** The facts it gets wrong, the contact facts first. */
  wrong: WrongFact[];
}

/** What a wrong fact is about: a contact fact compared exactly, or a claim the judge found the site contradicts. */
export type WrongFactKind = FactKind | ClaimSubject;

export interface WrongFact {
  kind: WrongFactKind;
  /** The value it gave ("0113 496 0000", "pipepros.co.uk"), where the fact is one value; null for a claim. */
  said: string | null;
  /** The assistant's words, as it wrote them: the sentence that gives the fact. */
  says: string;
  /** What the site says, as it writes it; null: the site says nothing of its own (an assistant saying it has closed). */
  siteSays: string | null;
  /** A web address's: the business it belongs to, when the answer says; else null. */
  whose: string | null;
  /** Compared exactly ("compared"), or the judge's verdict with its quotes found ("judge"). */
  by: 'compared' | 'judge';
}

interface CompetitorAnalysis {
  /** The business and the competitors named most, each with its share of voice per assistant. */
  shareOfVoice: ShareOfVoiceRow[];
  /** The sites the answers cite most for these questions: where the business needs to be. */
  citedSites: CitedSite[];
}

export interface ShareOfVoiceRow {
  /** As the answers first wrote it. */
  name: string;
  /** The row of the business itself. */
  isBusiness: boolean;
  /** Answers naming it, all assistants together, and its share of all the names in them. */
  answers: number;
  share: number;
  perAssistant: { assistant: AssistantId; answers: number; share: number }[];
}

/** What kind of site a cited domain is (content/audit-sources.yaml, and the competitors' own sites by their names). */
export type SiteKind = 'directory' | 'reviews' | 'press' | 'forum' | 'competitor' | 'own site' | 'other';

export interface CitedSite {
  domain: string;
  kind: SiteKind;
  /** Answers citing or writing it, all assistants together, and which assistants did. */
  answers: number;
  assistants: AssistantId[];
}

/** One search the business asked about (a keyword or a product of its request), as the answers treated it. */
export interface KeywordOpportunity {
  /** The words as the questions put them. */
  keyword: string;
  /** Answers to questions about it, all assistants together. */
  answers: number;
  /** Of those, the answers naming the business, and those naming others but not it. */
  named: number;
  rivalsOnly: number;
  /** The assistants that named others but not the business for it. */
  assistantsMissing: AssistantId[];
  /** The competitors named most for it. */
  rivals: string[];
  /** Named in most of its answers, ahead of everyone else where it is named. */
  wins: boolean;
}

export interface AssistantRecommendations {
  assistant: AssistantId;
  label: string;
  /** Its crawlers (robots.txt tokens) as the site's robots.txt treats them. */
  crawlers: { agent: string; allowed: boolean }[];
  /** What to do for this assistant: one line each, from the findings that concern it. */
  items: { finding: string; text: string }[];
}

/** Who does an action. */
type ActionOwner = 'business' | 'developer' | 'agency';
export type Level = 'high' | 'medium' | 'low';

export interface AuditAction {
  /** Stable within the document: the anchor the summary links to ("action-robots-blocks-gptbot"). */
  id: string;
  /** The finding it comes from (a key of content/audit-report.yaml), and the section that shows it (an id on the page). */
  finding: string;
  section: 'summary' | 'visibility' | 'said' | 'competitors' | 'keywords' | 'recommendations' | 'readiness';
  title: string;
  /** What to do. */
  what: string;
  /** Why: the finding, with its figures. */
  why: string;
  who: ActionOwner;
  effect: Level;
  effort: Level;
}

/** One of the site check's findings, as its chart and table show it. */
export interface ReadinessFinding {
  id: string;
  title: string;
  verdict: 'pass' | 'warn' | 'fail';
  points: number;
  maxPoints: number;
  detail: string;
}
