import { excerpt } from '../../shared/excerpt';
import type { ProbeView } from '../../shared/visibility-probe';
import type { Db } from '../db/database';
import { tokenHash } from '../site-check/check-store';
import { ASSISTANTS } from './assistant-catalogue';
import { nameOrigin, signsOfStored } from '../business/business-name';
import { nameKey } from '../business/names';
import { firstKeyword } from './prompts';
import { tally, type ProbeReport } from './probe-report';

/** The start of an example answer the prospect is shown. */
const EXAMPLE_CHARACTERS = 280;
/** Businesses shown as named instead, per assistant. */
const OTHERS_SHOWN = 5;

/**
 * Why a probe did not run, as the prospect reads it: the reasons that are about their request, in
 * their terms; the ones about the agency's side (the day's call limit, a key, a restart) as none at all,
 * since the page then says the team will ask by hand. The agency reads every reason in its mail.
 */
function reasonForProspect(reason: string | null): string {
  if (reason?.startsWith('nothing to ask: every')) return 'every keyword and product you gave names your business itself, and we ask as a buyer would, without your name';
  if (reason?.startsWith('nothing to ask')) return 'your request gave no keywords, products or customers to ask about';
  if (reason?.startsWith('no brand or website')) return 'we had no business name or website to look for in their answers';
  if (reason?.startsWith('one address may have')) return 'we asked them about another request from your connection in the last 24 hours';
  return '';
}

/**
 * What the answers were searched for, as the prospect reads it: the name and where on their page
 * it was read, and their site; none when neither was known.
 */
function searchedForView(report: ProbeReport): Pick<ProbeView, 'searchedFor'> {
  if (report.brand === null && report.domain === null) return {};
  const signs = signsOfStored(report);
  const from = signs.includes('given') ? 'as our team wrote it' : nameOrigin(signs);
  return { searchedFor: { name: report.brand, from, site: report.domain } };
}

/** What the questions were about, as the page's heading says it: the request's first keyword. */
export function probeKeyword(targetKeywords: string): string {
  return firstKeyword(targetKeywords) ?? 'your business';
}

/**
 * What the prospect is shown of a finished probe: each assistant's count, who it named instead
 * (one business however its answers wrote its name), one of its answers. Made once, when the probe
 * is recorded, and stored beside its report.
 */
export function prospectView(report: ProbeReport, keyword: string): ProbeView {
  if (report.status === 'skipped') return { status: 'skipped', keyword, reason: reasonForProspect(report.reason) };
  if (report.status === 'failed') return { status: 'skipped', keyword, reason: '' };
  return {
    status: 'done',
    keyword,
    ...searchedForView(report),
    assistants: report.assistants.map((assistant) => {
      const example = assistant.answers.find((answer) => answer.named && answer.text) ?? assistant.answers.find((answer) => answer.text);
      return {
        name: ASSISTANTS[assistant.id].label,
        answered: assistant.answered,
        named: assistant.named,
        // Tallied as the agency's report tallies them: "Pipe Pros" and "PIPE PROS" are one business.
        others: tally(assistant.answers.map((answer) => answer.others), nameKey).slice(0, OTHERS_SHOWN).map(({ value }) => value),
        example: example?.text ? { question: example.prompt, answer: excerpt(example.text, EXAMPLE_CHARACTERS) } : null,
      };
    }),
  };
}

interface RequestRow {
  target_keywords: string;
  /** The request's probe: null when it has none. */
  status: string | null;
  view: string | null;
  /** Only for a probe finished before its view was stored with it. */
  report: string | null;
}

/**
 * The probe a thank-you link shows, found by the link's check token: that request's probe, as
 * stored for the prospect (a few hundred bytes, read at every poll of the page); for a held
 * submission's token, a probe still running when probes are on (a sender cannot tell it was
 * held); null for any other token, and while no assistant is configured.
 */
export function probeViews(db: Db, probesOn: boolean): (token: string) => ProbeView | null {
  const request = db.prepare<[string], RequestRow>(
    `SELECT audit_submissions.target_keywords, probe.status, probe.view, CASE WHEN probe.view IS NULL THEN probe.report END AS report
     FROM site_checks JOIN audit_submissions ON audit_submissions.id = site_checks.audit_id
     LEFT JOIN visibility_probes AS probe ON probe.audit_id = site_checks.audit_id
     WHERE site_checks.token_hash = ?`,
  );
  const held = db.prepare<[string], string>(`SELECT json_extract(fields, '$.target_keywords') FROM quarantine WHERE check_token_hash = ? AND form = 'audit'`).pluck();
  return (token) => {
    if (!probesOn) return null;
    const hash = tokenHash(token);
    const found = request.get(hash);
    if (found) {
      if (found.status === null) return null;
      if (found.view !== null) return JSON.parse(found.view) as ProbeView;
      const keyword = probeKeyword(found.target_keywords);
      // A probe recorded before views were stored: made from its report, on each read.
      if (found.report !== null) return prospectView(JSON.parse(found.report) as ProbeReport, keyword);
      return found.status === 'failed' ? { status: 'skipped', keyword, reason: '' } : { status: 'pending', keyword };
    }
    const heldKeywords = held.get(hash);
    return typeof heldKeywords === 'string' ? { status: 'pending', keyword: probeKeyword(heldKeywords) } : null;
  };
}
