import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';
import { CSRF_TOKEN_PATH, FORM_STARTED_FIELD, HONEYPOT_FIELD, type FormName, type FormState, type FormTokens } from '../../shared/forms/form-contract';
import { auditFields } from '../../shared/forms/audit-form';
import { contactFields } from '../../shared/forms/contact-form';
import { readinessFields } from '../../shared/forms/readiness-form';
import { validateForm, type FieldSpec, type FormValues } from '../../shared/forms/form-schema';
import { routesPaths, site } from '../../shared/site';
import { AUDIT_WEBSITE_PARAM, readinessResult, SITE_CHECK_PARAM, thankYouWithCheck } from '../../shared/site-check';
import type { Config } from '../config';
import { retryWhileLocked } from '../db/database';
import { isCsrfError, postedToken, type CsrfProtection } from '../http/csrf';
import { CrossSiteRequestError, rejectCrossSite } from '../http/cross-site';
import type { FillTimer, PostedNote } from '../http/fill-time';
import { RateLimitError } from '../http/rate-limit';
import type { SitePages } from '../pages/site-pages';
import { clientAddress } from '../http/address-bound';
import { newCheckToken, tokenHash, type SiteCheckStore } from '../site-check/check-store';
import { REUSE_WITHIN_MS } from '../site-check/check-worker';
import type { ProbeStore } from '../visibility-probe/probe-store';
import { addressShareUsed, skippedReport } from '../visibility-probe/probe-report';
import { reportWithoutFacts } from '../site-check/check-report';
import type { LeadKind, LeadStore } from './lead-store';
import { composeNotification } from './notification-mail';
import type { StartBudget } from './start-budget';
import { runCalls, runShape } from '../runs/run-budget';

/** Leads one e-mail address may send in 24 hours before more are held in quarantine. */
export const LEADS_PER_ADDRESS_PER_DAY = 3;

/**
 * Site checks one client address may start in an hour through the audit form: more than a
 * business asking for its own audit needs, few enough that the form is no way to send a site
 * traffic in bulk.
 */
export const CHECKS_PER_ADDRESS_PER_HOUR = 5;

/**
 * Visibility probes one client address may start in 24 hours through the audit form: as many as
 * a fifth of PROBE_DAILY_CALLS pays for, one at least. A lead costs its probe (PROBE_PROMPTS calls
 * to each configured assistant at most) and, with AUDIT_AUTO=1, the full audit run its probe
 * queues (runCalls: its questions, its direct questions and the judge's readings): one address's
 * allowance counts both. A script sending requests with made-up e-mail addresses could otherwise spend the day's calls in a few minutes,
 * and every real lead after it would go without its probe.
 */
export function probesPerAddressPerDay(config: Pick<Config, 'judge'> & { probe: Pick<Config['probe'], 'dailyCalls' | 'promptsPerAssistant' | 'assistants'>; audit: Pick<Config['audit'], 'auto' | 'promptsPerAssistant' | 'factPrompts'> }): number {
  const assistants = Math.max(1, config.probe.assistants.length);
  const fullRun = config.audit.auto ? runCalls(config.audit.promptsPerAssistant, runShape(config)) : 0;
  const callsPerLead = config.probe.promptsPerAssistant * assistants + fullRun;
  return Math.max(1, Math.floor(config.probe.dailyCalls / 5 / callsPerLead));
}

/** The one key the public check's budget for all visitors together is counted under. */
const ALL_VISITORS = 'all visitors';

/** Large enough for every field at its longest, small enough that a flood costs little. */
const FORM_BODY_LIMIT = '100kb';

/**
 * The requests for what is made for one visitor (a form page, its token, a post, a check's
 * result) that one client address may make: 20 at once, then 5 a second, up to 100 more waiting
 * their turn for up to 30 seconds (then 429; past 100 waiting, 429 at once). Far more than people
 * at one address filling in a form need; a client that floods a form page gets about 5 renders a
 * second, a few milliseconds of CPU, whatever it holds open.
 */
export const FORM_REQUESTS_PER_ADDRESS = { burst: 20, perSecond: 5, maxWaitMs: 30_000, maxWaiting: 100 };

/** What a valid post that is not held needs to be accepted: store it and answer, or refuse it. */
interface Submission {
  req: Request;
  res: Response;
  form: FormDefinition;
  values: FormValues;
  now: Date;
  /** Keeps the post in quarantine, answered like an accepted one. */
  hold: (reason: string) => Promise<void>;
  /** Gives the form back (or tells our script) why, with the status. */
  refuse: (status: number, message: string) => Promise<void>;
}

interface FormDefinition {
  name: FormName;
  path: string;
  fields: readonly FieldSpec[];
  /** The field that names a website to check: the answer links to that check (a held post's, to a decoy). */
  websiteField?: string;
  /** Where the answer sends the visitor (Post/Redirect/Get): the check's page when there is one. */
  answer: (checkToken: string | null) => string;
  /** Whether our script is told where to go, or stays on the page. */
  scriptFollows: boolean;
  accept: (submission: Submission) => Promise<void> | void;
}

export interface FormRoutesDependencies {
  config: Config;
  store: LeadStore;
  clock: () => Date;
  csrf: CsrfProtection;
  fillTime: FillTimer;
  minFillMs: number;
  rateLimit: RequestHandler[];
  /** Holds back a client address's requests past FORM_REQUESTS_PER_ADDRESS (server/http/address-bound.ts). */
  addressBound: RequestHandler;
  /** Called after a lead is stored; sends its mail without making the visitor wait. */
  onStored: () => void;
  /**
   * The instant check of an audit request's website: queued in the request's transaction (the
   * request never waits for it), its worker nudged after; the notification waits `mailWaitMs`
   * for its findings. `budget` counts the checks each client address starts in an hour; with the
   * queue full, or past it, the check is recorded as skipped and the lead goes on as ever.
   */
  siteChecks: { store: SiteCheckStore; mailWaitMs: number; onQueued: () => void; budget: StartBudget };
  /**
   * The public AI-readiness check's budgets: checks one client address may start in an hour, and
   * all visitors together (one key); a check answered from a recent result costs neither.
   */
  publicChecks: { perAddress: StartBudget; perHour: StartBudget };
  /**
   * The AI visibility probe of each audit request, queued in the request's transaction while an
   * assistant is configured (`on`), its worker nudged after; the notification says whether it runs.
   * `assistants`: their names ("ChatGPT"), which the audit form names beside its button. `budget`
   * counts the probes each client address starts in 24 hours (probesPerAddressPerDay); past it the
   * probe is recorded as skipped, with why, and the lead goes on as ever.
   */
  probes: { store: ProbeStore; on: boolean; assistants: readonly string[]; onQueued: () => void; budget: StartBudget };
  /** Renders the page at `path` for this visitor, with its form state, and sends it. */
  sendPage: SitePages['sendPerVisitor'];
}

class UnsupportedContentTypeError extends Error {
  readonly status = 415;
}

const messages = {
  invalid: 'Please check the highlighted fields and try again.',
  csrf: 'Your session expired before the form was sent. Your answers are still here: please send the form again.',
  crossSite: 'This form can only be sent from our own website. Please reload the page and try again.',
  rateLimit: 'You have sent several requests in a short time. Please wait a few minutes and try again.',
  tooLarge: 'That was more text than the form can take. Please shorten your answers and try again.',
  unreadable: 'We could not read the form. Please reload the page and try again.',
  unavailable: `We could not save your request just now. Please try again in a minute, or e-mail us at ${site.email}.`,
  checksFromAddress: (perHour: number, minutes: number) =>
    `You have checked ${perHour} websites in the last hour, as many as one visitor may. Please come back in about ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  checkerBusy: (minutes: number) => `The checker is busy just now. Please come back in about ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

/** A fetch from our own script asks for JSON; a browser's plain form post asks for HTML. */
function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

/** The parsed form body; empty when the post was refused before its body was read. */
function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/** Only the form's own fields, as strings, to put back into the form after a refusal. */
function keptValues(fields: readonly FieldSpec[], source: Record<string, unknown>): FormValues {
  return Object.fromEntries(
    fields.map((field) => {
      const value = Object.prototype.hasOwnProperty.call(source, field.name) ? source[field.name] : undefined;
      return [field.name, typeof value === 'string' ? value : ''];
    }),
  );
}

/** Each value cut to its field's bound, so that a held flood costs little room. */
function boundedValues(fields: readonly FieldSpec[], values: FormValues): FormValues {
  return Object.fromEntries(fields.map((field) => [field.name, (values[field.name] ?? '').slice(0, field.maxLength)]));
}

function refusalFor(error: unknown): { status: number; message: string; log: 'info' | 'warn' | 'error' } {
  if (error instanceof RateLimitError) return { status: 429, message: messages.rateLimit, log: 'warn' };
  if (error instanceof CrossSiteRequestError) return { status: 403, message: messages.crossSite, log: 'warn' };
  if (isCsrfError(error)) return { status: 403, message: messages.csrf, log: 'warn' };
  if (error instanceof UnsupportedContentTypeError) return { status: 415, message: messages.unreadable, log: 'info' };
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large' || type === 'parameters.too.many') return { status: 413, message: messages.tooLarge, log: 'warn' };
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, message: messages.unreadable, log: 'info' };
  return { status: 503, message: messages.unavailable, log: 'error' };
}

/**
 * The form pages: GET renders the page with the visitor's token and fill-time note; POST stores a
 * lead or queues a public check (or gives the form back with its errors); GET /csrf-token gives a
 * token to a form reached by client-side navigation (the page it came from had none); GET
 * /ai-readiness-check/result shows a public check's result.
 */
export function formRoutes(deps: FormRoutesDependencies): Router {
  const { config, store, clock, csrf } = deps;
  // Exact paths, like the page routes: /Free-Audit and /free-audit/ are not the form.
  const router = Router({ caseSensitive: true, strict: true });

  /** A form's tokens for this visitor: the CSRF token, and the fill-time note bound to it. */
  const visitorTokens = (req: Request, earlier?: PostedNote): FormTokens => {
    const csrfToken = req.csrfToken();
    return { csrfToken, formStarted: deps.fillTime.issue(csrfToken, earlier) };
  };

  /**
   * The audit form says what the visibility probe sends, and to which assistants, while it is on:
   * on the page, on the page given back, and to a form reached by client-side navigation, which
   * learns it with its token.
   */
  const probeNote = (form: FormName): Pick<FormState, 'probeAssistants'> =>
    form === 'audit' && deps.probes.assistants.length > 0 ? { probeAssistants: [...deps.probes.assistants] } : {};

  router.get(CSRF_TOKEN_PATH, deps.addressBound, csrf.cookies, csrf.protect, (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json({ ...visitorTokens(req), ...probeNote('audit') });
  });

  const requireFormBody: RequestHandler = (req, _res, next) =>
    next(req.is(['application/x-www-form-urlencoded', 'application/json']) ? undefined : new UnsupportedContentTypeError('unsupported content type'));

  // extended: false parses with node:querystring: flat keys only, no nested objects, and a
  // repeated field becomes an array, which validation refuses.
  const parseBody = [
    express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 40 }),
    express.json({ limit: FORM_BODY_LIMIT, strict: true }),
  ];

  const checks = deps.siteChecks;
  const probes = deps.probes;

  /** Logged when a visitor's write meets another program's lock on the database: it is tried again for a while. */
  const waitingForDatabase = (req: Request, form: FormName) => () =>
    req.log.warn({ form }, "Another program holds the database's lock: the visitor's post is tried again for a few seconds");

  /**
   * An audit request or a contact message: stored with its notification, and its website's check
   * and its visibility probe queued, each within its budget (else recorded as skipped, with why).
   */
  const acceptLead =
    (kind: LeadKind) =>
    async ({ req, res, form, values, now, hold }: Submission) => {
      // One address may not fill the agency's inbox: past a few leads a day, more are held.
      if (store.countLeadsFrom(values.email ?? '', new Date(now.getTime() - 86_400_000)) >= LEADS_PER_ADDRESS_PER_DAY) {
        await hold(`more than ${LEADS_PER_ADDRESS_PER_DAY} requests from this address in 24 hours`);
        return;
      }
      const address = clientAddress(req);
      const website = kind === 'audit' ? (values.website_url ?? '') : '';
      const checkToken = website ? newCheckToken() : null;
      // The queue first: a check it has no room for costs the address none of its budget.
      const checkSkip = !checkToken
        ? null
        : checks.store.queueFull()
          ? 'too many site checks are waiting to run just now'
          : !checks.budget.take(address)
            ? `more than ${checks.budget.limit} site checks were asked for from one address within an hour`
            : null;
      const checkTaken = checkToken !== null && checkSkip === null;
      const probing = kind === 'audit' && probes.on;
      // Without a website the probe has nothing to look for in the answers: it asks nothing when
      // it runs, so it costs the address none of its budget.
      const probeTaken = probing && website !== '' && probes.budget.take(address);
      const probeSkip = probing && website !== '' && !probeTaken ? addressShareUsed(probes.budget.limit) : null;
      const skippedCheck = checkToken && checkSkip ? reportWithoutFacts(website, 'skipped', checkSkip, now) : null;
      const skippedProbe = probeSkip ? skippedReport({ name: null, website }, probeSkip, now) : null;
      let saved: { id: number; mailId: number };
      try {
        saved = await retryWhileLocked(
          () =>
            store.save(
              kind,
              values,
              now,
              (id) =>
                composeNotification({
                  kind,
                  id,
                  fields: form.fields,
                  values,
                  receivedAt: now,
                  from: config.mailFrom,
                  to: config.mailTo,
                  siteUrl: config.siteUrl,
                  brand: site.brand,
                  ...(checkToken ? { siteCheck: skippedCheck ?? ('pending' as const) } : {}),
                  ...(kind === 'audit' ? { probe: !probing ? ('not configured' as const) : (skippedProbe ?? ('pending' as const)) } : {}),
                }),
              {
                ...(checkToken && !skippedCheck ? { mailDueAt: new Date(now.getTime() + checks.mailWaitMs) } : {}),
                withLead: (id) => {
                  if (checkToken && skippedCheck) checks.store.recordSkipped(id, website, checkToken, skippedCheck, now);
                  else if (checkToken) checks.store.enqueue(id, website, checkToken, now);
                  if (skippedProbe) probes.store.recordSkipped(id, skippedProbe, now);
                  else if (probing) probes.store.enqueue(id, now);
                },
              },
            ),
          waitingForDatabase(req, form.name),
        );
      } catch (error) {
        // Not stored: the check and the probe it took from the address's budgets will never run.
        if (checkTaken) checks.budget.giveBack(address);
        if (probeTaken) probes.budget.giveBack(address);
        throw error;
      }
      req.log.info(
        { form: kind, id: saved.id, mailId: saved.mailId, siteCheck: !checkToken ? false : (checkSkip ?? true), ...(probing ? { probe: probeSkip ?? true } : {}) },
        'Lead stored',
      );
      respondSuccess(req, res, form, checkToken);
      setImmediate(deps.onStored);
      if (checkToken && !skippedCheck) setImmediate(checks.onQueued);
      if (probing && !skippedProbe) setImmediate(probes.onQueued);
    };

  /**
   * The public AI-readiness check: queued (no lead, no mail), its result page given at once. A
   * site checked in the last hour is answered from that result at once, which fetches nothing,
   * waits in no queue and costs no budget; otherwise one client address, and all visitors
   * together, may start only so many an hour, and the queue only holds so many (429 with
   * Retry-After, and a sentence that says when to come back).
   */
  const acceptCheck = async ({ req, res, form, values, now, refuse }: Submission) => {
    const website = values.website ?? '';
    const address = clientAddress(req);
    const { perAddress, perHour } = deps.publicChecks;
    const checkToken = newCheckToken();
    const onLocked = waitingForDatabase(req, form.name);
    const reusedId = await retryWhileLocked(() => checks.store.recordReused(website, checkToken, now, new Date(now.getTime() - REUSE_WITHIN_MS)), onLocked);
    if (reusedId !== null) {
      req.log.info({ form: form.name, checkId: reusedId }, 'AI-readiness check answered from a recent result');
      respondSuccess(req, res, form, checkToken);
      return;
    }
    const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));
    const refusal = !perAddress.hasRoom(address)
      ? { reason: 'one address', seconds: perAddress.secondsUntilRoom(address), message: (wait: number) => messages.checksFromAddress(perAddress.limit, wait) }
      : !perHour.hasRoom(ALL_VISITORS)
        ? { reason: 'all visitors', seconds: perHour.secondsUntilRoom(ALL_VISITORS), message: messages.checkerBusy }
        : checks.store.queueFull()
          ? { reason: 'the queue full', seconds: 60, message: messages.checkerBusy }
          : null;
    if (refusal) {
      req.log.warn({ form: form.name, over: refusal.reason }, 'AI-readiness check refused: over its budget');
      res.setHeader('Retry-After', String(refusal.seconds));
      await refuse(429, refusal.message(minutes(refusal.seconds)));
      return;
    }
    perAddress.take(address);
    perHour.take(ALL_VISITORS);
    let id: number;
    try {
      id = await retryWhileLocked(() => checks.store.enqueue(null, website, checkToken, now), onLocked);
    } catch (error) {
      // Not queued: it fetches nothing, so it costs nothing.
      perAddress.giveBack(address);
      perHour.giveBack(ALL_VISITORS);
      throw error;
    }
    req.log.info({ form: form.name, checkId: id }, 'AI-readiness check queued');
    respondSuccess(req, res, form, checkToken);
    setImmediate(checks.onQueued);
  };

  const forms: FormDefinition[] = [
    {
      name: 'audit',
      path: routesPaths.freeAudit,
      fields: auditFields,
      websiteField: 'website_url',
      answer: (token) => (token ? thankYouWithCheck(token) : routesPaths.thankYou),
      scriptFollows: true,
      accept: acceptLead('audit'),
    },
    { name: 'contact', path: routesPaths.contact, fields: contactFields, answer: () => `${routesPaths.contact}?sent=1`, scriptFollows: false, accept: acceptLead('contact') },
    {
      name: 'readiness',
      path: routesPaths.aiReadinessCheck,
      fields: readinessFields,
      websiteField: 'website',
      answer: (token) => (token ? readinessResult(token) : routesPaths.aiReadinessCheck),
      scriptFollows: true,
      accept: acceptCheck,
    },
  ];

  for (const form of forms) {
    /**
     * The form given back, or our script told why, with the tokens the retry must send: a refusal
     * for a lapsed session has just given the visitor a new cookie, which their old token does
     * not match.
     */
    const respondRefused = async (req: Request, res: Response, status: number, message: string, extra: Partial<FormState> = {}) => {
      // Refused before the CSRF step (rate limit, cross-site, size, content type): issue a token now.
      if (typeof req.csrfToken !== 'function') {
        await new Promise<void>((resolve, reject) => csrf.cookies(req, res, (error?: unknown) => (error ? reject(error) : csrf.issue(req, res, (issueError?: unknown) => (issueError ? reject(issueError) : resolve())))));
      }
      // The retry's note keeps the time the form was first shown: the answers are still in it, and
      // a person who sends them again at once is not a bot in a hurry.
      const body = bodyOf(req);
      const tokens = visitorTokens(req, { note: body[FORM_STARTED_FIELD], csrfToken: postedToken(req) });
      if (wantsJson(req)) {
        res.setHeader('Cache-Control', 'private, no-store');
        res.status(status).json({ ok: false, message, ...(extra.errors ? { errors: extra.errors } : {}), tokens });
        return;
      }
      const state: FormState = { ...tokens, form: form.name, message, values: keptValues(form.fields, body), ...probeNote(form.name), ...extra };
      await deps.sendPage(req, res, form.path, state, status);
    };

    const showForm: RequestHandler = async (req, res, next) => {
      try {
        await deps.sendPage(req, res, form.path, { ...visitorTokens(req), ...shownWith(form, req), ...probeNote(form.name) }, 200);
      } catch (error) {
        next(error);
      }
    };

    const submit: RequestHandler = async (req, res, next) => {
      try {
        const body = bodyOf(req);
        const now = clock();
        // A bot fills every field (a person never sees the honeypot), posts the moment it has the
        // page, or posts one form load again and again. Such a post is held in quarantine, not
        // mailed: a person whose browser filled the trap or who pasted fast loses nothing, and
        // ops can find it. The answer is the same as for a lead, so a bot learns nothing.
        const honeypot = body[HONEYPOT_FIELD];
        const suspicion =
          (typeof honeypot === 'string' ? honeypot.trim() !== '' : honeypot !== undefined) ? 'honeypot filled'
          : deps.fillTime.suspicion(body[FORM_STARTED_FIELD], postedToken(req), deps.minFillMs);
        if (suspicion) {
          await holdAndThank(req, res, suspicion, keptValues(form.fields, body), now);
          return;
        }
        const result = validateForm(form.fields, body);
        if (!result.ok) {
          req.log.info({ form: form.name, fields: Object.keys(result.errors) }, 'Form refused: invalid fields');
          await respondRefused(req, res, 400, messages.invalid, { errors: result.errors });
          return;
        }
        await form.accept({
          req,
          res,
          form,
          values: result.values,
          now,
          hold: (reason) => holdAndThank(req, res, reason, result.values, now),
          refuse: (status, message) => respondRefused(req, res, status, message, { values: result.values }),
        });
      } catch (error) {
        next(error);
      }
    };

    const holdAndThank = async (req: Request, res: Response, reason: string, values: FormValues, now: Date) => {
      // The same answer as an accepted post's, a check link included, which the result page
      // answers as a check still running: a bot learns nothing from it, and a held submission's
      // website is never fetched.
      const decoyToken = form.websiteField && values[form.websiteField] ? newCheckToken() : null;
      const id = await retryWhileLocked(
        () => store.hold(form.name, reason, boundedValues(form.fields, values), now, decoyToken ? tokenHash(decoyToken) : null),
        waitingForDatabase(req, form.name),
      );
      req.log.warn({ form: form.name, quarantineId: id, reason }, 'Submission held in quarantine');
      respondSuccess(req, res, form, decoyToken);
    };

    const onError: ErrorRequestHandler = (error: unknown, req, res, next) => {
      if (res.headersSent) return next(error);
      const refusal = refusalFor(error);
      if (refusal.log === 'error') req.log.error({ err: error, form: form.name }, 'Form submission failed: the lead could not be stored');
      else req.log[refusal.log]({ form: form.name, status: refusal.status, reason: (error as Error).message }, 'Form refused');
      respondRefused(req, res, refusal.status, refusal.message).catch(next);
    };

    // The page is rendered for each visitor, and so is a refused post's answer without JavaScript:
    // both wait their turn behind the address's earlier requests.
    router.get(form.path, deps.addressBound, csrf.cookies, csrf.protect, showForm);
    // onError ends the chain, so a refusal at any step (rate limit, cross-site, body, token) lands in it.
    router.post(form.path, deps.addressBound, ...deps.rateLimit, rejectCrossSite(config.siteUrl), requireFormBody, ...parseBody, csrf.cookies, csrf.protect, submit, onError);
  }

  // A check's result, with the form to check another site: private to whoever has its link (the
  // page is rendered for it, never stored by a cache, kept out of search indexes). A token that
  // leads nowhere answers 404; the address with no token is the page saying so, and its form.
  router.get(routesPaths.aiReadinessResult, deps.addressBound, csrf.cookies, csrf.protect, async (req, res, next) => {
    try {
      const token = req.query[SITE_CHECK_PARAM];
      const siteCheck = typeof token === 'string' && token.length <= 100 ? deps.siteChecks.store.viewByToken(token) : null;
      res.setHeader('X-Robots-Tag', 'noindex');
      await deps.sendPage(req, res, routesPaths.aiReadinessResult, { ...visitorTokens(req), form: 'readiness', siteCheck }, siteCheck || token === undefined ? 200 : 404);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** The answer to an accepted post; `checkToken`: the page it goes to shows that check. */
function respondSuccess(req: Request, res: Response, form: FormDefinition, checkToken: string | null = null): void {
  const target = form.answer(checkToken);
  if (wantsJson(req)) {
    res.status(200).json({ ok: true, redirect: form.scriptFollows ? target : undefined });
    return;
  }
  res.redirect(303, target);
}

/**
 * What a form page is shown with besides the tokens: the contact page says a message was sent
 * (after a post without JavaScript); the audit form is filled with the website a check's result
 * sent the visitor with, when it is a valid one (`/free-audit?website=...`).
 */
function shownWith(form: FormDefinition, req: Request): Partial<FormState> {
  if (form.name === 'contact' && req.query.sent === '1') return { form: 'contact', sent: true };
  const website = req.query[AUDIT_WEBSITE_PARAM];
  if (form.name !== 'audit' || typeof website !== 'string') return {};
  const checked = validateForm(auditFields.filter((field) => field.name === 'website_url'), { website_url: website });
  return checked.ok ? { form: 'audit', values: { website_url: checked.values.website_url ?? '' } } : {};
}
