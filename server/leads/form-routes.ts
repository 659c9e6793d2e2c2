import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';
import { CSRF_TOKEN_PATH, FORM_STARTED_FIELD, HONEYPOT_FIELD, type FormName, type FormState, type FormTokens } from '../../shared/forms/form-contract';
import { auditFields } from '../../shared/forms/audit-form';
import { contactFields } from '../../shared/forms/contact-form';
import { validateForm, type FieldSpec, type FormValues } from '../../shared/forms/form-schema';
import { routesPaths, site } from '../../shared/site';
import { thankYouWithCheck } from '../../shared/site-check';
import type { Config } from '../config';
import { isCsrfError, postedToken, type CsrfProtection } from '../http/csrf';
import { CrossSiteRequestError, rejectCrossSite } from '../http/cross-site';
import type { FillTimer, PostedNote } from '../http/fill-time';
import { RateLimitError } from '../http/rate-limit';
import type { SitePages } from '../pages/site-pages';
import { clientAddress } from '../http/address-bound';
import type { CheckBudget } from '../site-check/check-budget';
import { newCheckToken, tokenHash, type SiteCheckStore } from '../site-check/check-store';
import { reportWithoutFacts } from '../site-check/run-check';
import type { LeadStore } from './lead-store';
import { composeNotification } from './notification-mail';

/** Leads one e-mail address may send in 24 hours before more are held in quarantine. */
export const LEADS_PER_ADDRESS_PER_DAY = 3;

/**
 * Site checks one client address may start in an hour through the audit form: more than a
 * business asking for its own audit needs, few enough that the form is no way to send a site
 * traffic in bulk.
 */
export const CHECKS_PER_ADDRESS_PER_HOUR = 5;

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

interface FormDefinition {
  name: FormName;
  path: string;
  fields: readonly FieldSpec[];
  /** Where a plain (no JavaScript) form post goes after success: Post/Redirect/Get. */
  successRedirect: string;
}

const forms: FormDefinition[] = [
  { name: 'audit', path: routesPaths.freeAudit, fields: auditFields, successRedirect: routesPaths.thankYou },
  { name: 'contact', path: routesPaths.contact, fields: contactFields, successRedirect: `${routesPaths.contact}?sent=1` },
];

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
   * for its findings. `budget` counts the checks each client address starts in an hour; past
   * it, or with the queue full, the check is recorded as skipped and the lead goes on as ever.
   */
  siteChecks: { store: SiteCheckStore; mailWaitMs: number; onQueued: () => void; budget: CheckBudget };
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
 * The two form pages: GET renders the page with the visitor's token and fill-time note; POST
 * stores a lead (or gives the form back with its errors); GET /csrf-token gives a token to a form
 * reached by client-side navigation (the page it came from had none).
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

  router.get(CSRF_TOKEN_PATH, deps.addressBound, csrf.cookies, csrf.protect, (req, res) => {
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(visitorTokens(req));
  });

  const requireFormBody: RequestHandler = (req, _res, next) =>
    next(req.is(['application/x-www-form-urlencoded', 'application/json']) ? undefined : new UnsupportedContentTypeError('unsupported content type'));

  // extended: false parses with node:querystring: flat keys only, no nested objects, and a
  // repeated field becomes an array, which validation refuses.
  const parseBody = [
    express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 40 }),
    express.json({ limit: FORM_BODY_LIMIT, strict: true }),
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
      const state: FormState = { ...tokens, form: form.name, message, values: keptValues(form.fields, body), ...extra };
      await deps.sendPage(req, res, form.path, state, status);
    };

    const showForm: RequestHandler = async (req, res, next) => {
      try {
        // After a message sent without JavaScript, the contact page says so.
        const sent = form.name === 'contact' && req.query.sent === '1';
        const state: FormState = { ...visitorTokens(req), ...(sent ? { form: 'contact', sent: true } : {}) };
        await deps.sendPage(req, res, form.path, state, 200);
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
          holdAndThank(req, res, suspicion, keptValues(form.fields, body), now);
          return;
        }
        const result = validateForm(form.fields, body);
        if (!result.ok) {
          req.log.info({ form: form.name, fields: Object.keys(result.errors) }, 'Form refused: invalid fields');
          await respondRefused(req, res, 400, messages.invalid, { errors: result.errors });
          return;
        }
        // One address may not fill the agency's inbox: past a few leads a day, more are held.
        if (store.countLeadsFrom(result.values.email ?? '', new Date(now.getTime() - 86_400_000)) >= LEADS_PER_ADDRESS_PER_DAY) {
          holdAndThank(req, res, `more than ${LEADS_PER_ADDRESS_PER_DAY} requests from this address in 24 hours`, result.values, now);
          return;
        }
        const website = form.name === 'audit' ? (result.values.website_url ?? '') : '';
        const checkToken = website ? newCheckToken() : null;
        const checks = deps.siteChecks;
        const skipReason = !checkToken
          ? null
          : !checks.budget.take(clientAddress(req))
            ? `more than ${checks.budget.perHour} site checks were asked for from one address within an hour`
            : checks.store.queueFull()
              ? 'too many site checks are waiting to run just now'
              : null;
        const skipped = checkToken && skipReason ? reportWithoutFacts(website, 'skipped', skipReason, now) : null;
        const saved = store.save(
          form.name,
          result.values,
          now,
          (id) =>
            composeNotification({
              kind: form.name,
              id,
              fields: form.fields,
              values: result.values,
              receivedAt: now,
              from: config.mailFrom,
              to: config.mailTo,
              siteUrl: config.siteUrl,
              brand: site.brand,
              ...(checkToken ? { siteCheck: skipped ?? ('pending' as const) } : {}),
            }),
          !checkToken
            ? {}
            : skipped
              ? { withLead: (id) => checks.store.recordSkipped(id, website, checkToken, skipped, now) }
              : { mailDueAt: new Date(now.getTime() + checks.mailWaitMs), withLead: (id) => checks.store.enqueue(id, website, checkToken, now) },
        );
        req.log.info({ form: form.name, id: saved.id, mailId: saved.mailId, siteCheck: !checkToken ? false : (skipReason ?? true) }, 'Lead stored');
        respondSuccess(req, res, form, checkToken);
        setImmediate(deps.onStored);
        if (checkToken && !skipped) setImmediate(checks.onQueued);
      } catch (error) {
        next(error);
      }
    };

    const holdAndThank = (req: Request, res: Response, reason: string, values: FormValues, now: Date) => {
      // The same answer as a lead's, a check link included, which the result page answers as a
      // check still running: a bot learns nothing from it, and a held submission's website is
      // never fetched.
      const decoyToken = form.name === 'audit' && values.website_url ? newCheckToken() : null;
      const id = store.hold(form.name, reason, boundedValues(form.fields, values), now, decoyToken ? tokenHash(decoyToken) : null);
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
  return router;
}

/** The answer to a stored post; `checkToken`: the thank-you page shows that request's site check. */
function respondSuccess(req: Request, res: Response, form: FormDefinition, checkToken: string | null = null): void {
  const target = checkToken ? thankYouWithCheck(checkToken) : form.successRedirect;
  if (wantsJson(req)) {
    res.status(200).json({ ok: true, redirect: form.name === 'audit' ? target : undefined });
    return;
  }
  res.redirect(303, target);
}
