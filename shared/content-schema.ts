import { z } from 'zod';
import { ACTION_LEVELS, ACTION_OWNERS, AUDIT_FINDINGS, AUDIT_SENTENCE_FIGURES, type AuditFindingId } from './audit-findings';
import { placeholdersOf } from './copy-template';
import { DESCRIPTION_LENGTH, TITLE_MAX_LENGTH } from './search-snippet';

/**
 * The schema every file in content/ must pass at build time (scripts/lib/content.ts applies it).
 * Client code imports only the inferred types (`import type`), so zod never reaches the browser.
 */

const text = z.string().trim().min(1);

/** The words of a site check's result, wherever one is shown (the thank-you page, the public checker's result). */
const shortText = (max: number) => text.max(max, `must be at most ${max} characters`);
/**
 * A sentence the page fills in as it renders (shared/copy-template.ts): it holds each of `names`
 * as {name}, wherever the copywriter puts it, and no other brace, so that a page never shows one.
 */
const sentenceWith = (...names: string[]) =>
  text.superRefine((sentence, ctx) => {
    const found = placeholdersOf(sentence);
    const unknown = found.find((name) => !names.includes(name));
    const missing = names.find((name) => !found.includes(name));
    const takes = names.map((name) => `{${name}}`).join(', ');
    if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `unknown placeholder {${unknown}} (this sentence takes ${takes})` });
    else if (missing !== undefined) ctx.addIssue({ code: 'custom', message: `must hold {${missing}} (this sentence takes ${takes})` });
    else if (/[{}]/.test(sentence.replace(/\{[a-zA-Z]+\}/g, ''))) ctx.addIssue({ code: 'custom', message: 'has a brace that opens or closes no placeholder' });
  });
// YAML reads 2025-01-07 as a Date; a quoted one stays a string. Both become 'YYYY-MM-DD'.
const isoDate = z
  .union([z.date(), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')])
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a real date');

const siteCheckResultCopy = z.object({
  /** Followed by the site's host name. */
  title: text,
  pending: text,
  slow: text,
  scoreLabel: text,
  findingsTitle: text,
  notChecked: text,
  notCheckedNote: text,
  verdicts: z.object({ pass: text, warn: text, fail: text }),
  about: text,
  /** The business's name as its home page gives it, and where it was read ("from the title and the footer's copyright line"). */
  name: sentenceWith('name', 'from'),
  /** The page gives no name of its own that is not a search: followed by nothing. */
  noName: text,
});

const iconNames = [
  'search', 'bot', 'chart', 'target', 'message', 'shield', 'zap', 'users', 'file', 'trending',
  'check', 'clock', 'star', 'globe', 'link', 'layers', 'pound',
] as const;
const colorNames = ['blue', 'violet', 'teal', 'amber', 'rose'] as const;
const icon = z.enum(iconNames);
const color = z.enum(colorNames);

/** A page's meta description, which is also what a results page shows under its title. */
const description = text
  .min(DESCRIPTION_LENGTH.min, `must be at least ${DESCRIPTION_LENGTH.min} characters: a results page would show too little`)
  .max(DESCRIPTION_LENGTH.max, `must be at most ${DESCRIPTION_LENGTH.max} characters: a results page cuts the rest`);
/** A page's whole <title>, brand included, as a results page shows it. */
const pageTitle = text.max(TITLE_MAX_LENGTH, `must be at most ${TITLE_MAX_LENGTH} characters: a results page cuts the rest`);
const seo = z.object({
  title: pageTitle,
  description,
  keywords: z.array(text).min(1).max(12).default([]),
});
const statItem = z.object({ stat: shortText(20), label: shortText(120) });
/** The dark band that closes a page with the audit offer. */
const closingCta = z.object({ title: text, lead: text, button: text, note: text });

/**
 * Whether a testimonial or a case study happened. An illustrative one is invented to show the kind
 * of work the agency does: the page labels it, and it is never published as a review.
 */
const kind = z.enum(['real', 'illustrative']);

// A month is enough for most publications; YAML reads a full unquoted date as a Date.
const sourceDate = z
  .union([z.date(), z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/, 'must be a date YYYY-MM or YYYY-MM-DD')])
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .refine((value) => !Number.isNaN(Date.parse(value.length === 7 ? `${value}-01` : value)), 'must be a real date');

/** Where a published figure comes from: what a reader needs to find and check it. */
const statSource = z.object({
  publisher: text,
  title: text,
  date: sourceDate,
  url: z.url({ protocol: /^https?$/ }),
});
const iconCard = z.object({ icon, title: text, description: text });

export const siteSchema = z.object({
  brand: shortText(40),
  tagline: text,
  legalName: text,
  // What the Companies Act requires a company's website to show, with legalName.
  companyNumber: z.string().regex(/^(\d{8}|[A-Z]{2}\d{6})$/, 'must be a Companies House number: 8 digits, or 2 capitals and 6 digits'),
  registeredIn: text,
  registeredOffice: z.object({ streetAddress: text, locality: text, postalCode: text }),
  email: z.email(),
  phone: text,
  phoneE164: z.string().regex(/^\+\d{8,15}$/, 'must be +<digits>'),
  location: z.object({ footer: text, headquarters: text }),
  businessHours: text,
  responseTime: text,
  bookingUrl: z.url({ protocol: /^https?$/ }),
  websiteUrl: z.url({ protocol: /^https?$/ }),
  mailFrom: z.email(),
  mailTo: z.email(),
});

export const articleFrontMatterSchema = z.object({
  /** The headline on the page and in the article's structured data. */
  title: shortText(110),
  /**
   * The title a results page shows, when the headline and the brand after it would not fit
   * (the build says so); the page itself keeps the headline.
   */
  seoTitle: text.optional(),
  /** The blog card's text and the page's meta description. */
  excerpt: description,
  standfirst: shortText(300),
  category: shortText(40),
  published: isoDate,
  updated: isoDate,
  featured: z.boolean().default(false),
  cta: z.enum(['audit', 'booking']),
  related: z.array(z.string().regex(/^[a-z0-9-]+$/, 'must be an article slug')).min(2).max(3),
  keywords: z.array(text).min(1).max(10),
});

export const homeSchema = z.object({
  seo,
  hero: z.object({
    eyebrow: text,
    title: text,
    lead: text,
    promptsLabel: text,
    prompts: z.array(text).min(2).max(5),
    primaryCta: text,
    secondaryCta: text,
    stats: z.array(statItem.extend({ source: statSource.optional() })).length(4),
  }),
  aiShift: z.object({
    title: text,
    lead: text,
    stats: z.array(z.object({ icon, stat: shortText(20), description: text, source: statSource.optional() })).min(2).max(4),
    paragraphs: z.array(text).min(1),
  }),
  pillars: z.object({ title: text, lead: text, items: z.array(iconCard).length(4) }),
  benefits: z.object({ title: text, lead: text, items: z.array(iconCard).min(3).max(8) }),
  testimonial: z.object({ kind, quote: text, author: text, role: text, company: text }),
  faq: z.object({ title: text, lead: text }),
  pricing: z.object({
    title: text,
    lead: text,
    plans: z
      .array(
        z.object({
          name: text,
          price: text,
          cadence: text,
          description: text,
          features: z.array(text).min(1),
          highlighted: z.boolean().default(false),
          cta: text,
        }),
      )
      .min(1)
      .max(4),
  }),
  closingCta,
  productLaunch: z.object({ eyebrow: text, title: text, lead: text, bullets: z.array(text).min(1), button: text }),
  crawlerAccess: z.object({ title: text, lead: text, robotsSample: text, llmsSample: text, note: text }),
});

export const faqSchema = z.object({
  items: z.array(z.object({ question: text, answer: text })).length(8),
});

export const processStepsSchema = z.object({
  seo,
  intro: z.object({ eyebrow: text, title: text, lead: text }),
  steps: z
    .array(z.object({ icon, title: text, description: text, details: z.array(text).min(1), color, duration: text }))
    .length(5),
  results: z.object({ title: text, items: z.array(statItem).min(2).max(6) }),
  cta: z.object({ title: text, lead: text, button: text }),
});

export const caseStudiesSchema = z.object({
  seo,
  intro: z.object({ eyebrow: text, title: text, lead: text }),
  /** After the stories: a reader they convinced needs a next step. */
  closingCta,
  studies: z
    .array(
      z.object({
        id: z.string().regex(/^[a-z0-9-]+$/, 'must be kebab-case'),
        kind,
        client: text,
        contact: text,
        industry: text,
        location: text,
        icon,
        color,
        problem: z.object({ title: text, description: text, examples: z.array(text).min(1), summary: text }),
        solution: z.object({ title: text, steps: z.array(text).min(1) }),
        results: z.object({
          title: text,
          timeframe: text,
          description: text,
          examples: z.array(text).min(1),
          stats: z.array(statItem).min(1).max(4),
        }),
        testimonial: z.object({ kind, quote: text, author: text, company: text }),
        article: z.string().regex(/^[a-z0-9-]+$/),
      }),
    )
    .length(2),
});

export const pagesSchema = z.object({
  blog: z.object({ seo, title: text, lead: text, featuredLabel: text, latestTitle: text }),
  freeAudit: z.object({
    seo,
    title: text,
    lead: text,
    offer: z.array(text).min(1),
    cardTitle: text,
    cardLead: text,
    privacyNote: text,
    /**
     * Beside the submit button while the AI visibility probe is on: what the probe sends, and to
     * whom ({assistants}: "ChatGPT and Claude", the assistants whose keys are set).
     */
    probeNote: sentenceWith('assistants'),
  }),
  thankYou: z.object({
    seo,
    title: text,
    lead: text,
    nextStepsTitle: text,
    nextSteps: z.array(z.object({ title: text, description: text })).length(3),
    includesTitle: text,
    includes: z.array(text).length(5),
    button: text,
    /** The instant check of the prospect's website, shown when their request named one. */
    siteCheck: siteCheckResultCopy,
    /**
     * The request's AI visibility probe, below the site check while probes are on: what the
     * assistants said when asked about the first of the prospect's keywords.
     */
    probe: z.object({
      title: sentenceWith('keyword'),
      /** While it runs: the first line for everyone, then one for a page with JavaScript (the answers appear by themselves) or without (reload). */
      pending: text,
      pendingScript: text,
      pendingNoScript: text,
      /** The page has stopped asking the server: reload later. */
      slow: text,
      /** The first line once it is done, over all the assistants ({assistants}: "ChatGPT and Claude"). */
      summary: sentenceWith('named', 'answered', 'assistants'),
      /** Each assistant's count. */
      named: sentenceWith('named', 'answered'),
      /** An assistant that gave no answer and no reason. */
      noAnswers: text,
      /** Followed by the businesses an assistant named instead. */
      others: text,
      /** The example: the question put, and the start of the answer. */
      asked: text,
      answered: text,
      /** Followed by why an assistant's part ended early ("key rejected"). */
      /** Not run: followed by why, then the note. */
      skipped: text,
      skippedNote: text,
      /** What the answers were searched for: the name and where it was read, and the site; or the site alone when the home page gives no name. */
      lookedFor: sentenceWith('name', 'from', 'site'),
      lookedForSite: sentenceWith('site'),
      /** Under the results: what a handful of answers can tell. */
      caveat: text,
    }),
  }),
  /** The public AI-readiness check: one field, and its result with the invitation to the full audit. */
  aiReadinessCheck: z.object({
    seo,
    title: text,
    lead: text,
    /** What it looks at, a line each. */
    checks: z.array(text).min(3),
    formTitle: text,
    button: text,
    submitting: text,
    note: text,
    /** The result page's own head (noindex: never in a search engine's results). */
    resultSeo: seo,
    noResult: text,
    again: text,
    /** The result: headed by the host, its score, each finding; then the invitation. */
    result: siteCheckResultCopy,
    invitation: z.object({ title: text, body: text, button: text }),
  }),
  contact: z.object({
    seo,
    title: text,
    lead: text,
    formTitle: text,
    formLead: text,
    infoTitle: text,
    responsePromise: text,
    emergency: z.object({ title: text, body: text, button: text }),
    quickActionsTitle: text,
    about: z.object({ title: text, body: text }),
    success: text,
  }),
  notFound: z.object({ seo: seo.omit({ keywords: true }), message: text, link: text }),
  /**
   * The free audit's report (server/reports/audit/): the page's own words around the audit's
   * figures, and the page an address shows while its report is being written.
   */
  auditReport: z.object({
    title: sentenceWith('business'),
    /** The {business} of a request whose website gives no name. */
    unnamed: text,
    description,
    private: text,
    website: text,
    made: text,
    asked: text,
    preparedBy: text,
    askedEach: sentenceWith('count', 'assistants'),
    incomplete: sentenceWith('reason'),
    printHint: text,
    contents: text,
    sections: z.object({
      summary: text,
      visibility: text,
      said: text,
      competitors: text,
      keywords: text,
      recommendations: sentenceWith('assistants'),
      plan: text,
      readiness: text,
      about: text,
    }),
    summary: z.object({ visibility: text, readiness: text, notMeasured: text, topActions: text }),
    visibility: z.object({
      lead: sentenceWith('business'),
      chartTitle: sentenceWith('business'),
      caption: sentenceWith('business'),
      assistant: text,
      named: text,
      cited: text,
      position: text,
      score: text,
      model: text,
      /** "12 of 50 (between 8 and 22 of 50)": a count, and the range a sample of that size allows. */
      countWithRange: sentenceWith('count', 'of', 'low', 'high'),
      noAnswers: text,
      notNamed: text,
      notListed: text,
      answered: sentenceWith('model', 'count', 'of'),
      stopped: text,
      askedBetween: sentenceWith('from', 'to'),
      /** What the answers were searched for: the name and where it was read, and the site; or the site alone when the home page gives no name. */
      lookedFor: sentenceWith('name', 'from', 'site'),
      lookedForSite: sentenceWith('site'),
      /** Where a name corrected by the agency was read, as the prospect reads it. */
      givenName: text,
    }),
    /** What the assistants say about the business, checked against its site. */
    said: z.object({
      lead: sentenceWith('business', 'count', 'from'),
      leadNamed: sentenceWith('business', 'from'),
      notChecked: sentenceWith('business'),
      describes: text,
      noDescription: text,
      tone: text,
      toneCounts: sentenceWith('positive', 'neutral', 'mixed', 'negative', 'judged', 'answers'),
      notJudged: text,
      wrongCaption: sentenceWith('assistant'),
      fact: text,
      siteSays: text,
      assistantSays: sentenceWith('assistant'),
      noWrong: sentenceWith('answers'),
      siteSaysNothing: text,
      whose: sentenceWith('name'),
      kinds: z.object({ phone: text, email: text, postcode: text, website: text, closed: text, service: text, place: text, status: text, price: text }),
      compared: text,
      judgedBy: sentenceWith('model', 'most', 'dropped'),
      notJudgedAtAll: text,
    }),
    competitors: z.object({
      lead: sentenceWith('business'),
      shareTitle: text,
      shareLead: text,
      shareChartTitle: sentenceWith('business'),
      shareCaption: text,
      business: text,
      you: text,
      all: text,
      answers: text,
      citedTitle: text,
      citedLead: text,
      citedCaption: text,
      site: text,
      kind: text,
      citedAnswers: text,
      citedBy: text,
      noSites: text,
      kinds: z.object({ directory: text, reviews: text, press: text, forum: text, competitor: text, own: text, other: text }),
    }),
    keywords: z.object({
      lead: text,
      caption: text,
      keyword: text,
      answers: text,
      named: text,
      rivalsOnly: text,
      missing: text,
      rivals: text,
      none: text,
      winsTitle: text,
      wins: text,
      noWins: text,
      noKeywords: text,
    }),
    recommendations: z.object({ lead: text, crawlers: text, allowed: text, blocked: text, nothing: text }),
    plan: z.object({
      lead: text,
      what: text,
      why: text,
      who: text,
      effect: text,
      effort: text,
      see: text,
      owners: z.object({ business: text, developer: text, agency: text }),
      levels: z.object({ high: text, medium: text, low: text }),
      none: text,
    }),
    readiness: z.object({
      lead: text,
      chartTitle: text,
      caption: text,
      finding: text,
      result: text,
      points: text,
      detail: text,
      pointsOf: sentenceWith('count', 'of'),
      verdicts: z.object({ pass: text, warn: text, fail: text }),
      notChecked: text,
    }),
    about: z.object({ caveat: text, contact: text, booking: text }),
    pending: z.object({ title: text, body: text, help: text }),
  }),
  /**
   * A client's monthly monitoring (server/reports/monitor/): the trend's own words, the sentences
   * that say whether a change is real, and the page an address shows before the first run ends.
   */
  monitorReport: z.object({
    title: sentenceWith('business'),
    description,
    private: text,
    website: text,
    latest: text,
    runs: text,
    runsSince: sentenceWith('count', 'since'),
    asked: text,
    askedEach: sentenceWith('count', 'assistants'),
    preparedBy: text,
    printHint: text,
    contents: text,
    sections: z.object({ changes: text, visibility: text, share: text, competitors: text, questions: text, said: text, latest: text }),
    series: sentenceWith('since', 'earlier'),
    changes: z.object({
      lead: text,
      rise: sentenceWith('assistant', 'count', 'of', 'before', 'beforeOf'),
      fall: sentenceWith('assistant', 'count', 'of', 'before', 'beforeOf'),
      same: sentenceWith('assistant', 'count', 'of', 'before', 'beforeOf'),
      notCompared: sentenceWith('assistant'),
      compared: sentenceWith('questions', 'gained', 'lost'),
      noQuestionInBoth: sentenceWith('assistant'),
      firstRun: text,
    }),
    visibility: z.object({
      lead: sentenceWith('business'),
      chartTitle: sentenceWith('business'),
      caption: sentenceWith('business'),
      run: text,
      visibilityScore: text,
      readinessScore: text,
      namedOf: sentenceWith('count', 'of'),
      noAnswers: text,
      notMeasured: text,
      axis: text,
    }),
    /** What the assistants say about the client, run by run: wrong facts and tone, what was put right, what is still wrong or new. */
    said: z.object({
      lead: sentenceWith('business'),
      caption: text,
      run: text,
      wrong: text,
      tone: text,
      toneOf: sentenceWith('counts', 'judged'),
      tones: z.object({ positive: sentenceWith('count'), neutral: sentenceWith('count'), mixed: sentenceWith('count'), negative: sentenceWith('count') }),
      noTone: text,
      noneJudged: text,
      notChecked: text,
      assistant: text,
      fact: text,
      saidBefore: text,
      says: text,
      siteSays: text,
      putRightCaption: text,
      noneRight: text,
      stillCaption: text,
      noneStill: text,
      newCaption: text,
      noneNew: text,
      wrongCaption: text,
      noneWrong: text,
      firstRun: text,
      firstChecked: text,
      latestNotChecked: text,
    }),
    share: z.object({ lead: sentenceWith('business'), chartTitle: sentenceWith('business'), caption: text, business: text, you: text, noRun: text }),
    competitors: z.object({ lead: text, newCaption: text, goneCaption: text, business: text, answers: text, noneNew: text, noneGone: text, firstRun: text }),
    questions: z.object({
      lead: text,
      wonCaption: text,
      lostCaption: text,
      question: text,
      assistants: text,
      lostAssistants: text,
      noneWon: text,
      noneLost: text,
      firstRun: text,
    }),
    pending: z.object({ title: text, body: text, help: text }),
  }),
});

/** The words of the audit form a question of the visibility probe can hold (content/probe-prompts.yaml). */
const PROBE_PLACEHOLDERS = ['keyword', 'customer', 'product', 'description'] as const;

/**
 * One question template: a buyer's question with at least one {placeholder}, each one known. Short,
 * so that a question with its filled words stays a question, not a task.
 */
const probeTemplate = shortText(160).superRefine((template, ctx) => {
  const placeholders = [...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? '');
  const unknown = placeholders.filter((name) => !(PROBE_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `unknown placeholder {${unknown[0]}} (known: ${PROBE_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')})` });
  else if (placeholders.length === 0) ctx.addIssue({ code: 'custom', message: 'must hold at least one placeholder, e.g. {keyword}' });
  else if (/[{}]/.test(template.replace(/\{[a-z]+\}/g, ''))) ctx.addIssue({ code: 'custom', message: 'has a brace that opens or closes no placeholder' });
});

/**
 * A direct question about the business itself: {business} (its name, and its town where the site
 * gives one) once, and no other placeholder.
 */
const aboutTemplate = shortText(160).superRefine((template, ctx) => {
  const placeholders = [...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? '');
  if (placeholders.length !== 1 || placeholders[0] !== 'business') ctx.addIssue({ code: 'custom', message: 'must hold {business} once, and no other placeholder' });
  else if (/[{}]/.test(template.replace('{business}', ''))) ctx.addIssue({ code: 'custom', message: 'has a brace that opens or closes no placeholder' });
});

/** The most direct questions about the business one run may ask each assistant (AUDIT_FACT_PROMPTS). */
export const MAX_ABOUT_TEMPLATES = 10;

export const probePromptsSchema = z.object({
  templates: z
    .array(probeTemplate)
    .min(3)
    .max(60)
    .refine((templates) => new Set(templates).size === templates.length, 'must not repeat a template'),
  aboutTemplates: z
    .array(aboutTemplate)
    .min(3)
    .max(MAX_ABOUT_TEMPLATES)
    .refine((templates) => new Set(templates).size === templates.length, 'must not repeat a template'),
});

/** A word or phrase as the probe compares it: letters, digits, spaces and a few joining marks, in lower case. */
const probeWord = shortText(60).regex(/^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N} '&.-]*$/u, 'must be lower case: letters, digits, spaces, and \' & . - inside');
const distinct = <T>(list: T[], key: (item: T) => string = String) => new Set(list.map(key)).size === list.length;

/** What a home page says about itself, never taken for the business's name (content/probe-page-words.yaml). */
export const probePageWordsSchema = z.object({
  generic: z.array(probeWord).min(1).max(500).refine((words) => distinct(words), 'must not repeat a word'),
  leading: z.array(probeWord).max(50).refine((words) => distinct(words), 'must not repeat a word'),
  describing: z.array(probeWord).max(200).refine((words) => distinct(words), 'must not repeat a word'),
});

/** A place as the gazetteer writes it: letters of any case, spaces, and ' . - & inside. */
const placeName = shortText(60).regex(/^[\p{L}][\p{L}\p{N} '.&-]*$/u, "must be a place's name: letters, spaces, and ' . - & inside");

/** Words and places a buyer searches with, which never make a business's name on their own (content/search-words.yaml). */
export const searchWordsSchema = z.object({
  trades: z.array(probeWord).min(1).max(2000).refine((words) => distinct(words), 'must not repeat a word'),
  descriptors: z.array(probeWord).min(1).max(500).refine((words) => distinct(words), 'must not repeat a word'),
  regions: z.array(placeName).max(200).refine((words) => distinct(words), 'must not repeat a place'),
  notPlaces: z.array(placeName).max(200).refine((words) => distinct(words), 'must not repeat a place'),
});

/** A domain as the probe compares it: lower case, at least two labels, no "www.". */
const platformHost = shortText(100).regex(/^(?!www\.)(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/, 'must be a domain in lower case, without "www." (e.g. facebook.com)');

/** Platforms whose pages small firms give as their website (content/probe-platforms.yaml). */
export const probePlatformsSchema = z.object({
  platforms: z
    .array(z.object({ name: shortText(40), hosts: z.array(platformHost).min(1).max(20), pagePath: z.number().int().min(1).max(5) }))
    .min(1)
    .max(200)
    .refine((platforms) => distinct(platforms.flatMap((platform) => platform.hosts)), 'must not give a host to two platforms'),
});

/**
 * A sentence of the full audit's report, which the code fills with measured figures: it may hold
 * {business} and any of `figures`, wherever the agency puts them, and no other brace.
 */
const reportSentence = (figures: readonly string[]) =>
  text.superRefine((sentence, ctx) => {
    const takes = ['business', ...figures];
    const unknown = placeholdersOf(sentence).find((name) => !takes.includes(name));
    if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `unknown placeholder {${unknown}} (this sentence takes ${takes.map((name) => `{${name}}`).join(', ')})` });
    else if (/[{}]/.test(sentence.replace(/\{[a-zA-Z]+\}/g, ''))) ctx.addIssue({ code: 'custom', message: 'has a brace that opens or closes no placeholder' });
  });

/** A score's sentences by band: each from a score (0 to 100) up to the next band's, the first from 0. */
const scoreBands = (figures: readonly string[]) =>
  z
    .array(z.strictObject({ from: z.number().int().min(0).max(100), sentence: reportSentence(figures) }))
    .min(1)
    .max(10)
    .superRefine((bands, ctx) => {
      if (bands[0]?.from !== 0) ctx.addIssue({ code: 'custom', message: 'the first band must be from 0' });
      else if (bands.some((band, index) => index > 0 && band.from <= (bands[index - 1]?.from ?? 0))) ctx.addIssue({ code: 'custom', message: 'each band must start above the one before' });
    });

const actionWords = (figures: readonly string[]) =>
  z.strictObject({
    title: reportSentence(figures).pipe(z.string().max(90, 'must be at most 90 characters')),
    what: reportSentence(figures),
    why: reportSentence(figures),
    who: z.enum(ACTION_OWNERS),
    effect: z.enum(ACTION_LEVELS),
    effort: z.enum(ACTION_LEVELS),
  });

/** Each finding's words: exactly the parts the report shows of it (shared/audit-findings.ts). */
const findingWords = z.strictObject(
  Object.fromEntries(
    Object.entries(AUDIT_FINDINGS).map(([id, finding]) => [
      id,
      z.strictObject({
        ...('recommendation' in finding ? { recommendation: reportSentence(finding.recommendation) } : {}),
        ...('action' in finding ? { action: actionWords(finding.action) } : {}),
      }),
    ]),
  ),
);

const figures = AUDIT_SENTENCE_FIGURES;

/**
 * The words of the full audit's report (content/audit-report.yaml): the agency's, keyed by
 * finding; the code picks and orders them and fills in the measured figures. Built from the
 * findings table, so zod cannot infer its type: AuditReportContent states it, and the generated
 * module is checked against that type by the typecheck.
 */
export const auditReportSchema = z.strictObject({
  unnamedBusiness: shortText(60),
  scores: z.strictObject({
    visibility: z.strictObject({ none: reportSentence(figures.visibilityNone), fewAnswers: reportSentence(figures.visibilityFewAnswers), bands: scoreBands(figures.visibilityBand) }),
    readiness: z.strictObject({ notChecked: reportSentence(figures.readinessNotChecked), bands: scoreBands(figures.readinessBand) }),
  }),
  factTopics: z.strictObject({ phone: shortText(60), email: shortText(60), postcode: shortText(60), website: shortText(60), closed: shortText(60), service: shortText(60), place: shortText(60), status: shortText(60), price: shortText(60) }),
  incomplete: z.strictObject({ noAnswers: reportSentence(figures.incompleteNoAnswers), partial: reportSentence(figures.incompletePartial), fewAnswers: reportSentence(figures.incompleteFewAnswers) }),
  findings: findingWords,
}) as unknown as z.ZodType<AuditReportContent>;

type AuditLevel = (typeof ACTION_LEVELS)[number];
export interface AuditActionWords {
  title: string;
  what: string;
  why: string;
  who: (typeof ACTION_OWNERS)[number];
  effect: AuditLevel;
  effort: AuditLevel;
}
type FindingTable = typeof AUDIT_FINDINGS;
/** Per finding, the parts its entry in the findings table declares, and no other. */
type AuditFindingWords = {
  [Id in AuditFindingId]: (FindingTable[Id] extends { recommendation: readonly string[] } ? { recommendation: string } : unknown) &
    (FindingTable[Id] extends { action: readonly string[] } ? { action: AuditActionWords } : unknown);
};
interface ScoreBand {
  from: number;
  sentence: string;
}
export interface AuditReportContent {
  /** What a sentence calls a business whose name and site are both unknown. */
  unnamedBusiness: string;
  scores: {
    visibility: { none: string; fewAnswers: string; bands: ScoreBand[] };
    readiness: { notChecked: string; bands: ScoreBand[] };
  };
  /** What a wrong fact or claim is about, as a sentence names it. */
  factTopics: Record<'phone' | 'email' | 'postcode' | 'website' | 'closed' | 'service' | 'place' | 'status' | 'price', string>;
  incomplete: { noAnswers: string; partial: string; fewAnswers: string };
  findings: AuditFindingWords;
}

/** A robots.txt product token, as server/ledger/ai-sources.json lists it (the build checks that it does). */
const crawlerToken = shortText(60).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be a robots.txt product token (letters, digits, "-", "_" and ".")');
const crawlerTokens = z.array(crawlerToken).min(1).max(10).refine((tokens) => distinct(tokens), 'must not repeat a token');
const sourceDomains = z.array(platformHost).max(300).refine((domains) => distinct(domains), 'must not repeat a domain');

/**
 * What the full audit's report says about the sites the assistants cite and the crawlers they
 * send (content/audit-sources.yaml): each assistant's robots.txt tokens, and the domains of
 * directories, review sites, the press and forums.
 */
export const auditSourcesSchema = z.strictObject({
  crawlers: z.strictObject({ chatgpt: crawlerTokens, claude: crawlerTokens, gemini: crawlerTokens, perplexity: crawlerTokens }),
  kinds: z
    .strictObject({ directory: sourceDomains, reviews: sourceDomains, press: sourceDomains, forum: sourceDomains })
    .refine((kinds) => distinct(Object.values(kinds).flat()), 'must not give a domain two kinds'),
});

export const legalFrontMatterSchema = z.object({
  title: shortText(70),
  description,
  updated: isoDate,
});

export type SiteContent = z.infer<typeof siteSchema>;
/**
 * The company's registration, which only the footer, the contact and legal pages and the
 * structured data show: generated into its own module, so that it is not in every page's script.
 */
export type CompanyRegistration = Pick<SiteContent, 'legalName' | 'companyNumber' | 'registeredIn' | 'registeredOffice'>;
/** The site constants every page's script holds. */
export type SiteConstants = Omit<SiteContent, 'companyNumber' | 'registeredIn' | 'registeredOffice'>;
type ArticleFrontMatter = z.infer<typeof articleFrontMatterSchema>;
export type HomeContent = z.infer<typeof homeSchema>;
export type FaqContent = z.infer<typeof faqSchema>;
export type ProcessStepsContent = z.infer<typeof processStepsSchema>;
export type CaseStudiesContent = z.infer<typeof caseStudiesSchema>;
export type PagesContent = z.infer<typeof pagesSchema>;
export type ProbePromptsContent = z.infer<typeof probePromptsSchema>;
export type ProbePageWordsContent = z.infer<typeof probePageWordsSchema>;
export type ProbePlatformsContent = z.infer<typeof probePlatformsSchema>;
export type SearchWordsContent = z.infer<typeof searchWordsSchema>;
export type ProbePlaceholder = (typeof PROBE_PLACEHOLDERS)[number];
export type AuditSourcesContent = z.infer<typeof auditSourcesSchema>;
export type IconName = (typeof iconNames)[number];
export type StatSource = z.infer<typeof statSource>;

/** An article as the blog index, related reading and SEO files see it: no body. */
export interface ArticleSummary extends ArticleFrontMatter {
  slug: string;
  path: string;
  readMinutes: number;
  wordCount: number;
  /** It tells the story of an illustrative case study (case-studies.yaml links it): labelled so. */
  illustrative: boolean;
}

/**
 * A piece of an article body: prose as HTML made at build time, or a block a component renders.
 * `Prose` is `null` in the module a first visit loads: the prose is on screen in the server's
 * HTML, and the page takes it over instead of downloading it again (client/routes.tsx).
 */
export type ArticleSegment<Prose extends string | null = string> =
  | { kind: 'html'; html: Prose }
  | { kind: 'copy'; id: string; text: string }
  | { kind: 'checklist'; items: string[] }
  | { kind: 'faq'; items: { question: string; answerHtml: string; answerText: string }[] }
  | { kind: 'stats'; items: { stat: string; label: string }[] };

export interface ArticleBody<Prose extends string | null = string> {
  segments: ArticleSegment<Prose>[];
}

/** What an article page renders: the article, the summaries of its related reading, its body. */
export interface ArticlePageData<Prose extends string | null = string> {
  summary: ArticleSummary;
  related: ArticleSummary[];
  body: ArticleBody<Prose>;
}

export interface LegalPage {
  slug: string;
  title: string;
  description: string;
  updated: string;
  html: string;
}
